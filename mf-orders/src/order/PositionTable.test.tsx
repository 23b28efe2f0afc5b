import { listOf, renderInWorld, USERS, type Answers } from '@caravan/ui-kit/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../routes';
import { PositionTable } from './PositionTable';

/**
 * An order's position table (spec orders-payments-calls §2, §4, §5; ADR 0010): its rows and bottom
 * line, what a client and staff may do at each stage, actions and deletion through the service.
 */
const position = (id: number, title: string, over: Record<string, unknown> = {}) => ({
  id,
  title,
  client_order_id: 40,
  stage: 'draft',
  buyout_state: 'not_done',
  price_cny: '10.00',
  amount: '4.00',
  buyout_price_rur: null,
  link: 'https://detail.1688.com/offer/1.html',
  waybill: 'SF1234567890',
  type_id: 1,
  product_images: [{ file: '/api/files/1.png', deleted: false }],
  files: [],
  deleted: false,
  ...over,
});
const SHOES = position(1, 'Кроссовки беговые', { buyout_price_rur: '1250.00' });
const SOCKS = position(2, 'Носки', { buyout_price_rur: '500.50' });
const order = (stage: string) => ({
  id: 40,
  title: 'Кроссовки и носки',
  stage,
  client_id: 1,
  buyout_type: 'operator',
  product_payment_state: 'in_caravan',
  parent_order_id: null,
  rate_cny: '12.5',
});
type Params = Record<string, unknown>;
const open = (stage: string, user = USERS.client, answers: Answers = {}, rows = [SHOES, SOCKS]) =>
  renderInWorld(<PositionTable order={order(stage)} orderId={40} editable />, {
    user,
    answers: { client_order_position_list: () => listOf(rows), ...answers },
  });
const row = (n: number) => screen.findByTestId(`position-row-${n}`);

test("lists the order's positions with the count and the buyout total", async () => {
  const { gateway } = open('draft');
  expect(await row(1)).toHaveTextContent('Кроссовки беговые');
  expect(await row(2)).toHaveTextContent('Носки');
  expect(screen.getByTestId('position-summary')).toHaveTextContent(
    /^2 позиции · выкуп товара: 1\s750,50\s₽$/,
  );
  expect(gateway.of('client_order_position_list')[0]!.params).toMatchObject({
    where_param: [{ field: 'client_order_id', op: '=', value: 40 }],
    order_by: 'id asc',
  });
  expect(screen.queryByTestId('position-pager')).not.toBeInTheDocument();
});

test('a client is offered to add to a draft, and deletes a position only after its confirmation', async () => {
  const saved: Params[] = [];
  open('draft', USERS.client, {
    client_order_position_update: (p: Params) => (saved.push(p), { ...SOCKS, ...p }),
  });
  const toolbar = await screen.findByTestId('bulk-toolbar');
  expect(within(toolbar).getByRole('button', { name: 'добавить позицию' })).toBeInTheDocument();
  await userEvent.click(within(await row(2)).getByRole('button', { name: 'удалить' }));
  const confirm = await screen.findByRole('alertdialog');
  expect(confirm).toHaveTextContent('удалить позицию «Носки»?');
  expect(saved).toEqual([]);
  await userEvent.click(within(confirm).getByRole('button', { name: 'удалить' }));
  await waitFor(() => expect(saved).toEqual([{ id: 2, deleted: true }]));
  expect(await screen.findByText('позиция Носки удалена')).toBeInTheDocument();
});

test('a bulk edit with nothing selected is refused in words, and the selection counts', async () => {
  open('draft');
  await row(1);
  await userEvent.click(screen.getByRole('button', { name: 'изменить выбранные (0)' }));
  expect(await screen.findByText('выберите позиции для изменения')).toBeInTheDocument();
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  await userEvent.click(screen.getByRole('checkbox', { name: 'выбрать все' }));
  expect(screen.getByRole('button', { name: 'изменить выбранные (2)' })).toBeInTheDocument();
  expect(screen.getByTestId('position-summary')).toHaveTextContent('выбрано');
});

test('a client cannot add, delete or act on the positions of a formed order', async () => {
  open('created', USERS.client, {}, [
    { ...SHOES, stage: 'verification' },
    { ...SOCKS, stage: 'verification' },
  ]);
  await row(2);
  expect(screen.queryByRole('button', { name: 'добавить позицию' })).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'удалить' })).not.toBeInTheDocument();
  expect(screen.queryByTestId('position-action-verification_done')).not.toBeInTheDocument();
});

test("staff act on a position through the service and hear 'готово'", async () => {
  const { gateway } = open(
    'created',
    USERS.operator,
    { client_order_position_action: () => ({ message: 'готово' }) },
    [{ ...SHOES, stage: 'verification' }, SOCKS],
  );
  const first = await row(1);
  expect(within(await row(2)).queryByTestId('position-action-verification_done')).not.toBeInTheDocument();
  await userEvent.click(within(first).getByTestId('position-action-verification_done'));
  await waitFor(() =>
    expect(gateway.of('client_order_position_action').map((c) => c.params)).toEqual([
      { id: 1, action: 'verification_done' },
    ]),
  );
  expect(await screen.findByText('готово')).toBeInTheDocument();
});
