import { Button, Callout, Dialog, DialogBody, DialogFooter, Tag, type Intent } from '@blueprintjs/core';
import {
  formatDisplayDateTime,
  formatMoney,
  NOTIFICATION_CATEGORY_LABELS,
  ORDER_STAGE_LABELS,
  type NotificationType,
  type OrderStage,
} from '@caravan/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useDocumentGetQuery } from '../entityApi';
import type { NotificationRow } from '../notificationApi';
import { RefTitle } from './RefTitle';

/** How each notification type looks (spec §3: info, warning, success, error). */
export const NOTIFICATION_INTENTS: Record<NotificationType, Intent> = {
  info: 'primary',
  warning: 'warning',
  success: 'success',
  error: 'danger',
};
export const NOTIFICATION_ICONS = {
  info: 'info-sign',
  warning: 'warning-sign',
  success: 'tick-circle',
  error: 'error',
} as const;

/** The order a notification is about, as the reader may see it now: title, stage, total, and the way to it. */
function OrderOfNotification({ id, title, onGo }: { id: number; title?: string; onGo(): void }) {
  const { t } = useTranslation();
  const { data: order, isError } = useDocumentGetQuery({ entity: 'client_order', id });
  return (
    <Callout className="caravan-notification-order" data-testid="notification-order" icon="shopping-cart">
      <div>
        <strong>{t('notifications.order')}:</strong> {String(order?.title ?? title ?? `№ ${id}`)}
      </div>
      {order && !isError && (
        <>
          <div>
            {t('notifications.stage')}: {ORDER_STAGE_LABELS[order.stage as OrderStage] ?? String(order.stage)}
          </div>
          {order.total_price_rur !== null && order.total_price_rur !== undefined && (
            <div>
              {t('notifications.total')}: {formatMoney(String(order.total_price_rur))}
            </div>
          )}
        </>
      )}
      <Button
        variant="minimal"
        intent="primary"
        icon="share"
        text={t('notifications.openOrder')}
        onClick={onGo}
        data-testid="notification-open-order"
      />
    </Callout>
  );
}

/**
 * A notification's detail (spec §2 notification panel): its heading and sentence, when, what kind; for an
 * order's notification the order and a link to /client_order/{id}. `onMarkRead` is offered to the
 * recipient of an unread one (the drawer); the admin list shows whose it is instead.
 */
export function NotificationDialog(props: {
  notification: NotificationRow | null;
  onClose(): void;
  onMarkRead?(): void;
  marking?: boolean;
  showRecipient?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const n = props.notification;
  const go = (path: string) => {
    props.onClose();
    navigate(path);
  };
  return (
    <Dialog
      isOpen={n !== null}
      onClose={props.onClose}
      title={n?.label}
      icon={n ? NOTIFICATION_ICONS[n.type] : undefined}
      className="caravan-notification-dialog"
    >
      {n && (
        <>
          <DialogBody>
            <p data-testid="notification-message">{n.message}</p>
            <p className="bp6-text-muted">
              {t('notifications.when')}: {formatDisplayDateTime(n.created_at)}{' '}
              <Tag minimal intent={NOTIFICATION_INTENTS[n.type]}>
                {t(`enums.category.${n.category}`, {
                  defaultValue: NOTIFICATION_CATEGORY_LABELS[n.category],
                })}
              </Tag>
            </p>
            {props.showRecipient && (
              <p>
                {t('notifications.recipient')}: <RefTitle entity="user" id={n.user_table_id} />
              </p>
            )}
            {n.table_name === 'client_order' && n.item_id !== null && (
              <OrderOfNotification
                id={n.item_id}
                title={n.options.client_order_title}
                onGo={() => go(`/client_order/${n.item_id}`)}
              />
            )}
            {n.table_name === 'wallet' && (
              <Button
                variant="minimal"
                intent="primary"
                icon="bank-account"
                text={t('notifications.openWallet')}
                onClick={() => go('/wallet')}
              />
            )}
          </DialogBody>
          <DialogFooter
            actions={
              <>
                {props.onMarkRead && !n.is_read && (
                  <Button
                    intent="primary"
                    icon="tick"
                    text={t('notifications.markRead')}
                    loading={props.marking}
                    onClick={props.onMarkRead}
                  />
                )}
                <Button text={t('notifications.close')} onClick={props.onClose} />
              </>
            }
          />
        </>
      )}
    </Dialog>
  );
}
