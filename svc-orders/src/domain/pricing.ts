import {
  derivedPrices,
  ORDER_DERIVED_FIELDS,
  orderExchangeRate,
  quoteDensityTable,
  type DensityRow,
  type ExchangeRateRow,
  type Identity,
  type ServicePricing,
} from '@caravan/contracts';
import type { Db, EntityStore, Outbox } from '@caravan/service-kit';

type Row = Record<string, unknown> & { id: number; deleted: boolean };
export type PricingContext = {
  identity: Identity;
  outbox: Outbox;
  orders: EntityStore;
  positions: EntityStore;
};

const POSITION_DERIVED = [
  'buyout_price_rur',
  'to_ru_delivery_price_cny',
  'to_door_delivery_price_rur',
] as const;

async function replicaData<T>(trx: Db, entity: string, id: unknown): Promise<T | null> {
  if (id === null || id === undefined) return null;
  const row = await trx('replica').where({ entity, id, deleted: false }).first('data');
  return (row?.data as T | undefined) ?? null;
}

const RATE_COLUMNS = `id, data->>'date' as date, (data->>'operator_id')::bigint as operator_id,
  data->>'client_sell_rate_cny' as client_sell_rate_cny, data->>'client_sell_rate_usd' as client_sell_rate_usd`;

/** The rates an order may be priced at: its own rate_id, or the operator's latest and the latest general one. */
async function candidateRates(trx: Db, order: Row): Promise<ExchangeRateRow[]> {
  const q = (where: string, bindings: (string | number)[]) =>
    trx
      .raw(
        `select ${RATE_COLUMNS} from replica where entity = 'exchange_rate' and not deleted and ${where}
         order by data->>'date' desc, id desc limit 1`,
        bindings,
      )
      .then((r: { rows: ExchangeRateRow[] }) => r.rows);
  const fix = (r: ExchangeRateRow) => ({
    ...r,
    id: Number(r.id),
    operator_id: r.operator_id === null ? null : Number(r.operator_id),
  });
  if (order.rate_id) return (await q('id = ?', [Number(order.rate_id)])).map(fix);
  const [own, general] = await Promise.all([
    q(`(data->>'operator_id')::bigint = ?`, [Number(order.operator_id)]),
    q(`data->>'operator_id' is null`, []),
  ]);
  return [...own, ...general].map(fix);
}

/** The rate an order is priced at now (spec §9): its rate_id, else the operator's latest. */
export async function currentOrderRate(trx: Db, order: Row): Promise<ExchangeRateRow | null> {
  return orderExchangeRate(
    { rate_id: order.rate_id as number | null, operator_id: order.operator_id as number },
    await candidateRates(trx, order),
  );
}

const differs = (row: Row, [k, v]: [string, unknown]) => String(row[k] ?? '') !== String(v ?? '');
const changed = (row: Row, values: Record<string, unknown>) =>
  Object.entries(values).some((entry) => differs(row, entry));
/** The stored values of the fields a repricing changes: its event's `prev`. */
const before = (row: Row, values: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(values)
      .filter((entry) => differs(row, entry))
      .map(([k]) => [k, row[k]]),
  );

/**
 * Brings an order's derived prices and its positions' estimates up to date (contracts' derivedPrices)
 * after a write of the order or of one of its positions, inside that write's transaction. Derived
 * values carry no history of their own (the inputs do); each row that changed is published.
 */
export async function repriceOrder(trx: Db, ctx: PricingContext, orderId: number) {
  const order = (await trx('client_order')
    .where({ id: orderId })
    .forUpdate()
    .first(ctx.orders.stored as string[])) as Row | undefined;
  if (!order) return;
  const positions = (await trx('client_order_position')
    .where({ client_order_id: orderId, deleted: false })
    .orderBy('id')
    .select(ctx.positions.stored as string[])) as Row[];
  const rate = await currentOrderRate(trx, order);
  const route = await replicaData<{ density_table?: DensityRow[]; buyout_commission?: string | null }>(
    trx,
    'logistic_route',
    order.logistic_route_id,
  );
  const routeQuote =
    route && order.weight && order.volume
      ? quoteDensityTable(route.density_table ?? [], String(order.weight), String(order.volume))
      : null;
  const derived = derivedPrices({
    order: {
      ...(order as Record<string, unknown> as Record<string, never>),
      manually_adjusted: Boolean(
        (order.options as { price_info?: { manually_adjusted?: boolean } } | null)?.price_info
          ?.manually_adjusted,
      ),
    },
    positions: positions as never[],
    rate,
    routePriceUsd: routeQuote?.price_usd ?? null,
    routeBuyoutCommission: route?.buyout_commission ?? null,
    package: await replicaData<ServicePricing>(trx, 'extra_service', order.package_id),
  });

  for (const [i, row] of positions.entries()) {
    const values = Object.fromEntries(POSITION_DERIVED.map((k) => [k, derived.positions[i]![k]]));
    if (!changed(row, values)) continue;
    const [updated] = (await trx('client_order_position')
      .where({ id: row.id })
      .update(values)
      .returning(ctx.positions.stored as string[])) as Row[];
    await ctx.positions.publish(
      ctx.outbox,
      trx,
      updated!,
      'updated',
      ctx.identity.user_id,
      before(row, values),
    );
  }
  const orderValues = Object.fromEntries(ORDER_DERIVED_FIELDS.map((k) => [k, derived.order[k]]));
  if (!changed(order, orderValues)) return;
  const [updated] = (await trx('client_order')
    .where({ id: orderId })
    .update(orderValues)
    .returning(ctx.orders.stored as string[])) as Row[];
  const prev = before(order, orderValues);
  await ctx.orders.publish(ctx.outbox, trx, updated!, 'updated', ctx.identity.user_id, prev);
}
