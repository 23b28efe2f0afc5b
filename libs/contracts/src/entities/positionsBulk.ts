import { z } from 'zod';
import { dec, decCmp, decFormat, type Decimal } from '../decimal';
import { specMessage } from '../validation';
import { Id, IsoDate, Money, NonNegativeMoney, OptionalId, Percent, Text } from './common';
import { RECEIVE_ROW_LABELS, ReceiveRecordInput } from './order';
import {
  MOVABLE_ORDER_STAGES,
  POSITION_ACTION_LABELS,
  type OrderStage,
  type PositionStage,
} from './orderStages';

/**
 * Working with many positions at once (spec orders-payments-calls §2, §4, §5, §7): invoice import,
 * clipboard paste, bulk edit and stage change, move, consolidation and split. The UI and svc-orders
 * share these rules and messages; the service applies each operation in one transaction
 * (docs/adr/0010-positions-in-bulk.md).
 */

/** Spec §9: stages of orders that may take part in a consolidation or a move (one list: orderStages). */
export const CONSOLIDATION_STAGES: readonly OrderStage[] = MOVABLE_ORDER_STAGES;
/** Ours: the most positions one bulk call may touch, and rows one import may create. */
export const BULK_MAX_POSITIONS = 5_000;
export const IMPORT_MAX_ROWS = 20_000;

const one = (n: number) => n % 10 === 1 && n % 100 !== 11;

export const BULK_MESSAGES = {
  // spec §8 success notices
  imported: specMessage('позиции успешно импортированы'),
  pasted: (n: number) => `добавлено позиций из буфера обмена: ${n}`,
  // the spec's texts, with the singular where Russian needs it ('данные 1 позиции', 'в 21 позиции')
  bulkEdited: (n: number) => `данные ${n} ${one(n) ? 'позиции' : 'позиций'} изменены`,
  stageChanged: (n: number) => `этап в ${n} ${one(n) ? 'позиции' : 'позициях'} изменён`,
  moved: (n: number) => `перенесено позиций: ${n}`,
  consolidated: specMessage('консолидация заказов выполнена'),
  splitCreated: specMessage('дочерний заказ создан'),
  // spec §5 / §8 refusals
  clipboardNothing: specMessage('не удалось распознать позиции из буфера обмена'),
  selectForConsolidation: specMessage('выберите позиции для консолидации'),
  selectForMove: specMessage('выберите позиции для переноса'),
  selectForEdit: 'выберите позиции для изменения',
  moveFailed: specMessage('ошибка при переносе позиций'),
  tooFewOrders: (n: number) => `слишком мало подходящих заказов (${n}), должно быть больше 2`,
  splitSelect: specMessage('выберите хотя бы одну позицию'),
  splitTooMuch: (max: string) => `количество не может быть больше ${max}`,
  splitZero: specMessage('количество должно быть больше 0'),
  typeRequired: 'укажите тип товара',
  // ours
  importDraftOnly: 'импорт позиций возможен только в новый заказ',
  importEmpty: 'в файле не найдено ни одной позиции',
  importTooMany: (max: number) =>
    `в файле больше ${max.toLocaleString('ru-RU')} позиций; разделите его на части`,
  importUnreadable: 'файл не удалось прочитать как таблицу Excel',
  bulkNothingToChange: 'укажите хотя бы одно поле для изменения',
  numberExpected: 'введите число, например 12 или 1250,50',
  titleTooLong: 'название не длиннее 500 символов',
  noneInSourceStage: (stage: string) => `среди выбранных нет позиций на этапе «${stage}»`,
  positionsGone: 'часть выбранных позиций удалена или перенесена; обновите страницу',
  moveSameOrder: 'позиции уже в этом заказе',
  moveOtherClient: 'заказ принадлежит другому клиенту',
  moveOtherOperator: 'заказ обслуживает другой оператор',
  moveStage: 'заказ на этом этапе не принимает и не отдаёт позиции',
  moveIntoFormed: 'в сформированный заказ переносит только оператор или администратор',
  moveOutOfFormed: 'из сформированного заказа переносит только оператор или администратор',
  moveOtherStage: (from: string, to: string) =>
    `позиции переносятся между заказами на одном этапе: «${from}» и «${to}» — разные`,
  consolidationMap: 'каждая позиция заказов консолидации должна остаться в одном из них',
  splitHasParent: 'дочерний заказ нельзя разделить ещё раз',
  splitAll: 'в заказе должна остаться хотя бы одна позиция',
  splitStage: 'разделить можно только заказ на этапе до отправки в РФ',
  // the import's bounds (docs/adr/0016-import-as-suppliers-write.md)
  importTooLarge:
    'файл распаковывается в слишком большую таблицу; оставьте в нём только счёт (без лишних листов и пустых ячеек) или разделите его на части',
  importTooSlow: 'файл читается слишком долго; оставьте в нём только счёт или разделите его на части',
  importBusy: 'сейчас читается много файлов; повторите через минуту',
  importUserBusy: 'ваш предыдущий файл ещё читается; дождитесь его результата',
  importSumMismatch: (sum: string, amount: string, price: string, product: string) =>
    `сумма ${sum} не равна кол-ву × цену: ${amount} × ${price} = ${product}; проверьте числа строки`,
} as const;

