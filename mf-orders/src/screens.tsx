import { baseApi, EntityScreens, useServerEvents, type AppStore } from '@caravan/ui-kit';
import { useDispatch } from 'react-redux';
import { clientView, providerView } from './views/client';
import { orderView } from './views/order';
import { positionView } from './views/position';

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
}

/** The order side: orders and positions, clients and providers. */
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
  client_order_position: function PositionScreens() {
    useLiveOrderLists();
    return <EntityScreens view={positionView} />;
  },
};
