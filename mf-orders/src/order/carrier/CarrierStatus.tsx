import { Callout, HTMLTable, Tag, Tooltip } from '@blueprintjs/core';
import {
  CDEK_STATUS_TEXT,
  isCdekStatus,
  isTrackedCarrier,
  type ShipmentView,
  type TrackedCarrier,
} from '@caravan/contracts';
import type { Values } from '@caravan/ui-kit';
import { useShipmentGetQuery } from '../../api/carriers';
import { formatMoment } from './format';

/** One line of the carrier's history as client_order_get_by_id gives it (carrier_statuses). */
export type CarrierStatusRow = {
  carrier: string;
  vendor_status: string;
  label: string;
  status_at: string;
  city: string | null;
};

/** The label and tooltip of the current status: CDEK's own words for its codes, the label for the others. */
export function statusText(carrier: TrackedCarrier, shipment: ShipmentView) {
  const status = shipment.vendor_status;
  if (carrier === 'cdek' && isCdekStatus(status)) return CDEK_STATUS_TEXT[status];
  return { label: shipment.label ?? status ?? '', tooltip: shipment.tooltip ?? '' };
}

/** The history newest first: the order's carrier_statuses, else what the shipment itself keeps. */
export function historyNewestFirst(values: Values, shipment: ShipmentView | null | undefined) {
  // a carrier changed on the order leaves its old statuses behind: the card shows the current one's
  const own = ((values.carrier_statuses as CarrierStatusRow[] | undefined) ?? []).filter(
    (row) => row.carrier === values.transport_company_rus,
  );
  const rows = own.length ? own : (shipment?.history ?? []);
  return [...rows].sort((a, b) => b.status_at.localeCompare(a.status_at));
}

/**
 * The carrier's status on the order card (issue 18): the current status with its explanation, when the
 * carrier last confirmed it, the last failure in words while it lasts, and the history.
 */
export function CarrierStatus({ id, values }: { id: number; values: Values }) {
  const carrier = values.transport_company_rus;
  const tracked = isTrackedCarrier(carrier);
  const { data: shipment } = useShipmentGetQuery(id, { skip: !tracked });
  if (!tracked || !shipment) return null;
  const current = statusText(carrier, shipment);
  const history = historyNewestFirst(values, shipment);
  return (
    <div className="caravan-carrier-status" data-testid="carrier-status">
      {current.label && (
        <Tooltip content={current.tooltip} disabled={!current.tooltip}>
          <Tag
            large
            minimal
            intent={shipment.final ? 'success' : 'primary'}
            data-testid="carrier-status-label"
          >
            {current.label}
          </Tag>
        </Tooltip>
      )}{' '}
      {shipment.last_confirmed_at && (
        <span className="caravan-muted" data-testid="carrier-last-check">
          последняя проверка: {formatMoment(shipment.last_confirmed_at)}
        </span>
      )}
      {shipment.last_error && (
        <Callout intent="warning" icon="warning-sign" data-testid="carrier-last-error">
          {shipment.last_error}
        </Callout>
      )}
      {history.length > 0 && (
        <HTMLTable compact data-testid="carrier-history">
          <tbody>
            {history.map((row, i) => (
              <tr key={`${row.status_at}-${i}`}>
                <td>{formatMoment(row.status_at)}</td>
                <td>{row.label}</td>
                <td>{row.city ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </div>
  );
}