const IdSet = z
  .array(Id)
  .min(1)
  .max(BULK_MAX_POSITIONS)
  .refine((ids) => new Set(ids).size === ids.length, 'позиции повторяются');

// ---------------------------------------------------------------- invoice rows (Excel import)

/** A row of a supplier invoice as the import reads it and the edit dialog shows it (spec §7 result.rows). */
export const InvoiceRow = z.strictObject({
  title: z.string().trim().min(1).max(500),
  amount: NonNegativeMoney().nullable().default(null),
  unit: Text(50),
  price_no_nds: Money.nullable().default(null),
  nds: Percent.nullable().default(null),
  price_nds: Money.nullable().default(null),
  /** The supplier's price in yuan (a column in ¥, CNY, RMB, 元): the position's buyout price_cny. */
  price_cny: Money.nullable().default(null),
});
export type InvoiceRow = z.infer<typeof InvoiceRow>;
export const INVOICE_ROW_LABELS: Record<keyof InvoiceRow, string> = {
  title: 'название',
  amount: 'кол-во',
  unit: 'ед.',
  price_no_nds: 'цена без НДС, ₽',
  nds: 'НДС, %',
  price_nds: 'цена с НДС, ₽',
  price_cny: 'цена, ¥',
};
/** Where a column of the file went: a row's field, or 'sum' (read to check and derive the prices). */
export type ImportTarget = keyof InvoiceRow | 'sum' | 'sum_cny';
export const IMPORT_TARGET_LABELS: Record<ImportTarget, string> = {
  ...INVOICE_ROW_LABELS,
  sum: 'сумма, ₽ (для проверки)',
  sum_cny: 'сумма, ¥ (для проверки)',
};
/** A column of the file as the import read it: its header (as written) and where its values went. */
export type ImportColumn = { header: string; target: ImportTarget };
/** A row the operator should look at: its index in `rows` and why, in words. */
export type ImportFlag = { row: number; message: string };
export type InvoiceImport = {
  rows: InvoiceRow[];
  number: string;
  columns?: ImportColumn[];
  flags?: ImportFlag[];
};

const ONE = dec('1');
const asDec = (v: string | null | undefined): Decimal | null => {
  if (v === null || v === undefined || v.trim() === '') return null;
  try {
    return dec(v.trim().replace(',', '.'));
  } catch {
    return null;
  }
};

/** Spec §5 "the rows to edit are trimmed": titles and units without outer spaces, rows without a title dropped. */
export function trimInvoiceRows<T extends { title: string; unit?: string }>(rows: readonly T[]): T[] {
  return rows
    .map((r) => ({ ...r, title: r.title.trim(), ...(r.unit !== undefined ? { unit: r.unit.trim() } : {}) }))
    .filter((r) => r.title !== '');
}

