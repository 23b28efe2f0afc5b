import { z } from 'zod';
import { CARRIER_VENDOR_LABELS, type CarrierVendor } from './carriers';
import { dec, decFormat } from './decimal';
import {
  ORDER_STAGE_LABELS,
  POSITION_STAGE_LABELS,
  type OrderStage,
  type PositionStage,
} from './entities/orderStages';
import { formatMoney } from './formatting';
import { pluralForm } from './entities/invoice';
import type { PhotoReview } from './photoReview';

/**
 * The order timeline (issue 19; docs/adr/0025-order-timeline.md): one readable story of an order for its
 * client and staff — every stage with its date and who moved it, payments and refunds, the carrier's and the
 * Chinese courier's tracking, the warehouse's receipts and photos — in plain Russian, newest first. Built
 * here from the order's history rows so the words live in one place; svc-orders gathers the rows.
 */
export const TIMELINE_KINDS = [
  'stage',
  'payment',
  'carrier',
  'tracking',
  'warehouse',
  'photos',
  'message',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export type TimelineEntry = {
  /** When it happened (ISO). */
  at: string;
  kind: TimelineKind;
  text: string;
  /** Who did it, in the reader's words ('вы', 'оператор', a staff member's name, the carrier). */
  who: string;
  /** The positions it is about (a grouped change names them all). */
  positions: { id: number; title: string }[];
  /** Warehouse photos (file URLs), for kind 'photos'. */
  images: string[];
  /** A chat message's attachments (kind 'message'): their names and links. */
  files?: { name: string; file: string }[];
};

export const ClientOrderTimelineParams = z.strictObject({ id: z.number().int().positive() });
/** The most entries one timeline answers: an order of thousands of positions stays readable and light. */
export const TIMELINE_LIMIT = 300;

/** A history row as svc-orders keeps it, with the position's title for position rows. */
export type TimelineHistoryRow = {
  table_name: 'client_order' | 'client_order_position';
  item_id: number;
  position_title?: string | null;
  user_id: number | null;
  user_full_name: string;
  datetime: string;
  field: string;
  old_value: unknown;
  new_value: unknown;
};

/** A live message of the order's chat, as svc-orders keeps it. */
export type TimelineChatMessage = {
  author_id: number | null;
  fullname: string;
  created_at: string;
  title: string;
  files: { file: string; name?: string; deleted?: boolean }[] | null;
};

export type TimelineCarrierStatus = {
  carrier: string;
  label: string;
  status_at: string;
  city: string | null;
};

/** The history fields the timeline tells (the rest stays in the staff's raw history dialog). */
export const TIMELINE_ORDER_FIELDS = ['stage', 'product_paid_rur', 'delivery_paid_rur'] as const;
export const TIMELINE_POSITION_FIELDS = [
  'stage',
  'warehouse_images',
  'consolidation_receive_table',
  'warehouse_cnt_data',
  'options',
] as const;

const CARRIER_ACTOR = 'изменено перевозчиком ';
const POSITION_FORMS = ['позиция', 'позиции', 'позиций'] as const;
const PLACE_FORMS = ['место', 'места', 'мест'] as const;
const PHOTO_FORMS = ['фото', 'фото', 'фото'] as const;
const FILE_FORMS = ['файл', 'файла', 'файлов'] as const;

export const TIMELINE_TEXTS = {
  orderStage: (stage: OrderStage) => `заказ: ${ORDER_STAGE_LABELS[stage]}`,
  positionStage: (stage: PositionStage, n: number, title: string) =>
    n === 1
      ? `позиция «${title}»: ${POSITION_STAGE_LABELS[stage]}`
      : `${n} ${pluralForm(n, POSITION_FORMS)}: ${POSITION_STAGE_LABELS[stage]}`,
  paid: (what: 'product' | 'delivery', amount: string) =>
    `оплачено ${what === 'product' ? 'за товар' : 'за доставку'}: ${formatMoney(amount)}`,
  refunded: (what: 'product' | 'delivery', amount: string) =>
    `возврат ${what === 'product' ? 'за товар' : 'за доставку'}: ${formatMoney(amount)}`,
  carrier: (carrier: string, label: string, city: string | null) =>
    `${CARRIER_VENDOR_LABELS[carrier as CarrierVendor] ?? carrier}: ${label}${city ? `, ${city}` : ''}`,
  tracking: (title: string, label: string, city: string | null) =>
    `по Китаю, «${title}»: ${label}${city ? `, ${city}` : ''}`,
  received: (title: string, places: number, transporter: string) =>
    `на склад консолидации поступило ${places} ${pluralForm(places, PLACE_FORMS)} позиции «${title}»${transporter ? ` (${transporter})` : ''}`,
  photosAccepted: (title: string) => `фото позиции «${title}» приняты`,
  morePhotos: (title: string, comment: string) => `нужны ещё фото позиции «${title}»: ${comment}`,
  photos: (title: string, n: number) => `${n} ${pluralForm(n, PHOTO_FORMS)} со склада: позиция «${title}»`,
  /** A message with files and no words. */
  filesOnly: (n: number) => `${n} ${pluralForm(n, FILE_FORMS)} в чате`,
  chatMember: 'участник чата',
  you: 'вы',
  staff: 'оператор',
  system: 'Caravan',
} as const;

type Reader = { user_id: number; staff: boolean };

/** Who did it, as this reader may know it: staff see names; a client sees 'вы', the carrier or 'оператор'. */
function whoFor(row: Pick<TimelineHistoryRow, 'user_id' | 'user_full_name'>, reader: Reader): string {
  if (row.user_full_name.startsWith(CARRIER_ACTOR)) {
    const vendor = row.user_full_name.slice(CARRIER_ACTOR.length);
    return vendor === CARRIER_VENDOR_LABELS.cnt ? TIMELINE_TEXTS.system : vendor;
  }
  if (row.user_id !== null && row.user_id === reader.user_id) return TIMELINE_TEXTS.you;
  if (reader.staff) return row.user_full_name || TIMELINE_TEXTS.system;
  return row.user_id === null ? TIMELINE_TEXTS.system : TIMELINE_TEXTS.staff;
}

const money = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? dec(v) : 0n);
const liveFiles = (v: unknown): string[] =>
  Array.isArray(v)
    ? (v as { file?: string; deleted?: boolean }[]).filter((a) => a?.file && !a.deleted).map((a) => a.file!)
    : [];
