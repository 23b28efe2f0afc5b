import { Button, Drawer, Icon, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { formatDisplayDateTime, MESSAGES, type CurrentUser } from '@caravan/contracts';
import {
  baseApi,
  NOTIFICATION_ICONS,
  NOTIFICATION_INTENTS,
  NotificationDialog,
  toast,
  useMarkAllNotificationsReadMutation,
  useMarkNotificationReadMutation,
  useServerEvents,
  useUnreadNotificationsQuery,
  type AppStore,
  type NotificationRow,
} from '@caravan/ui-kit';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { useLocation } from 'react-router-dom';

/** The badge's text: the count, '99+' beyond. */
export const badgeText = (count: number) => (count > 99 ? '99+' : String(count));

const failed = (err: unknown) =>
  void toast((err as { message?: string }).message ?? MESSAGES.somethingWentWrong, 'danger');

/** One unread notification in the drawer: its heading, sentence and time; a click opens the detail. */
function DrawerItem(props: { n: NotificationRow; onOpen(): void; onRead(): void }) {
  const { t } = useTranslation();
  const { n } = props;
  return (
    <li className="caravan-notification-item" data-testid="notification-item">
      <button type="button" className="caravan-notification-open" onClick={props.onOpen}>
        <Icon icon={NOTIFICATION_ICONS[n.type]} intent={NOTIFICATION_INTENTS[n.type]} />
        <span className="caravan-notification-text">
          <strong>{n.label}</strong>
          <span className="caravan-notification-message">{n.message}</span>
          <span className="bp6-text-muted bp6-text-small">{formatDisplayDateTime(n.created_at)}</span>
        </span>
      </button>
      <Button
        variant="minimal"
        size="small"
        icon="tick"
        aria-label={t('notifications.markRead')}
        title={t('notifications.markRead')}
        onClick={props.onRead}
      />
    </li>
  );
}

/**
 * The header bell with the unread badge and the right drawer of unread notifications (spec §2, §4): a
 * notification the user marks read leaves the list and the count drops. New ones, and ones read in
 * another tab, arrive over the browser's one live stream (SSE type notification), which refreshes both.
 */
export function NotificationCenter({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const dispatch = useDispatch<AppStore['dispatch']>();
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState<NotificationRow | null>(null);
  // going to a page (the order of a notification, any link) closes the drawer: it would cover that page
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  const { data, isFetching } = useUnreadNotificationsQuery(user.id);
  const [markRead, { isLoading: marking }] = useMarkNotificationReadMutation();
  const [markAll, { isLoading: markingAll }] = useMarkAllNotificationsReadMutation();
  useServerEvents(
    'notification',
    undefined,
    () => dispatch(baseApi.util.invalidateTags([{ type: 'Entity', id: 'notification' }])),
    t('sse.failed'),
  );
  const items = data?.items ?? [];
  const count = data?.total ?? 0;

  const read = async (n: NotificationRow) => {
    try {
      await markRead(n.id).unwrap();
      setShown((s) => (s?.id === n.id ? null : s));
    } catch (err) {
      failed(err);
    }
  };
  const readAll = async () => {
    try {
      await markAll().unwrap();
    } catch (err) {
      failed(err);
    }
  };

  return (
    <>
      <Button
        variant="minimal"
        icon="notifications"
        aria-label={t('layout.notifications')}
        data-testid="notification-bell"
        onClick={() => setOpen(true)}
      >
        {count > 0 && (
          <Tag
            round
            intent="danger"
            data-testid="notification-badge"
            aria-label={t('notifications.unread', { count })}
          >
            {badgeText(count)}
          </Tag>
        )}
      </Button>
      <Drawer
        isOpen={open}
        onClose={() => setOpen(false)}
        size={240}
        title={t('layout.notifications')}
        icon="notifications"
        className="caravan-notification-drawer"
      >
        <div className="caravan-notification-drawer-body" data-testid="notification-drawer">
          {items.length > 0 && (
            <Button
              variant="minimal"
              icon="tick-circle"
              text={t('notifications.markAllRead')}
              loading={markingAll}
              onClick={readAll}
              data-testid="notification-read-all"
            />
          )}
          {!data && isFetching ? (
            <Spinner size={20} />
          ) : items.length === 0 ? (
            <NonIdealState icon="inbox" title={t('notifications.none')} />
          ) : (
            <ul className="caravan-notification-list">
              {items.map((n) => (
                <DrawerItem key={n.id} n={n} onOpen={() => setShown(n)} onRead={() => void read(n)} />
              ))}
            </ul>
          )}
        </div>
      </Drawer>
      <NotificationDialog
        notification={shown}
        onClose={() => setShown(null)}
        onMarkRead={shown ? () => void read(shown) : undefined}
        marking={marking}
      />
    </>
  );
}