/** Spec §7: the imported invoice number joined to the order's numbers with ', ' (each number once). */
export function joinOrderNumber(current: string, imported: string): string {
  const numbers = current
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const added = imported.trim();
  if (added && !numbers.includes(added)) numbers.push(added);
  return numbers.join(', ');
}

// ---------------------------------------------------------------- clipboard

/** A waybill as pasted: letters, digits and dashes with at least one digit (ours: a plain word is not a waybill). */
const PASTED_LINE = /^\s*([A-Za-z0-9-]{4,100})\s+(\S.*?)\s*$/;
/** A date at the start of a line ('2026-11-20 поступление на склад') is not a waybill. */
const DATE_LIKE = /^\d{4}-\d{1,2}-\d{1,2}$|^\d{1,2}-\d{1,2}-\d{4}$/;

/** Spec §5: each non-empty line 'waybill, whitespace, title'; other lines are skipped. */
export function parseClipboardPositions(text: string): { waybill: string; title: string }[] {
  return text
    .split(/\r?\n/)
    .map((line) => PASTED_LINE.exec(line))
    .filter((m): m is RegExpExecArray => Boolean(m && /\d/.test(m[1]!) && !DATE_LIKE.test(m[1]!)))
    .map((m) => ({ waybill: m[1]!, title: m[2]!.slice(0, 500) }));
}

// ---------------------------------------------------------------- procedures' params

/** A position made by an import or a paste (spec §7: position update id -1 with the import's fields). */
export const NewPosition = z.strictObject({
  title: z.string().trim().min(1).max(500),
  amount: NonNegativeMoney().nullable().default(null),
  waybill: Text(100),
  type_id: OptionalId,
  sell_price_no_nds_rur: Money.nullable().default(null),
  sell_price_nds_rur: Money.nullable().default(null),
  price_cny: NonNegativeMoney().nullable().optional(),
});
export type NewPosition = z.infer<typeof NewPosition>;

/** client_order_position_import: the positions of one import or paste, all or none. */
export const PositionImportParams = z.strictObject({
  client_order_id: Id,
  positions: z.array(NewPosition).min(1).max(IMPORT_MAX_ROWS),
  /** The invoice number to join into the order's order_number. */
  order_number: Text(200).optional(),
  source: z.enum(['excel', 'clipboard']).default('excel'),
});

/** Spec §5: bulk edit sends only non-empty fields: waybill, type_id, provider_id, link. */
export const BULK_EDIT_FIELDS = ['waybill', 'type_id', 'provider_id', 'link'] as const;
export const PositionBulkUpdateParams = z.strictObject({
  ids: IdSet,
  fields: z.strictObject({
    waybill: z.string().trim().max(100).optional(),
    // a reference chosen and cleared again in the dialog comes as null: left alone, like an empty field
    type_id: Id.nullable().optional(),
    provider_id: Id.nullable().optional(),
    link: z.string().trim().max(2000).optional(),
  }),
});
/** The fields a bulk edit sets: those given and not empty. */
export const bulkEditFields = (fields: Partial<Record<(typeof BULK_EDIT_FIELDS)[number], unknown>>) =>
  Object.fromEntries(
    BULK_EDIT_FIELDS.filter((f) => fields[f] !== undefined && fields[f] !== null && fields[f] !== '').map(
      (f) => [f, fields[f]],
    ),
  );

/** Spec §4 bulk transitions: the action and the stage it takes positions from. */
export const BULK_STAGE_ACTIONS = {
  warehouse_waiting: 'buyout_done',
  warehouse_received: 'warehouse_waiting',
} as const satisfies Record<string, PositionStage>;
export type BulkStageAction = keyof typeof BULK_STAGE_ACTIONS;

export const PositionBulkActionParams = z.strictObject({
  ids: IdSet,
  action: z.enum(['warehouse_waiting', 'warehouse_received']),
  receive_date: IsoDate.nullable().optional(),
  receive_record: ReceiveRecordInput.nullable().optional(),
});
export const POSITION_BULK_PARAM_LABELS = {
  labels: {
    ids: 'позиции',
    action: 'действие',
    fields: 'поля',
    receive_date: 'дата доставки на склад консолидации',
    receive_record: 'поступление',
    client_order_id: 'заказ',
    positions: 'позиции',
    order_number: 'номер заказа',
    order_map: 'заказы',
    master_order_id: 'заказ',
    position_list: 'позиции',
  },
  itemLabels: { receive_record: RECEIVE_ROW_LABELS, positions: INVOICE_ROW_LABELS },
} as const;

