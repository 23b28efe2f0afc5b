import { Button, Dialog, DialogBody, HTMLSelect, HTMLTable, Tag } from '@blueprintjs/core';
import { exchangeRate, formatNumber } from '@caravan/contracts';
import { useDocumentListQuery, type Values } from '@caravan/ui-kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** spec §9: the rate table pages by 15 or 30 */
const PAGE_SIZES = [15, 30] as const;

/**
 * The exchange-rate history dialog of the order card (spec §2, §9): the operator's client sell rates,
 * newest first, the order's own rate marked (its rate_id, else the latest one, which it is priced at).
 */
export function RateHistory({ order }: { order: Values }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [perPage, setPerPage] = useState<number>(PAGE_SIZES[0]);
  const { data } = useDocumentListQuery(
    {
      entity: 'exchange_rate',
      params: { operator_id: order.operator_id, per_page: perPage, order_by: 'date desc' },
    },
    { skip: !open },
  );
  const rows = data?.items ?? [];
  const own = (order.rate_id as number | null) ?? rows[0]?.id;
  return (
    <>
      <Button icon="exchange" variant="minimal" text={t('orders.rates')} onClick={() => setOpen(true)} />
      <Dialog isOpen={open} title={t('orders.rates')} onClose={() => setOpen(false)}>
        <DialogBody>
          <HTMLSelect value={perPage} onChange={(e) => setPerPage(Number(e.target.value))}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </HTMLSelect>
          <HTMLTable compact striped data-testid="rate-history">
            <thead>
              <tr>
                <th>{t('orders.date')}</th>
                <th>{exchangeRate.labels.client_sell_rate_cny}</th>
                <th>{exchangeRate.labels.client_sell_rate_usd}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{String(r.date).split('-').reverse().join('-')}</td>
                  <td className="caravan-number">
                    {formatNumber(r.client_sell_rate_cny as string, { maxDigits: 4 })}
                  </td>
                  <td className="caravan-number">
                    {formatNumber(r.client_sell_rate_usd as string, { maxDigits: 4 })}
                  </td>
                  <td>{r.id === own && <Tag intent="primary">{t('orders.rateOfOrder')}</Tag>}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </DialogBody>
      </Dialog>
    </>
  );
}
