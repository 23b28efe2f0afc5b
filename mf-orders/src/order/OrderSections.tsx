import { Button, Card, H5, HTMLTable } from '@blueprintjs/core';
import { OrderTimeline } from './timeline/OrderTimeline';
import { WarehousePhotos } from './timeline/WarehousePhotos';
import { clientOrder, duesShown, formatMoney, type OrderWarning } from '@caravan/contracts';
import {
  ChatBox,
  toast,
  useCurrentUser,
  useDocumentSaveMutation,
  userIsAdmin,
  userIsStaff,
  type SectionContext,
  type Values,
} from '@caravan/ui-kit';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { OzonPanel } from './carrier/OzonPanel';
import { OrderTasks } from './OrderTasks';
import { PositionTable } from './PositionTable';
import { TaxRates } from './PriceAdjustment';
import { RateHistory } from './RateHistory';

const L = clientOrder.labels;
const rub = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : formatMoney(v as string));

/** Spec §2 price breakdown: product buyout, deliveries, packaging, tariff, total; and what is still due (§9). */
function PriceBreakdown({ values }: { values: Values }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const dues = duesShown(values);
  const rows: [string, string][] = [
    [L.buyout_price_rur, rub(values.buyout_price_rur)],
    [L.to_ru_delivery_price_rur, rub(values.to_ru_delivery_price_rur)],
    [L.to_door_delivery_price_rur, rub(values.to_door_delivery_price_rur)],
    [L.package_price_rur, rub(values.package_price_rur)],
    [
      L.logistic_route_price_usd,
      values.logistic_route_price_usd ? formatMoney(values.logistic_route_price_usd as string, '$') : '—',
    ],
    [L.total_price_rur, rub(values.total_price_rur)],
    [t('orders.productDue'), rub(dues.product)],
    [t('orders.deliveryDue'), rub(dues.delivery)],
    ...(Number(dues.overpaid) > 0 ? [[t('orders.overpaid'), rub(dues.overpaid)] as [string, string]] : []),
  ];
  return (
    <Card className="caravan-order-section" data-testid="price-breakdown">
      <H5>{t('orders.prices')}</H5>
      <HTMLTable compact>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <td>{label}</td>
              <td className="caravan-number">{value}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <TaxRates order={values} admin={userIsAdmin(user) && !values.deleted} />
      <RateHistory order={values} />
    </Card>
  );
}

/** The order's warnings (spec §3 warning_arr): staff delete one that is dealt with. */
function Warnings({ values, editable }: { values: Values; editable: boolean }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [save] = useDocumentSaveMutation();
  const warnings = (values.warning_arr as OrderWarning[] | undefined) ?? [];
  if (!warnings.length) return null;
  const remove = async (index: number) => {
    try {
      await save({
        entity: 'client_order',
        values: { id: values.id as number, warning_arr: warnings.filter((_, i) => i !== index) },
      }).unwrap();
      void toast(t('orders.warningDeleted'), 'success');
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    }
  };
  return (
    <Card className="caravan-order-section" data-testid="warnings">
      <H5>{L.warning_arr}</H5>
      {warnings.map((w, i) => (
        <p key={i}>
          <b>
            {w.category_ru}
            {w.type_ru ? ` · ${w.type_ru}` : ''}
          </b>{' '}
          {w.message} <small>{w.datetime.slice(0, 16).replace('T', ' ')}</small>
          {editable && userIsStaff(user) && (
            <Button
              size="small"
              variant="minimal"
              icon="trash"
              aria-label={t('item.delete')}
              onClick={() => void remove(i)}
            />
          )}
        </p>
      ))}
    </Card>
  );
}

/** Spec §2: delivery data of the order (title, address, pickup point code, contact). */
function DeliverySection({ values }: { values: Values }) {
  const { t } = useTranslation();
  const d = values.delivery_data as Record<string, string> | null;
  return (
    <Card className="caravan-order-section" data-testid="delivery-section">
      <H5>{L.delivery_data}</H5>
      {d ? (
        <p>
          {d.title}: {[d.city, d.address, d.delivery_point_code].filter(Boolean).join(', ')}
          <br />
          {d.contact_name} {d.contact_phone}
        </p>
      ) : (
        <p>{t('orders.noDelivery')}</p>
      )}
    </Card>
  );
}

/** Parent and child orders (spec §2), each a link to its card. */
function Family({ values }: { values: Values }) {
  const children = (values.children as { id: number; title: string }[] | undefined) ?? [];
  if (!values.parent_order_id && !children.length) return null;
  return (
    <Card className="caravan-order-section">
      {values.parent_order_id ? (
        <p>
          {L.parent_order_id}:{' '}
          <Link to={`../${values.parent_order_id as number}`} relative="path">
            {(values.parent_order_title as string) || `№${values.parent_order_id as number}`}
          </Link>
        </p>
      ) : null}
      {children.length > 0 && (
        <p>
          {L.children}:{' '}
          {children.map((c) => (
            <Link key={c.id} to={`../${c.id}`} relative="path" style={{ marginRight: 8 }}>
              {c.title || `№${c.id}`}
            </Link>
          ))}
        </p>
      )}
    </Card>
  );
}

/** Below the order's fields: prices, delivery, family, the positions table, the order's tasks and its chat. */
export function OrderSections({ id, values, editable }: SectionContext) {
  return (
    <>
      <div className="caravan-order-sections">
        <PriceBreakdown values={values} />
        <DeliverySection values={values} />
        <Family values={values} />
        <Warnings values={values} editable={editable} />
        <OzonPanel id={id} values={values} />
        <WarehousePhotos orderId={id} />
        <OrderTimeline id={id} />
      </div>
      <PositionTable order={values} orderId={id} editable={editable} />
      <div className="caravan-order-sections">
        <OrderTasks orderId={id} />
        <ChatBox tableName="client_order" tableId={id} />
      </div>
    </>
  );
}