const rowsOf = (v: unknown) =>
  Array.isArray(v) ? (v as { id: number; amount?: number; transporter?: string }[]) : [];
const positionOf = (row: TimelineHistoryRow) => ({
  id: row.item_id,
  title: row.position_title?.trim() || `№${row.item_id}`,
});

/** One history row told as what a reader notices, or nothing (an unchanged value, a field not told). */
function entryOf(
  row: TimelineHistoryRow,
  reader: Reader,
):
  | (Omit<TimelineEntry, 'positions'> & {
      position?: { id: number; title: string };
      group?: string;
    })
  | null {
  const base = { at: row.datetime, who: whoFor(row, reader), images: [] as string[] };
  if (row.table_name === 'client_order') {
    if (row.field === 'stage' && typeof row.new_value === 'string' && row.new_value in ORDER_STAGE_LABELS)
      return { ...base, kind: 'stage', text: TIMELINE_TEXTS.orderStage(row.new_value as OrderStage) };
    if (row.field === 'product_paid_rur' || row.field === 'delivery_paid_rur') {
      const delta = money(row.new_value) - money(row.old_value);
      if (delta === 0n) return null;
      const what = row.field === 'product_paid_rur' ? 'product' : 'delivery';
      const amount = decFormat(delta < 0n ? -delta : delta);
      const text = delta > 0n ? TIMELINE_TEXTS.paid(what, amount) : TIMELINE_TEXTS.refunded(what, amount);
      return { ...base, kind: 'payment', text };
    }
    return null;
  }
  const position = positionOf(row);
  switch (row.field) {
    case 'stage':
      if (typeof row.new_value !== 'string' || !(row.new_value in POSITION_STAGE_LABELS)) return null;
      // one move of many positions in one go is one line
      return { ...base, kind: 'stage', text: '', position, group: `stage:${row.new_value}` };
    case 'warehouse_images': {
      const before = new Set(liveFiles(row.old_value));
      const added = liveFiles(row.new_value).filter((f) => !before.has(f));
      if (!added.length) return null;
      return {
        ...base,
        kind: 'photos',
        text: TIMELINE_TEXTS.photos(position.title, added.length),
        position,
        images: added,
      };
    }
    case 'consolidation_receive_table': {
      const before = new Set(rowsOf(row.old_value).map((r) => r.id));
      const added = rowsOf(row.new_value).filter((r) => !before.has(r.id));
      if (!added.length) return null;
      const places = added.reduce((sum, r) => sum + (r.amount ?? 0), 0);
      const transporters = [...new Set(added.map((r) => r.transporter?.trim()).filter(Boolean))].join(', ');
      return {
        ...base,
        kind: 'warehouse',
        text: TIMELINE_TEXTS.received(position.title, places, transporters),
        position,
      };
    }
    case 'warehouse_cnt_data': {
      const data = row.new_value as { label?: string; city?: string | null; event_at?: string | null } | null;
      const old = row.old_value as typeof data;
      if (!data?.label || (old?.label === data.label && old?.event_at === data.event_at)) return null;
      return {
        ...base,
        at: data.event_at ?? row.datetime,
        kind: 'tracking',
        text: TIMELINE_TEXTS.tracking(position.title, data.label, data.city ?? null),
        position,
      };
    }
    case 'options': {
      // of the options only the client's answer to the photos is news
      const review = (row.new_value as { photo_review?: PhotoReview | null } | null)?.photo_review;
      const before = (row.old_value as { photo_review?: PhotoReview | null } | null)?.photo_review;
      if (!review || review.at === before?.at) return null;
      const text =
        review.answer === 'accepted'
          ? TIMELINE_TEXTS.photosAccepted(position.title)
          : TIMELINE_TEXTS.morePhotos(position.title, review.comment);
      return { ...base, kind: 'photos', text, position };
    }
    default:
      return null;
  }
}

