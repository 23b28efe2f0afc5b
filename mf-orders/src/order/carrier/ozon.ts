import { OZON_WEIGHT_TOLERANCE_KG, type OzonPosting } from '@caravan/contracts';
import type { Values } from '@caravan/ui-kit';

/** A position's link to an Ozon product (options.ozonData). */
export type OzonLink = { sku: number; offer_id: string; quantity: number };
export const ozonLinkOf = (position: Values) =>
  ((position.options as { ozonData?: OzonLink | null } | null)?.ozonData ?? null) as OzonLink | null;

/** The posting number as Ozon knows it: the order's carrier number trimmed (spec §5). */
export const ozonPostingNumber = (order: Values) =>
  String(order.transport_company_rus_order_number ?? '').trim();

/** The cache key the card's Ozon panel and the position table share the fetched posting under. */
export const ozonPostingKey = (orderId: number) => `ozon-posting-${orderId}`;

/**
 * Where the posting and the order disagree (spec §5: quantities, posting number, weight within 0.1 kg,
 * delivery date). Only logged: Ozon's data is advice, the order stays as the operator made it.
 */
export function ozonMismatches(posting: OzonPosting, order: Values, positions: Values[]): string[] {
  const found: string[] = [];
  if (posting.posting_number !== ozonPostingNumber(order))
    found.push(`номер отправления ${posting.posting_number} ≠ ${ozonPostingNumber(order)}`);
  for (const product of posting.products) {
    const linked = positions.filter((p) => ozonLinkOf(p)?.sku === product.sku);
    const amount = linked.reduce((sum, p) => sum + Number(p.amount ?? 0), 0);
    if (linked.length && amount !== product.quantity)
      found.push(`товар ${product.sku}: в отправлении ${product.quantity}, в заказе ${amount}`);
  }
  if (posting.weight !== null && order.weight !== null && order.weight !== undefined && order.weight !== '') {
    const diff = Math.abs(Number(posting.weight) - Number(order.weight));
    if (diff > OZON_WEIGHT_TOLERANCE_KG + 1e-9)
      found.push(`вес ${posting.weight} кг ≠ ${String(order.weight)} кг`);
  }
  const date = (order.to_door_delivery_date as string | null | undefined)?.slice(0, 10);
  if (posting.delivering_date && date && posting.delivering_date.slice(0, 10) !== date)
    found.push(`дата доставки ${posting.delivering_date.slice(0, 10)} ≠ ${date}`);
  return found;
}
