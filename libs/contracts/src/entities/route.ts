import { z } from 'zod';
import { dec, decCmp, decDiv, decFormat, decMul } from '../decimal';
import {
  DecimalText,
  defineEntityContract,
  Id,
  NonNegative,
  NonNegativeMoney,
  Percent,
  Text,
  type BaseRow,
} from './common';

export const ROUTE_TYPES = ['truck', 'train', 'plane'] as const;
export type RouteType = (typeof ROUTE_TYPES)[number];
export const ROUTE_TYPE_LABELS: Record<RouteType, string> = { truck: 'авто', train: 'ж/д', plane: 'авиа' };

export const ROUTE_STATES = ['draft', 'active', 'archive'] as const;
export type RouteState = (typeof ROUTE_STATES)[number];
export const ROUTE_STATE_LABELS: Record<RouteState, string> = {
  draft: 'черновик',
  active: 'активен',
  archive: 'в архиве',
};
/** The spec leaves route transitions open; ours (docs/adr/0003): a draft is activated or archived, archive ↔ active. */
export const ROUTE_TRANSITIONS: Record<RouteState, readonly RouteState[]> = {
  draft: ['active', 'archive'],
  active: ['archive'],
  archive: ['active'],
};

export const DENSITY_UNITS = ['kg', 'm3'] as const;
export type DensityUnit = (typeof DENSITY_UNITS)[number];
export const DENSITY_UNIT_LABELS: Record<DensityUnit, string> = { kg: '$ за кг', m3: '$ за м³' };

/**
 * One row of a route's density table: for cargo whose density (kg/m³) is in [density_from,
 * density_to) the price is `price` dollars per kg, or per m³ for light cargo. density_to null: no upper bound.
 */
export const DensityRow = z.strictObject({
  density_from: NonNegative(2),
  density_to: NonNegative(2).nullable().default(null),
  price: NonNegativeMoney().refine((v) => Number(v) > 0, 'цена должна быть больше 0'),
  unit: z.enum(DENSITY_UNITS).default('kg'),
});
export type DensityRow = z.infer<typeof DensityRow>;
export const DENSITY_ROW_LABELS: Record<keyof DensityRow, string> = {
  density_from: 'плотность от, кг/м³',
  density_to: 'плотность до, кг/м³',
  price: 'цена, $',
  unit: 'за',
};

export const ROUTE_MESSAGES = {
  densityRange: (n: number) => `строка ${n} таблицы плотности: «от» должно быть меньше «до»`,
  densityOverlap: (n: number) => `строка ${n} таблицы плотности пересекается с предыдущей`,
  densityOpenEnd: 'только последняя строка таблицы плотности может быть без верхней границы',
  days: 'срок «до» не может быть меньше срока «от»',
  transition: (from: string, to: string) => `тариф нельзя перевести из состояния «${from}» в «${to}»`,
  activateNeeds: (what: string) => `чтобы активировать тариф, укажите: ${what}`,
  lastLink: (what: string) =>
    `у активного тарифа должен остаться хотя бы один ${what}; сначала переведите его в архив`,
} as const;

/** Sorted by density_from, ranges must not overlap; only the last may be open-ended. */
export const DensityTable = z
  .array(DensityRow)
  .max(100)
  .default([])
  .transform((rows) => [...rows].sort((a, b) => decCmp(dec(a.density_from), dec(b.density_from))))
  .superRefine((rows, ctx) => {
    rows.forEach((row, i) => {
      if (row.density_to !== null && decCmp(dec(row.density_from), dec(row.density_to)) >= 0)
        ctx.addIssue({ code: 'custom', message: ROUTE_MESSAGES.densityRange(i + 1) });
      const prev = rows[i - 1];
      if (!prev) return;
      if (prev.density_to === null) ctx.addIssue({ code: 'custom', message: ROUTE_MESSAGES.densityOpenEnd });
      else if (decCmp(dec(row.density_from), dec(prev.density_to)) < 0)
        ctx.addIssue({ code: 'custom', message: ROUTE_MESSAGES.densityOverlap(i + 1) });
    });
  });

