import type { CntWaybillInfo } from '@caravan/contracts';
import type { Values } from '@caravan/ui-kit';
import { Refusal, renderInWorld, USERS, type Answers } from '@caravan/ui-kit/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { WAYBILL_TEXTS, WaybillTracking } from './WaybillTracking';

/** The position's waybill tracking (spec orders-payments-calls §4, §8; product-core §2; issue 18). */
const position = (over: Values = {}): Values => ({
  id: 9,
  client_order_id: 40,
  title: 'Кроссовки беговые',
  waybill: 'SF1234567890',
  options: { cnt_data: { number: 'SF1234567890', updated_at: '2026-11-20T10:00:00Z' } },
  warehouse_cnt_data: null,
  ...over,
});

/** The position screen as the item page shows it: the stored row, replaced by the saved one. */
function Screen({ initial, saved }: { initial: Values; saved: Values }) {
  const [values, setValues] = useState(initial);
  return (
    <>
      <button onClick={() => setValues(saved)}>сохранить</button>
      <WaybillTracking values={values} />
    </>
  );
}
const show = (saved: Values, answers: Answers = {}, user = USERS.operator, initial = position()) =>
  renderInWorld(<Screen initial={initial} saved={saved} />, {
    user,
    answers: { '/api/cnt_waybill_register': () => ({ registered: true }), ...answers },
  });
const save = () => userEvent.click(screen.getByRole('button', { name: 'сохранить' }));

test('a saved new waybill longer than 10 characters is registered with the tracker', async () => {
  const { gateway } = show(position({ waybill: ' YT7788990011223 ' }));
  expect(gateway.of('/api/cnt_waybill_register')).toHaveLength(0);
  await save();
  await waitFor(() => expect(gateway.of('/api/cnt_waybill_register')).toHaveLength(1));
  expect(gateway.of('/api/cnt_waybill_register')[0]!.params).toEqual({
    warehouse_alias: '',
    number: '',
    waybill: 'YT7788990011223',
    order_id: 40,
  });
});

test.each([
  ['the waybill already tracked, in other letters', 'sf1234567890 '],
  ['a waybill of 10 characters', 'YT77889900'],
  ["'none'", 'none'],
])('%s is not registered', async (_, waybill) => {
  const { gateway } = show(position({ waybill, title: 'Кроссовки (изменено)' }));
  await save();
  await new Promise((r) => setTimeout(r, 10));
  expect(gateway.of('/api/cnt_waybill_register')).toHaveLength(0);
});

test("the tracker's refusal is only logged: the user is not stopped", async () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    show(position({ waybill: 'YT7788990011223' }), {
      '/api/cnt_waybill_register': () => new Refusal('сервис отслеживания посылок не ответил'),
    });
    await save();
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(warn.mock.calls[0]!.join(' ')).toContain('сервис отслеживания посылок не ответил');
    expect(screen.queryByText('сервис отслеживания посылок не ответил')).not.toBeInTheDocument();
  } finally {
    warn.mockRestore();
  }
});

const info: CntWaybillInfo = {
  waybill: 'SF1234567890',
  status: 'InTransit',
  label: 'в пути по Китаю',
  arrived: false,
  events: [
    { at: '2026-11-21T02:00:00Z', text: 'Отправлено из Шэньчжэня', city: 'Шэньчжэнь' },
    { at: '2026-11-22T06:30:00Z', text: 'Прибыло в сортировочный центр', city: 'Гуанчжоу' },
  ],
  updated_at: '2026-11-22T07:00:00Z',
};

test("an admin opens the waybill's events, newest first", async () => {
  const { gateway } = show(position(), { '/api/cnt_waybill_get': () => info }, USERS.admin);
  await userEvent.click(screen.getByTestId('waybill-tracking'));
  const events = await screen.findByTestId('waybill-events');
  expect(
    within(events)
      .getAllByRole('row')
      .map((r) => r.textContent),
  ).toEqual([
    '22-11-2026 09:30 МСКПрибыло в сортировочный центрГуанчжоу',
    '21-11-2026 05:00 МСКОтправлено из ШэньчжэняШэньчжэнь',
  ]);
  expect(screen.getByRole('dialog')).toHaveTextContent('в пути по Китаю');
  expect(gateway.of('/api/cnt_waybill_get')[0]!.params).toEqual({ waybill: 'SF1234567890' });
});

test("the tracking button is the admin's; anyone sees that the parcel reached the warehouse city", () => {
  show(position(), {}, USERS.operator, position({ warehouse_cnt_data: { arrived: true } }));
  expect(screen.queryByTestId('waybill-tracking')).not.toBeInTheDocument();
  expect(screen.getByTestId('waybill-arrived')).toHaveTextContent(WAYBILL_TEXTS.arrived);
});
