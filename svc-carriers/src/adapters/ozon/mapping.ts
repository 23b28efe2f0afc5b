import {
  dec,
  decDiv,
  decFormat,
  decMul,
  stageForCarrierStatus,
  type OrderStage,
  type OzonPosting,
  type OzonProduct,
} from '@caravan/contracts';
import type { ShipmentState } from '../carrier';
import type { OzonWirePosting, OzonWireProduct } from './types';

const GRAMS_PER_KG = dec('1000');
const isDecimal = (text: string | undefined): text is string => !!text && /^\d+(\.\d+)?$/.test(text.trim());

/**
 * The posting's weight in kg, three decimals: Σ dimensions.weight × quantity. Ozon gives
 * `dimensions.weight` in grams (its FBS posting docs: «вес товара в упаковке, г»; the same product's
 * card in /v3/product/info/list says weight_unit 'g'), so the sum is divided by 1000. null when no product
 * carries a weight; products without one count as 0.
 */
export function postingWeightKg(products: readonly OzonWireProduct[]): string | null {
  const weighed = products.filter((p) => isDecimal(p.dimensions?.weight));
  if (!weighed.length) return null;
  const grams = weighed.reduce(
    (sum, p) => sum + decMul(dec(p.dimensions!.weight!), dec(String(p.quantity))),
    0n,
  );
  return decFormat(decDiv(grams, GRAMS_PER_KG), 3);
}

/** Ozon prices come with four decimals ('1390.0000'); money is shown with two. */
const price = (text: string) => (isDecimal(text) ? decFormat(dec(text), 2) : text);

const toProduct = (p: OzonWireProduct): OzonProduct => ({
  name: p.name,
  sku: p.sku,
  offer_id: p.offer_id,
  quantity: p.quantity,
  price: price(p.price),
  currency_code: p.currency_code,
});

export const toOzonPosting = (wire: OzonWirePosting): OzonPosting => ({
  posting_number: wire.posting_number,
  status: wire.status,
  products: (wire.products ?? []).map(toProduct),
  weight: postingWeightKg(wire.products ?? []),
  delivering_date: wire.delivering_date ?? null,
});

/**
 * One status for the sync. Ozon's posting tells no time of its status, so `status_at` is when Ozon
 * confirmed it (`seenAt`, the answer's time); details.posting is what the card's Ozon column shows.
 */
export const toShipmentState = (posting: OzonPosting, seenAt: Date): ShipmentState => ({
  number: posting.posting_number,
  uuid: null,
  statuses: [{ vendor_status: posting.status, status_at: seenAt.toISOString(), city: null }],
  details: { posting },
});

export const ozonStage = (status: string): OrderStage | null => stageForCarrierStatus('ozon', status);
