import { baseApi, EntityScreens, useServerEvents, type AppStore } from '@caravan/ui-kit';
import { useDispatch } from 'react-redux';
import { clientView, providerView } from './views/client';
import { notificationView } from './views/notification';
import { orderView } from './views/order';
import { positionView } from './views/position';
import { taskView } from './views/task';

/** Lists of orders and positions stay live: a change the user may see refreshes them (SSE `order`). */
function useLiveOrderLists() {
  const dispatch = useDispatch<AppStore['dispatch']>();
  useServerEvents('order', undefined, () =>
    dispatch(
      baseApi.util.invalidateTags([
        { type: 'Entity', id: 'client_order' },
        { type: 'Entity', id: 'client_order_position' },
      ]),
    ),
  );
  // the unread marks of the orders' chats: any message of a chat the user may see
  useServerEvents('chat_item', undefined, () =>
    dispatch(baseApi.util.invalidateTags([{ type: 'Entity', id: 'chat_unread' }])),
  );
}

/** The order side: orders and positions, clients and providers, the admin list of notifications. */
export const screens = {
  client: function ClientScreens() {
    return <EntityScreens view={clientView} />;
  },
  provider: function ProviderScreens() {
    return <EntityScreens view={providerView} />;
  },
  client_order: function OrderScreens() {
    useLiveOrderLists();
    return <EntityScreens view={orderView} />;
  },
  task: function TaskScreens() {
    return <EntityScreens view={taskView} />;
  },
  client_order_position: function PositionScreens() {
    useLiveOrderLists();
    return <EntityScreens view={positionView} />;
  },
  notification: function NotificationScreens() {
    return <EntityScreens view={notificationView} />;
  },
};