/**
 * A chat message as a line: its words (or how many files it brings), its author as the chat shows them
 * ('вы' for the reader's own), its files by name.
 */
function messageEntry(m: TimelineChatMessage, reader: Reader): TimelineEntry {
  const files = (m.files ?? [])
    .filter((f) => f.file && !f.deleted)
    .map((f) => ({ file: f.file, name: f.name?.trim() || f.file.split('/').pop() || f.file }));
  return {
    at: m.created_at,
    kind: 'message',
    text: m.title.trim() || TIMELINE_TEXTS.filesOnly(files.length),
    who:
      m.author_id !== null && m.author_id === reader.user_id
        ? TIMELINE_TEXTS.you
        : m.fullname.trim() || TIMELINE_TEXTS.chatMember,
    positions: [],
    images: [],
    files,
  };
}

/** Rows of one go (the same second, the same field and value, the same person) tell one line. */
const sameGo = (at: string) => at.slice(0, 19);

/**
 * The timeline of an order, newest first, at most TIMELINE_LIMIT entries: its history rows (order and
 * positions), its carrier's statuses and its chat's messages, in the reader's words.
 */
export function orderTimeline(
  history: readonly TimelineHistoryRow[],
  carrierStatuses: readonly TimelineCarrierStatus[],
  reader: Reader,
  messages: readonly TimelineChatMessage[] = [],
): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const groups = new Map<string, { entry: TimelineEntry; stage: PositionStage }>();
  for (const row of history) {
    const told = entryOf(row, reader);
    if (!told) continue;
    const { position, group, ...entry } = told;
    const positions = position ? [position] : [];
    if (!group) {
      entries.push({ ...entry, positions });
      continue;
    }
    const key = `${group}|${sameGo(entry.at)}|${entry.who}`;
    const found = groups.get(key);
    if (found) found.entry.positions.push(...positions);
    else {
      const grouped = { ...entry, positions };
      groups.set(key, { entry: grouped, stage: group.slice('stage:'.length) as PositionStage });
      entries.push(grouped);
    }
  }
  for (const { entry, stage } of groups.values())
    entry.text = TIMELINE_TEXTS.positionStage(stage, entry.positions.length, entry.positions[0]!.title);
  for (const s of carrierStatuses)
    entries.push({
      at: s.status_at,
      kind: 'carrier',
      text: TIMELINE_TEXTS.carrier(s.carrier, s.label, s.city),
      who: CARRIER_VENDOR_LABELS[s.carrier as CarrierVendor] ?? s.carrier,
      positions: [],
      images: [],
    });
  for (const m of messages) entries.push(messageEntry(m, reader));
  return entries
    .map((e) =>
      'stage' in e ? (({ stage: _s, ...rest }) => rest)(e as TimelineEntry & { stage: string }) : e,
    )
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at))
    .slice(0, TIMELINE_LIMIT);
}
