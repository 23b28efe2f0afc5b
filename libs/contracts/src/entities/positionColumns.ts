/**
 * Columns of the order's position table (spec §2). Item mode shows them all; consolidation mode its
 * five; doc mode the user's saved choice (options.settings.position_doc_columns; an empty one means the default) or our default set.
 */
export const POSITION_COLUMNS = [
  'number',
  'photo',
  'title',
  'stage',
  'waybill',
  'price_cny',
  'amount',
  'weight',
  'calculated_weight',
  'consolidation_sent',
  'consolidation_date',
  'consolidation_price_cny',
  'sum_cny',
  'to_ru_delivery_price_cny',
  'to_ru_per_unit_rur',
  'to_door_delivery_price_rur',
  'price_per_unit',
  'price_per_kg',
  'delivery_per_kg',
  'insurance',
] as const;
export type PositionColumn = (typeof POSITION_COLUMNS)[number];

/** Spec §2 consolidation mode: number, waybill, amount, sent-to-consolidation-warehouse, delivery date. */
export const CONSOLIDATION_MODE_COLUMNS: readonly PositionColumn[] = [
  'number',
  'waybill',
  'amount',
  'consolidation_sent',
  'consolidation_date',
];
/** Doc mode without a saved choice (the spec does not show the default set; ours: what an invoice lists). */
export const DEFAULT_DOC_COLUMNS: readonly PositionColumn[] = [
  'number',
  'title',
  'price_cny',
  'amount',
  'weight',
  'sum_cny',
  'price_per_unit',
];
