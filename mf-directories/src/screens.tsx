import { EntityScreens, type EntityView } from '@caravan/ui-kit';
import { Route, Routes } from 'react-router-dom';
import Calculator from './pages/Calculator';
import { extraServiceView } from './views/extraService';
import {
  bankAccountView,
  clientUserLinkView,
  exchangeRateView,
  legalEntityView,
  operatorUserLinkView,
} from './views/finance';
import { operatorView } from './views/operator';
import { countryView, cityView, currencyView, packageView, productTypeView } from './views/reference';
import { routeProductTypeView, routeView, routeWarehouseView } from './views/route';
import { contactView, operatorWarehouseLinkView, warehouseView } from './views/warehouse';

const screen = (view: EntityView) =>
  function Screen() {
    return <EntityScreens view={view} />;
  };

/** Every directory of this remote: its list and item routes (loaded as one chunk). */
export const screens = {
  country: screen(countryView),
  city: screen(cityView),
  currency: screen(currencyView),
  logistic_product_type: screen(productTypeView),
  package_description: screen(packageView),
  legal_entity: screen(legalEntityView),
  bank_account: screen(bankAccountView),
  exchange_rate: screen(exchangeRateView),
  operator: screen(operatorView),
  warehouse_point: screen(warehouseView),
  warehouse_point_contact: screen(contactView),
  operator_warehouse_point_link: screen(operatorWarehouseLinkView),
  extra_service: screen(extraServiceView),
  logistic_route_logistic_product_type_link: screen(routeProductTypeView),
  logistic_route_warehouse_point_link: screen(routeWarehouseView),
  operator_user_link: screen(operatorUserLinkView),
  client_user_link: screen(clientUserLinkView),
  /** /logistic_route: the routes, and the calculator at /logistic_route/widget */
  logistic_route: function RouteScreens() {
    return (
      <Routes>
        <Route path="widget" element={<Calculator />} />
        <Route path="*" element={<EntityScreens view={routeView} />} />
      </Routes>
    );
  },
  calculator: Calculator,
};
export type ScreenName = keyof typeof screens;
