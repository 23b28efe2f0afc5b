import { renderInWorld, USERS } from '@caravan/ui-kit/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../i18n';
import Calculator from './Calculator';

/** The tariff calculator (spec §2 'client' menu), the gateway answered in-process. */
test('an empty form is refused in words naming the fields, and nothing is calculated', async () => {
  const { gateway } = renderInWorld(<Calculator />, { user: USERS.client });
  await userEvent.click(screen.getByRole('button', { name: 'рассчитать' }));
  const refusal = await screen.findByText(/не заполнено поле/);
  expect(refusal).toHaveTextContent('откуда (город в Китае)');
  expect(refusal).toHaveTextContent('вес, кг');
  expect(gateway.of('logistic_route_calculate')).toEqual([]);
});
