import type { TimelineEntry } from '@caravan/contracts';
import { Refusal, renderInWorld, USERS } from '@caravan/ui-kit/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OrderTimeline, TIMELINE_FIRST, TIMELINE_UI } from './OrderTimeline';

/** The order timeline on the card (issue 19): what the server tells, as a client reads it. */
const entry = (over: Partial<TimelineEntry>): TimelineEntry => ({
  at: '2026-11-20T10:15:00.000Z',
  kind: 'stage',
  text: 'заказ: сформирован',
  who: 'вы',
  positions: [],
  images: [],
  ...over,
});
const show = (answer: () => unknown) =>
  renderInWorld(<OrderTimeline id={40} />, {
    user: USERS.client,
    answers: { client_order_timeline: answer },
  });

test('each line says what happened, when and who; warehouse photos open full size in a new tab', async () => {
  const { gateway } = show(() => [
    entry({
      kind: 'photos',
      text: '2 фото со склада: позиция «Кроссовки»',
      who: 'оператор',
      images: ['/api/files/a.jpg', '/api/files/b.jpg'],
    }),
    entry({ kind: 'carrier', text: 'СДЭК: вручён, Москва', who: 'СДЭК' }),
  ]);
  const card = await screen.findByTestId('order-timeline');
  const lines = await within(card).findAllByRole('listitem');
  expect(lines.map((l) => l.textContent)).toEqual([
    expect.stringMatching(/^2 фото со склада: позиция «Кроссовки»20-11-2026 \d\d:15 МСК · оператор$/),
    expect.stringMatching(/^СДЭК: вручён, Москва.* · СДЭК$/),
  ]);
  const links = within(lines[0]!).getAllByRole('link');
  expect(links.map((a) => [a.getAttribute('href'), a.getAttribute('target')])).toEqual([
    ['/api/files/a.jpg', '_blank'],
    ['/api/files/b.jpg', '_blank'],
  ]);
  expect(gateway.of('client_order_timeline')[0]!.params).toEqual({ id: 40 });
});

test("the chat's messages read as lines: the words, when, who, and the files by name, opening in a new tab", async () => {
  show(() => [
    entry({
      kind: 'message',
      text: 'Сделала фото коробки, смотрите',
      who: 'Анна Оператор',
      at: '2026-11-21T09:05:00.000Z',
      files: [
        { name: 'коробка.jpg', file: '/api/files/c1.jpg' },
        { name: 'накладная.pdf', file: '/api/files/n1.pdf' },
      ],
    }),
    entry({ kind: 'message', text: 'Когда отправите?', who: 'вы' }),
  ]);
  const card = await screen.findByTestId('order-timeline');
  const lines = await within(card).findAllByRole('listitem');
  expect(lines.map((l) => l.getAttribute('data-kind'))).toEqual(['message', 'message']);
  expect(lines[0]!.textContent).toMatch(
    /^Сделала фото коробки, смотрите21-11-2026 \d\d:05 МСК · Анна Операторкоробка\.jpgнакладная\.pdf$/,
  );
  expect(lines[1]!.textContent).toMatch(/^Когда отправите\?20-11-2026 \d\d:15 МСК · вы$/);
  const files = within(lines[0]!).getAllByRole('link');
  expect(files.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target')])).toEqual([
    ['коробка.jpg', '/api/files/c1.jpg', '_blank'],
    ['накладная.pdf', '/api/files/n1.pdf', '_blank'],
  ]);
  expect(within(lines[1]!).queryAllByRole('link')).toEqual([]);
});

test('a long story shows its newest lines first and the rest on request', async () => {
  show(() => Array.from({ length: TIMELINE_FIRST + 5 }, (_, i) => entry({ text: `строка ${i}` })));
  const card = await screen.findByTestId('order-timeline');
  expect(await within(card).findAllByRole('listitem')).toHaveLength(TIMELINE_FIRST);
  await userEvent.click(within(card).getByRole('button', { name: TIMELINE_UI.more }));
  expect(within(card).getAllByRole('listitem')).toHaveLength(TIMELINE_FIRST + 5);
});

test('an order with no story yet says so', async () => {
  show(() => []);
  expect(await screen.findByText(TIMELINE_UI.empty)).toBeInTheDocument();
});

test('a failed load is said in words, not a spinner forever', async () => {
  show(() => new Refusal('заказ не найден'));
  expect(await screen.findByText(TIMELINE_UI.failed)).toBeInTheDocument();
});
