import { Button, ButtonGroup, Callout, Tag } from '@blueprintjs/core';
import {
  clientOrder,
  formatDate,
  formatMoney,
  formatNumber,
  ORDER_STAGE_LABELS,
  ORDER_STATE_LABELS,
  orderTransitionsFor,
  orderWeightMismatchHint,
  type DeliveryType,
  type OrderStage,
  type OrderState,
  type OrderTransition,
} from '@caravan/contracts';
import {
  baseApi,
  rolesOf,
  setCurrentUser,
  toast,
  useCurrentUser,
  userIsStaff,
  useServerEvents,
  type AppStore,
  type SectionContext,
} from '@caravan/ui-kit';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { ownList } from './ownLists';
import { usePositionsOfOrder, useSettingsUpdateMutation } from './api';
import { CarrierCard } from './carrier/CarrierCard';
import { OrderPayment } from './OrderPayment';
import { StageDialog } from './StageDialog';
import { TelegramDialog } from './TelegramDialog';

/** Carrier tracking pages (spec §2: they open in a new tab). */
const TRACKING: Record<string, (n: string) => string> = {
  cdek: (n) => `https://www.cdek.ru/ru/tracking?order_id=${encodeURIComponent(n)}`,
  ozon: (n) => `https://tracking.ozon.ru/?track=${encodeURIComponent(n)}`,
  pec: (n) => `https://pecom.ru/services-are/order-status/?code=${encodeURIComponent(n)}`,
};

const STAGE_INTENT: Partial<Record<OrderStage, 'primary' | 'success' | 'warning'>> = {
  draft: 'warning',
  client_confirmed: 'success',
};

/** Keeps the open card live: the server pushes the order's and its positions' changes (SSE client_order_item). */
function useLiveOrder(id: number, shownStage: OrderStage) {
  const dispatch = useDispatch<AppStore['dispatch']>();
  const { t } = useTranslation();
  const shown = useRef(shownStage);
  shown.current = shownStage;
  useServerEvents(
    'client_order_item',
    id,
    (event) => {
      const entity = (event as { entity?: string }).entity;
      // a chat message changes neither the order nor its positions (the timeline hears it itself)
      if (entity === 'chat_message') return;
      dispatch(
        baseApi.util.invalidateTags([
          { type: 'Entity', id: 'client_order' },
          { type: 'Entity', id: 'client_order_position' },
        ]),
      );
      const stage = event.item.stage as OrderStage | undefined;
      // told only when the stage changed under the user's eyes (a repricing or a save of their own is not news)
      if (entity === 'client_order' && stage && stage !== shown.current)
        void toast(
          t('orders.stageArrived', { stage: ORDER_STAGE_LABELS[stage] }),
          'primary',
          3000,
          `live:${id}`,
        );
    },
    t('sse.failed', { defaultValue: 'ошибка: SSE connection failed' }),
  );
}

/** Favourite and archive marks of the open order: the user's own lists, kept in their settings. */
function OwnListToggles({ id }: { id: number }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const dispatch = useDispatch<AppStore['dispatch']>();
  const [update, { isLoading }] = useSettingsUpdateMutation();
  const toggle = async (key: 'favourite_orders' | 'archived_orders') => {
    const list = ownList(user, key);
    const next = list.includes(id) ? list.filter((x) => x !== id) : [...list, id];
    try {
      dispatch(setCurrentUser(await update({ [key]: next }).unwrap()));
      dispatch(baseApi.util.invalidateTags([{ type: 'Entity', id: 'client_order' }]));
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    }
  };
  const favourite = ownList(user, 'favourite_orders').includes(id);
  const archived = ownList(user, 'archived_orders').includes(id);
  return (
    <>
      <Button
        icon={favourite ? 'star' : 'star-empty'}
        variant="minimal"
        loading={isLoading}
        text={t(favourite ? 'orders.unfavourite' : 'orders.favourite')}
        onClick={() => void toggle('favourite_orders')}
      />
      <Button
        icon="archive"
        variant="minimal"
        text={t(archived ? 'orders.unarchive' : 'orders.archive')}
        onClick={() => void toggle('archived_orders')}
      />
    </>
  );
}

function Figure({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="caravan-figure" data-testid={testId}>
      <div className="caravan-figure-label">{label}</div>
      <div className="caravan-figure-value">{children ?? '—'}</div>
    </div>
  );
}

/**
 * The order card's header (spec §2): stage and state, the carrier number with copy and tracking link,
 * total, delivery date, weight, volume, route price; the weight hint; the stage buttons this user has.
 */
