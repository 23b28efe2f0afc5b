import {
  quoteDensityTable,
  ROUTE_MESSAGES,
  ROUTE_STATE_LABELS,
  ROUTE_TRANSITIONS,
  type CalculateParams,
  type DensityRow,
  type RouteQuote,
  type RouteState,
} from '@caravan/contracts';
import { BusinessError, type Db } from '@caravan/service-kit';

type RouteValues = Record<string, unknown> & {
  id?: number;
  state: RouteState;
  days_from: number | null;
  days_to: number | null;
  density_table: DensityRow[];
};

const liveLinks = (trx: Db, table: string, routeId: number) =>
  trx(table).where({ logistic_route_id: routeId, deleted: false }).count({ n: '*' }).first();

/**
 * A route's own rules (docs/adr/0003): days from ≤ days to; states move draft → active | archive,
 * active → archive, archive → active; an active route has a density table, days, a product type and
 * a warehouse, so the calculator and the orders can price it.
 */
export async function checkRoute(trx: Db, prev: RouteValues | null, next: RouteValues) {
  if (next.days_from !== null && next.days_to !== null && next.days_to < next.days_from)
    throw new BusinessError(ROUTE_MESSAGES.days);
  const from = prev?.state ?? 'draft';
  if (next.state !== from && !ROUTE_TRANSITIONS[from].includes(next.state))
    throw new BusinessError(
      ROUTE_MESSAGES.transition(ROUTE_STATE_LABELS[from], ROUTE_STATE_LABELS[next.state]),
    );
  if (next.state !== 'active') return;
  const missing: string[] = [];
  if (!next.density_table.length) missing.push('таблицу плотности');
  if (next.days_from === null || next.days_to === null) missing.push('срок доставки');
  const [types, warehouses] = next.id
    ? await Promise.all([
        liveLinks(trx, 'logistic_route_logistic_product_type_link', next.id),
        liveLinks(trx, 'logistic_route_warehouse_point_link', next.id),
      ])
    : [undefined, undefined];
  if (!Number(types?.n ?? 0)) missing.push('типы товаров');
  if (!Number(warehouses?.n ?? 0)) missing.push('склады');
  if (missing.length) throw new BusinessError(ROUTE_MESSAGES.activateNeeds(missing.join(', ')));
}

/** An active route keeps at least one product type and one warehouse: the last live link is not removed. */
export async function checkRouteLinkRemoval(trx: Db, table: string, routeId: number, what: string) {
  const route = await trx('logistic_route').where({ id: routeId }).first('state');
  if (route?.state !== 'active') return;
  const left = await liveLinks(trx, table, routeId);
  // the link being removed is still live inside this transaction
  if (Number(left?.n ?? 0) <= 1) throw new BusinessError(ROUTE_MESSAGES.lastLink(what));
}

type RouteRow = Omit<RouteQuote, 'logistic_route_id' | 'density' | 'unit' | 'rate' | 'price_usd'> & {
  id: number;
  density_table: DensityRow[];
};

/** The tariff calculator: active routes from the city to the arrival warehouse carrying the product type, cheapest first. */
export async function calculate(db: Db, p: CalculateParams): Promise<RouteQuote[]> {
  const routes: RouteRow[] = await db('logistic_route as r')
    .select(
      'r.id',
      'r.title',
      'r.type',
      'r.operator_id',
      'r.days_from',
      'r.days_to',
      'r.buyout_commission',
      'r.density_table',
      db.raw('(select o.title from operator o where o.id = r.operator_id) as operator_title'),
      db.raw('(select c.title from city c where c.id = r.from_city_id) as from_city_title'),
    )
    .where({ 'r.state': 'active', 'r.deleted': false, 'r.from_city_id': p.from_city_id })
    .whereExists((q) =>
      q
        .select(1)
        .from('logistic_route_warehouse_point_link as w')
        .whereRaw('w.logistic_route_id = r.id')
        .where({ 'w.warehouse_point_id': p.to_warehouse_id, 'w.deleted': false }),
    )
    .whereExists((q) =>
      q
        .select(1)
        .from('logistic_route_logistic_product_type_link as t')
        .whereRaw('t.logistic_route_id = r.id')
        .where({ 't.logistic_product_type_id': p.logistic_product_type_id, 't.deleted': false }),
    );
  const quotes = routes.flatMap((r): RouteQuote[] => {
    const quote = quoteDensityTable(r.density_table, p.weight, p.volume);
    if (!quote) return [];
    const { density_table: _table, id, ...route } = r;
    return [{ logistic_route_id: id, ...route, ...quote }];
  });
  return quotes.sort((a, b) => Number(a.price_usd) - Number(b.price_usd));
}
