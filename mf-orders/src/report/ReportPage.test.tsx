import { REPORT_MESSAGES, todayLocal, type ReportRow, type ReportSummary } from '@caravan/contracts';
import { locationNow, Refusal, renderInWorld, USERS, type Answers } from '@caravan/ui-kit/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { monthStart } from './filters';
import ReportPage from './ReportPage';

const group = (order_count: number, product: string, delivery: string, total: string) => ({
  order_count,
  product_price_sum: product,
  delivery_price_sum: delivery,
  total_sum: total,
});
/** Two clients' orders in January and March (none in February), at two stages. */
const SUMMARY: ReportSummary = {
  total: group(3, '1200.10', '600.60', '1800.70'),
  clients: [
    { client_id: 11, client_title: 'ООО «Ромашка»', ...group(2, '1200.10', '500.60', '1700.70') },
    { client_id: 12, client_title: 'ИП Соколов', ...group(1, '0.00', '100.00', '100.00') },
  ],
  client_count: 2,
  by_month: [
    { month: '2026-01', ...group(2, '1200.10', '500.60', '1700.70') },
    { month: '2026-03', ...group(1, '0.00', '100.00', '100.00') },
  ],
  by_stage: [
    { stage: 'draft', ...group(1, '1000.00', '500.50', '1500.50') },
    { stage: 'sent_to_ru', ...group(2, '200.10', '100.10', '300.20') },
  ],
};
const row = (id: number, title: string, price: string): ReportRow => ({
  id,
  title,
  order_number: `ЗК-${id}`,
  price_sum: price,
  product_price_sum: '0.00',
  delivery_price_sum: price,
  client_id: 11,
  client_title: 'ООО «Ромашка»',
  operator_id: 3,
  stage: 'draft',
  created_at: '2026-01-15T07:00:00.000Z',
});

function answers(more: Answers = {}): Answers {
  return {
    client_order_report_summary: () => SUMMARY,
    client_order_report_rows: (p: { cursor?: string }) =>
      p.cursor === 'page2'
        ? { items: [row(1, 'заказ 1', '100.00')], next_cursor: null }
        : { items: [row(3, 'заказ 3', '300.00'), row(2, 'заказ 2', '200.00')], next_cursor: 'page2' },
    ...more,
  };
}
const open = (url = '/client_order_report', more?: Answers, user = USERS.admin) =>
  renderInWorld(<ReportPage />, { answers: answers(more), url, path: '/client_order_report', user });

const today = todayLocal();

test('opens on the last 12 months: totals, charts, clients and the orders', async () => {
  const { gateway } = open();
  expect(await screen.findByTestId('report-total-total')).toHaveTextContent('1 800,70 ₽');
  expect(screen.getByTestId('report-total-orders')).toHaveTextContent('3');
  expect(screen.getByTestId('report-total-product')).toHaveTextContent('1 200,10 ₽');
  expect(screen.getByTestId('report-total-delivery')).toHaveTextContent('600,60 ₽');
  expect(gateway.of('client_order_report_summary')[0]!.params).toEqual({
    created_from: monthStart(today, 11),
    created_to: today,
  });
  // February has no orders and still has its place on the time line
  const months = within(screen.getByTestId('report-chart-month')).getAllByTestId('chart-bar');
  expect(months.map((b) => b.getAttribute('aria-label'))).toEqual([
    'янв. 26: 1\u00a0701',
    'февр. 26: 0',
    'март 26: 100',
  ]);
  const stages = within(screen.getByTestId('report-chart-stage')).getAllByTestId('chart-bar');
  // each bar: its tooltip (the figures), its name, its value
  expect(stages.map((b) => b.textContent!.replace(/\u00a0/g, ' '))).toEqual([
    'новый: заказов 1, 1 500,50 ₽новый1 501',
    'отправлен в РФ: заказов 2, 300,20 ₽отправлен в РФ300',
  ]);
  const clients = screen.getAllByTestId('report-client-row');
  expect(clients.map((r) => r.textContent!.replace(/\u00a0/g, ' '))).toEqual([
    'ООО «Ромашка»21 200,10500,601 700,70',
    'ИП Соколов10,00100,00100,00',
  ]);
  const rows = await screen.findAllByTestId('report-row');
  expect(rows).toHaveLength(2);
  expect(within(rows[0]!).getByRole('link', { name: 'заказ 3' })).toHaveAttribute('href', '/client_order/3');
  expect(rows[0]).toHaveTextContent('ЗК-3');
  expect(rows[0]).toHaveTextContent('новый');
  expect(rows[0]).toHaveTextContent('300,00');
});

test('the charts show orders or sums', async () => {
  open();
  await screen.findByTestId('report-chart-month');
  await userEvent.click(screen.getByTestId('report-metric-orders'));
  const months = within(screen.getByTestId('report-chart-month')).getAllByTestId('chart-bar');
  expect(months.map((b) => b.getAttribute('aria-label'))).toEqual([
    'янв. 26: 2',
    'февр. 26: 0',
    'март 26: 1',
  ]);
});

test("'показать ещё' adds the next page below, by its cursor, until there is none", async () => {
  const { gateway } = open();
  await screen.findAllByTestId('report-row');
  await userEvent.click(await screen.findByTestId('report-more'));
  await waitFor(() => expect(screen.getAllByTestId('report-row')).toHaveLength(3));
  expect(gateway.of('client_order_report_rows').at(-1)!.params).toMatchObject({ cursor: 'page2' });
  expect(screen.queryByTestId('report-more')).not.toBeInTheDocument();
});

