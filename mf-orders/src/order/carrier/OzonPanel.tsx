import { Card, H5, HTMLSelect, HTMLTable } from '@blueprintjs/core';
import {
  CARRIER_MESSAGES,
  OZON_POSTING_STATUS_LABELS,
  formatMoney,
  type OzonProduct,
} from '@caravan/contracts';
import { toast, useCurrentUser, useDocumentSaveMutation, userIsStaff, type Values } from '@caravan/ui-kit';
import { useEffect, useRef } from 'react';
import { useOzonPostingGetMutation } from '../../api/carriers';
import { usePositionsOfOrder } from '../api';
import { ozonLinkOf, ozonMismatches, ozonPostingKey, ozonPostingNumber, type OzonLink } from './ozon';

export const OZON_TEXTS = {
  title: 'отправление Ozon',
  position: 'позиция',
  none: '—',
  noProducts: 'в отправлении нет товаров',
};

/** The Ozon posting the card fetched (shared by the panel and the position table's Ozon column). */
export const useOzonPosting = (orderId: number) =>
  useOzonPostingGetMutation({ fixedCacheKey: ozonPostingKey(orderId) });

/**
 * The Ozon posting panel of the card (spec §2, §4, §5): fetched when the carrier becomes ozon, cleared
 * when it stops being; its products, each linked to one of the order's positions (options.ozonData).
 */
export function OzonPanel({ id, values }: { id: number; values: Values }) {
  const [fetchPosting, { data: posting, reset }] = useOzonPosting(id);
  const [save] = useDocumentSaveMutation();
  // linking a product edits the positions: the operator's work (spec §6)
  const staff = userIsStaff(useCurrentUser());
  const { data: positions } = usePositionsOfOrder(id);
  const number = values.transport_company_rus === 'ozon' ? ozonPostingNumber(values) : '';

  // the trigger and reset change identity as the shared cache changes: the effect follows the number only
  const calls = useRef({ fetchPosting, reset });
  calls.current = { fetchPosting, reset };
  useEffect(() => {
    if (!number) {
      calls.current.reset();
      return;
    }
    calls.current
      .fetchPosting({ client_order_id: id, posting_number: number })
      .unwrap()
      .catch((err: { message: string }) => {
        calls.current.reset();
        void toast(err.message, 'danger');
      });
  }, [id, number]);

  const rows = positions?.items ?? [];
  useEffect(() => {
    if (!posting || !rows.length) return;
    const found = ozonMismatches(posting, values, rows);
    if (found.length) console.warn(`Ozon: отправление ${posting.posting_number} расходится с заказом`, found);
  }, [posting, rows, values]);

  if (!number || !posting) return null;
  const linkedTo = (product: OzonProduct) => rows.find((p) => ozonLinkOf(p)?.sku === product.sku);
  const link = async (product: OzonProduct, positionId: number | null) => {
    const before = linkedTo(product);
    try {
      if (before && before.id !== positionId) await setLink(before, null);
      const target = rows.find((p) => p.id === positionId);
      if (target)
        await setLink(target, { sku: product.sku, offer_id: product.offer_id, quantity: product.quantity });
      void toast(target ? CARRIER_MESSAGES.ozonLinked : CARRIER_MESSAGES.ozonUnlinked, 'success');
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    }
  };
  const setLink = (position: Values & { id: number }, ozonData: OzonLink | null) =>
    save({
      entity: 'client_order_position',
      values: { id: position.id, options: { ...(position.options as object), ozonData } },
    }).unwrap();

  return (
    <Card className="caravan-order-section" data-testid="ozon-panel">
      <H5>
        {OZON_TEXTS.title} {posting.posting_number} ·{' '}
        {OZON_POSTING_STATUS_LABELS[posting.status] ?? posting.status}
      </H5>
      {posting.products.length === 0 ? (
        <p>{OZON_TEXTS.noProducts}</p>
      ) : (
        <HTMLTable compact>
          <tbody>
            {posting.products.map((product) => (
              <tr key={product.sku} data-testid={`ozon-product-${product.sku}`}>
                <td>{product.name}</td>
                <td>{product.offer_id}</td>
                <td className="caravan-number">{product.quantity}</td>
                <td className="caravan-number">{formatMoney(product.price)}</td>
                <td>
                  <HTMLSelect
                    aria-label={`${OZON_TEXTS.position}: ${product.name}`}
                    value={linkedTo(product)?.id ?? ''}
                    disabled={!staff}
                    onChange={(e) =>
                      void link(product, e.currentTarget.value ? Number(e.currentTarget.value) : null)
                    }
                  >
                    <option value="">{OZON_TEXTS.none}</option>
                    {rows.map((p) => (
                      <option key={p.id} value={p.id}>
                        {String(p.title)}
                      </option>
                    ))}
                  </HTMLSelect>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}

/** The Ozon column of the position table: shown only for an ozon order whose posting has products. */
export function useOzonColumn(orderId: number, order: Values) {
  const [, { data: posting }] = useOzonPosting(orderId);
  return order.transport_company_rus === 'ozon' && !!posting?.products.length;
}

export function OzonCell({ position }: { position: Values }) {
  const linkData = ozonLinkOf(position);
  return <>{linkData ? `${linkData.offer_id} × ${linkData.quantity}` : ''}</>;
}
