import { PAYMENT_OPENING_MESSAGES, type CurrentUser } from '@caravan/contracts';
import { createAppStore, setCurrentUser } from '@caravan/ui-kit';
import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { OrderPayment } from './OrderPayment';

const client: CurrentUser = {
  id: 2,
  email: 'client@caravan.local',
  fullname: 'Клиент',
  first_name: 'Клиент',
  last_name: '',
  phone: null,
  avatar: null,
  role: ['client'],
  options: { state: 'working', settings: {} },
};
/** 10 × ¥20 priced at 2 500 ₽, nothing paid. */
const order = (stage: string) => ({
  id: 7,
  stage,
  state: 'active',
  buyout_price_rur: '2500.00',
  product_paid_rur: '0',
  delivery_paid_rur: '0',
  product_payment_state: 'not_paid',
  delivery_payment_state: 'not_paid',
});
const show = (values: Record<string, unknown>) => {
  const store = createAppStore();
  store.dispatch(setCurrentUser(client));
  render(
    <Provider store={store}>
      <OrderPayment id={7} values={values} />
    </Provider>,
  );
};

test('a formed order the operator has not priced offers no payment and says why', () => {
  show(order('created'));
  expect(screen.queryByTestId('order-pay')).not.toBeInTheDocument();
  expect(screen.getByTestId('payment-closed')).toHaveTextContent(PAYMENT_OPENING_MESSAGES.notPriced);
});

test('an order waiting for payment offers it', () => {
  show(order('buyout_waiting'));
  expect(screen.getByTestId('order-pay')).toBeInTheDocument();
  expect(screen.queryByTestId('payment-closed')).not.toBeInTheDocument();
});