export function OrderHeader({ id, values }: SectionContext) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  useLiveOrder(id, values.stage as OrderStage);
  const [move, setMove] = useState<OrderTransition | null>(null);
  const [writing, setWriting] = useState(false);
  const { data: positions } = usePositionsOfOrder(id);
  const stage = values.stage as OrderStage;
  const moves = values.deleted
    ? []
    : orderTransitionsFor({ stage, delivery_type: values.delivery_type as DeliveryType }, rolesOf(user));
  const number = String(values.transport_company_rus_order_number ?? '');
  const tracking = TRACKING[String(values.transport_company_rus)];
  const hint = orderWeightMismatchHint(
    values.weight as string | null,
    (positions?.items ?? []).map((p) => ({ weight: p.weight as string, amount: p.amount as string })),
  );
  const copy = async (text: string) => {
    await navigator.clipboard?.writeText(text).catch(() => undefined);
    void toast(t('orders.copied'), 'success', 2000);
  };
  /** Spec §2 'copy to clipboard': the order in a few lines, to paste into a chat with the client. */
  const summary = () =>
    [
      `${t('orders.order')} ${String(values.title || `№${id}`)}: ${ORDER_STAGE_LABELS[stage]}`,
      values.total_price_rur
        ? `${clientOrder.labels.total_price_rur}: ${formatMoney(values.total_price_rur as string)}`
        : '',
      number ? `${clientOrder.labels.transport_company_rus_order_number}: ${number}` : '',
      ...(positions?.items ?? []).map(
        (p, i) => `${i + 1}. ${String(p.title)} — ${String(p.amount ?? '')} × ${String(p.price_cny ?? '')} ¥`,
      ),
    ]
      .filter(Boolean)
      .join('\n');

  return (
    <div className="caravan-order-header" data-testid="order-header">
      <div className="caravan-order-stage">
        <Tag large intent={STAGE_INTENT[stage] ?? 'primary'} data-testid="order-stage">
          {t(`enums.stage.${stage}`, { defaultValue: ORDER_STAGE_LABELS[stage] })}
        </Tag>
        <Tag large minimal>
          {ORDER_STATE_LABELS[values.state as OrderState]}
        </Tag>
        <ButtonGroup>
          {moves.map((m) => (
            <Button
              key={m.to}
              intent="primary"
              icon="arrow-right"
              text={t(`orders.move.${m.to}`)}
              data-testid={`order-move-${m.to}`}
              onClick={() => setMove(m)}
            />
          ))}
        </ButtonGroup>
        <OwnListToggles id={id} />
        <Button
          icon="duplicate"
          variant="minimal"
          text={t('orders.copyOrder')}
          onClick={() => void copy(summary())}
        />
        <Button
          icon="share"
          variant="minimal"
          text={t('telegram.write')}
          data-testid="order-telegram"
          onClick={() => setWriting(true)}
        />
      </div>
      <div className="caravan-order-figures">
        <Figure label={clientOrder.labels.transport_company_rus_order_number}>
          {number ? (
            <>
              {tracking ? (
                <a href={tracking(number)} target="_blank" rel="noreferrer">
                  {number}
                </a>
              ) : (
                number
              )}{' '}
              <Button
                size="small"
                variant="minimal"
                icon="duplicate"
                title={t('orders.copy')}
                onClick={() => void copy(number)}
              />
            </>
          ) : null}
        </Figure>
        <Figure label={clientOrder.labels.total_price_rur} testId="order-total">
          {values.total_price_rur ? formatMoney(values.total_price_rur as string) : null}
        </Figure>
        <Figure label={clientOrder.labels.to_ru_delivery_date}>
          {formatDate(values.to_ru_delivery_date as string | null) || null}
        </Figure>
        <Figure label={clientOrder.labels.weight}>
          {values.weight ? formatNumber(values.weight as string, { maxDigits: 3 }) : null}
        </Figure>
        <Figure label={clientOrder.labels.volume}>
          {values.volume ? formatNumber(values.volume as string, { maxDigits: 4 }) : null}
        </Figure>
        <Figure label={clientOrder.labels.logistic_route_price_usd}>
          {values.logistic_route_price_usd
            ? formatMoney(values.logistic_route_price_usd as string, '$')
            : null}
        </Figure>
      </div>
      <CarrierCard id={id} values={values} />
      <OrderPayment id={id} values={values} />
      {userIsStaff(user) && (
        <div className="caravan-consolidation-header" data-testid="consolidation-header">
          {[
            values.consolidation_warehouse_title,
            values.client_title,
            values.logistic_route_title,
            values.package_title,
            (values.delivery_data as { city?: string } | null)?.city || t('orders.defaultCity'),
          ]
            .filter(Boolean)
            .join(' · ')}
        </div>
      )}
      {hint && (
        <Callout intent="warning" icon="warning-sign" data-testid="weight-hint">
          {hint}
        </Callout>
      )}
      {move && <StageDialog order={values} move={move} onClose={() => setMove(null)} />}
      {writing && <TelegramDialog orderId={id} onClose={() => setWriting(false)} />}
    </div>
  );
}