export const logisticRoute = defineEntityContract({
  name: 'logistic_route',
  title: 'тарифы',
  fields: z.strictObject({
    title: z.string().trim().min(1).max(200),
    type: z.enum(ROUTE_TYPES),
    state: z.enum(ROUTE_STATES).default('draft'),
    operator_id: Id,
    from_city_id: Id,
    days_from: z.number().int().min(0).max(365).nullable().default(null),
    days_to: z.number().int().min(0).max(365).nullable().default(null),
    buyout_commission: Percent.default('0'),
    density_table: DensityTable,
    description: Text(),
    comment: Text(),
  }),
  labels: {
    title: 'название',
    type: 'тип',
    state: 'состояние',
    operator_id: 'оператор',
    operator_title: 'оператор',
    from_city_id: 'город отправления',
    from_city_title: 'город отправления',
    days_from: 'срок от, дней',
    days_to: 'срок до, дней',
    buyout_commission: 'комиссия за выкуп, %',
    density_table: 'таблица плотности',
    description: 'описание',
    comment: 'комментарий',
    logistic_product_type_id: 'типы товаров',
    warehouse_point_id: 'склады',
  },
  itemLabels: { density_table: DENSITY_ROW_LABELS },
  required: ['title', 'type', 'operator_id', 'from_city_id'],
  searchFields: ['title', 'description'],
  refs: { operator_id: 'operator', from_city_id: 'city' },
  ownership: { operator: 'operator_id' },
});
export type LogisticRoute = BaseRow &
  z.infer<typeof logisticRoute.fields> & { from_city_title: string | null; operator_title: string | null };

const routeLink = (name: string, title: string, column: string, label: string, target: string) =>
  defineEntityContract({
    name,
    title,
    fields: z.strictObject({ logistic_route_id: Id, [column]: Id }),
    labels: {
      logistic_route_id: 'тариф',
      logistic_route_title: 'тариф',
      [column]: label,
      [column.replace(/_id$/, '_title')]: label,
    },
    required: ['logistic_route_id', column],
    searchFields: [],
    refs: { logistic_route_id: 'logistic_route', [column]: target },
  });
export const logisticRouteProductTypeLink = routeLink(
  'logistic_route_logistic_product_type_link',
  'типы товаров тарифов',
  'logistic_product_type_id',
  'тип товара',
  'logistic_product_type',
);
export const logisticRouteWarehousePointLink = routeLink(
  'logistic_route_warehouse_point_link',
  'склады тарифов',
  'warehouse_point_id',
  'склад',
  'warehouse_point',
);

/** Tariff calculator (/logistic_route/widget): where from, which arrival warehouse, what, how heavy and big. */
export const CalculateParams = z.strictObject({
  from_city_id: Id,
  to_warehouse_id: Id,
  logistic_product_type_id: Id,
  weight: DecimalText(3).refine((v) => Number(v) > 0, 'вес должен быть больше 0'),
  volume: DecimalText(4).refine((v) => Number(v) > 0, 'объём должен быть больше 0'),
});
export type CalculateParams = z.infer<typeof CalculateParams>;

export type RouteQuote = {
  logistic_route_id: number;
  title: string;
  type: RouteType;
  operator_id: number;
  operator_title: string | null;
  from_city_title: string | null;
  days_from: number | null;
  days_to: number | null;
  buyout_commission: string;
  /** kg/m³, two decimals */
  density: string;
  unit: DensityUnit;
  /** dollars per kg or per m³ */
  rate: string;
  /** the tariff price in dollars */
  price_usd: string;
};

/**
 * The price of cargo on a route (spec §9: tariff prices are in dollars): density = weight / volume,
 * the density table row containing it, then rate × weight (or × volume for m³ rows). Null when no
 * row covers that density.
 */
export function quoteDensityTable(
  table: readonly DensityRow[],
  weight: string,
  volume: string,
): { density: string; unit: DensityUnit; rate: string; price_usd: string } | null {
  const [w, v] = [dec(weight), dec(volume)];
  if (w <= 0n || v <= 0n) return null;
  const density = decDiv(w, v);
  const row = table.find(
    (r) =>
      decCmp(density, dec(r.density_from)) >= 0 &&
      (r.density_to === null || decCmp(density, dec(r.density_to)) < 0),
  );
  if (!row) return null;
  const price = decMul(dec(row.price), row.unit === 'kg' ? w : v);
  return { density: decFormat(density, 2), unit: row.unit, rate: row.price, price_usd: decFormat(price, 2) };
}