/** Which selected positions a bulk stage change affects, or why it cannot be made (spec §4, §5). */
export function bulkStageProblems(
  rows: readonly { stage: string; waybill: string }[],
  action: BulkStageAction,
  input: {
    receive_date?: string | null;
    receive_record?: { date?: string | null; amount?: number | null } | null;
  },
): { affected: number[]; problem: string | null } {
  const source = BULK_STAGE_ACTIONS[action];
  const affected = rows.flatMap((r, i) => (r.stage === source ? [i] : []));
  if (action === 'warehouse_waiting') {
    const missing = affected.filter((i) => !rows[i]!.waybill.trim()).length;
    if (missing) return { affected, problem: `необходимо указать waybill в ${missing} позициях` };
    if (!input.receive_date) return { affected, problem: specMessage('не указана дата') };
  } else {
    if (!input.receive_record?.amount || input.receive_record.amount < 1)
      return { affected, problem: specMessage('не указано кол-во коробок') };
    if (!input.receive_record.date) return { affected, problem: specMessage('не указана дата') };
  }
  return { affected, problem: null };
}

export const PositionMoveParams = z.strictObject({ ids: IdSet, client_order_id: Id });

/** client_order_consolidate: for each order of the consolidation, the positions it keeps afterwards. */
export const OrderConsolidateParams = z.strictObject({
  order_map: z.record(z.string().regex(/^\d{1,15}$/), z.array(Id).max(BULK_MAX_POSITIONS)),
});

export const OrderSplitParams = z.strictObject({
  master_order_id: Id,
  position_list: z.array(z.strictObject({ id: Id, amount: DecimalAmount() })).max(BULK_MAX_POSITIONS),
});
function DecimalAmount() {
  return z
    .union([z.string(), z.number()])
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim().replace(',', '.')))
    .refine(
      (v) => /^-?\d{1,10}(\.\d{1,2})?$/.test(v),
      'ожидается количество с не более чем 2 знаками после запятой',
    );
}

/**
 * Spec §5 split checks, for the dialog and the service: at least one position, each quantity above 0
 * and not above the position's amount.
 */
export function splitProblems(
  available: readonly { id: number; amount: string | null }[],
  chosen: readonly { id: number; amount: string }[],
): string | null {
  if (!chosen.length) return BULK_MESSAGES.splitSelect;
  for (const c of chosen) {
    const row = available.find((r) => r.id === c.id);
    if (!row) return BULK_MESSAGES.positionsGone;
    const wanted = asDec(c.amount);
    if (wanted === null || wanted <= 0n) return BULK_MESSAGES.splitZero;
    const max = asDec(row.amount) ?? ONE;
    if (decCmp(wanted, max) > 0) return BULK_MESSAGES.splitTooMuch(decFormat(max, 2).replace(/\.00$/, ''));
  }
  return null;
}

/**
 * The position actions the table applies to its selection in one click (ours, issue 17: eight positions
 * took sixteen clicks): 'проверено' and 'выкуплено'. Each selected position able to take the action
 * (positionActionsFor) takes it by the same rule as one at a time; the others are left as they are.
 */
export const BULK_POSITION_STEPS = ['verification_done', 'buyout_done'] as const;
export type BulkPositionStep = (typeof BULK_POSITION_STEPS)[number];
export const PositionBulkStepParams = z.strictObject({ ids: IdSet, action: z.enum(BULK_POSITION_STEPS) });
export const BULK_STEP_MESSAGES = {
  noneCanTake: (action: BulkPositionStep) =>
    `среди выбранных нет позиций, к которым применимо действие «${POSITION_ACTION_LABELS[action]}»`,
  refusedAt: (title: string, message: string) => `позиция «${title}»: ${message}`,
};