test('a period from the URL and a preset; all time asks without a period', async () => {
  const { gateway } = open('/client_order_report?from=2026-01-01&to=2026-03-31&operator=3');
  await screen.findByTestId('report-total-total');
  expect(gateway.of('client_order_report_summary')[0]!.params).toEqual({
    created_from: '2026-01-01',
    created_to: '2026-03-31',
    operator_id: 3,
  });
  await userEvent.click(screen.getByTestId('report-period-all'));
  await waitFor(() =>
    expect(gateway.of('client_order_report_summary').at(-1)!.params).toEqual({ operator_id: 3 }),
  );
  expect(locationNow()).toBe('/client_order_report?all=1&operator=3');
  await userEvent.click(screen.getByTestId('report-period-month'));
  await waitFor(() =>
    expect(gateway.of('client_order_report_summary').at(-1)!.params).toEqual({
      created_from: monthStart(today, 0),
      created_to: today,
      operator_id: 3,
    }),
  );
});

test("a client's name in the summary narrows the report to that client", async () => {
  const { gateway } = open('/client_order_report?all=1', {
    client_list: () => ({ items: [{ id: 12, title: 'ИП Соколов' }], total: 1, next_cursor: null }),
  });
  await userEvent.click(await screen.findByRole('button', { name: 'ИП Соколов' }));
  await waitFor(() =>
    expect(gateway.of('client_order_report_summary').at(-1)!.params).toEqual({ client_id: 12 }),
  );
});

test('a wrong period is told in words and asks the server nothing', async () => {
  const { gateway } = open('/client_order_report?from=2026-02-01&to=2026-01-01');
  expect(await screen.findByTestId('report-filter-error')).toHaveTextContent(REPORT_MESSAGES.periodReversed);
  expect(gateway.of('client_order_report_summary')).toHaveLength(0);
  expect(screen.queryByTestId('report-download')).not.toBeInTheDocument();

  const from = screen.getByRole('textbox', { name: 'создан с' });
  await userEvent.clear(from);
  await userEvent.type(from, '31-02-2026');
  expect(screen.getByTestId('report-filter-error')).toHaveTextContent(
    "неверное значение поля 'создан с': ожидается дата ДД-ММ-ГГГГ между 1900 и 2050 годом",
  );
  await userEvent.clear(from);
  await userEvent.type(from, '01-12-2025');
  await screen.findByTestId('report-total-total');
  expect(gateway.of('client_order_report_summary').at(-1)!.params).toEqual({
    created_from: '2025-12-01',
    created_to: '2026-01-01',
  });
});

test("the server's refusal shows as it says it", async () => {
  open('/client_order_report', {
    client_order_report_summary: () => new Refusal('недостаточно прав для этого действия'),
  });
  expect(await screen.findByText('недостаточно прав для этого действия')).toBeInTheDocument();
});

test("an empty report says 'ничего не найдено'", async () => {
  open('/client_order_report', {
    client_order_report_summary: () => ({
      ...SUMMARY,
      total: group(0, '0.00', '0.00', '0.00'),
      clients: [],
      client_count: 0,
      by_month: [],
      by_stage: [],
    }),
  });
  expect(await screen.findByText('ничего не найдено')).toBeInTheDocument();
});

describe('the Excel download', () => {
  const created: Blob[] = [];
  const saved: string[] = [];
  beforeEach(() => {
    // the browser's save of a link: recorded, not navigated (jsdom cannot)
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    URL.createObjectURL = jest.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:report';
    });
    URL.revokeObjectURL = jest.fn();
  });

  test('posts the filters and saves the file under the name the server gives', async () => {
    const { gateway } = open('/client_order_report?from=2026-01-01&to=2026-03-31', undefined, USERS.client);
    await screen.findByTestId('report-total-total');
    const fake = globalThis.fetch;
    const posted: unknown[] = [];
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) !== '/api/client_order_report_download') return fake(input, init);
      posted.push(JSON.parse(String(init?.body)));
      return new Response(new Blob(['PK']), {
        headers: {
          'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'content-disposition': `attachment; filename="report.xlsx"; filename*=UTF-8''${encodeURIComponent('отчёт по заказам 2026-01-01 — 2026-03-31.xlsx')}`,
        },
      });
    }) as typeof fetch;
    await userEvent.click(screen.getByTestId('report-download'));
    expect(
      await screen.findByText('файл отчёт по заказам 2026-01-01 — 2026-03-31.xlsx скачан'),
    ).toBeInTheDocument();
    expect(posted).toEqual([{ created_from: '2026-01-01', created_to: '2026-03-31' }]);
    expect(created).toHaveLength(1);
    expect(saved).toEqual(['отчёт по заказам 2026-01-01 — 2026-03-31.xlsx']);
    expect(gateway.of('client_order_report_summary')).toHaveLength(1);
  });

  test('a refusal is shown in its words', async () => {
    const message = REPORT_MESSAGES.tooManyRows(250_000);
    expect(message).toBe(
      'в выгрузке 250\u00a0000 заказов, а можно не больше 100\u00a0000: сузьте период или выберите клиента',
    );
    open('/client_order_report?all=1', {
      '/api/client_order_report_download': () => new Refusal(message),
    });
    await screen.findByTestId('report-total-total');
    await userEvent.click(screen.getByTestId('report-download'));
    // the page shows the message as it came (the matcher reads the non-breaking spaces as spaces)
    expect(await screen.findByText(message.replace(/\u00a0/g, ' '))).toBeInTheDocument();
  });
});
