import { EntityScreens } from '@caravan/ui-kit';
import { clientView, providerView } from './views/client';

/** The order side's directories: clients and providers (orders and positions come with the orders work). */
export const screens = {
  client: function ClientScreens() {
    return <EntityScreens view={clientView} />;
  },
  provider: function ProviderScreens() {
    return <EntityScreens view={providerView} />;
  },
};
