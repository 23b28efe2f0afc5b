import { orderTimeline, type TimelineChatMessage, type TimelineHistoryRow } from './timeline';

const at = (minute: number, second = 0) =>
  `2026-11-20T10:${String(minute).padStart(2, '0')}:${String(second).padStart(2, '0')}.000Z`;
const row = (over: Partial<TimelineHistoryRow>): TimelineHistoryRow => ({
  table_name: 'client_order',
  item_id: 40,
  user_id: 7,
  user_full_name: 'Анна Оператор',
  datetime: at(0),
  field: 'stage',
  old_value: null,
  new_value: null,
  ...over,
});
const position = (id: number, title: string, over: Partial<TimelineHistoryRow>) =>
  row({ table_name: 'client_order_position', item_id: id, position_title: title, ...over });
const client = { user_id: 3, staff: false };
const operator = { user_id: 7, staff: true };

test('stages, payments and refunds of the order read as a story, newest first', () => {
  const lines = orderTimeline(
    [
      row({ field: 'stage', old_value: 'draft', new_value: 'created', user_id: 3, datetime: at(1) }),
      row({
        field: 'product_paid_rur',
        old_value: '0.00',
        new_value: '1500.50',
        user_id: 3,
        datetime: at(2),
      }),
      row({ field: 'product_paid_rur', old_value: '1500.50', new_value: '1000.50', datetime: at(3) }),
      row({ field: 'delivery_paid_rur', old_value: '0', new_value: '0.00', datetime: at(4) }),
      row({ field: 'comment', old_value: '', new_value: 'позвонить', datetime: at(5) }),
    ],
    [],
    client,
  );
  expect(lines.map((l) => [l.kind, l.text.replace(/\s/g, ' '), l.who])).toEqual([
    ['payment', 'возврат за товар: 500,00 ₽', 'оператор'],
    ['payment', 'оплачено за товар: 1 500,50 ₽', 'вы'],
    ['stage', 'заказ: сформирован', 'вы'],
  ]);
});

test('staff read who did it by name; a carrier is named as the carrier', () => {
  const lines = orderTimeline(
    [
      row({
        field: 'stage',
        new_value: 'sent_to_ru',
        user_id: 9,
        user_full_name: 'Борис Склад',
        datetime: at(1),
      }),
      row({
        field: 'stage',
        new_value: 'client_received',
        user_id: 1,
        user_full_name: 'изменено перевозчиком СДЭК',
        datetime: at(2),
      }),
    ],
    [],
    operator,
  );
  expect(lines.map((l) => l.who)).toEqual(['СДЭК', 'Борис Склад']);
});

test('a move of many positions in one go is one line naming them; separate goes stay separate', () => {
  const lines = orderTimeline(
    [
      position(1, 'Кроссовки', { new_value: 'buyout_done', datetime: at(1, 0) }),
      position(2, 'Носки', { new_value: 'buyout_done', datetime: at(1, 0) }),
      position(3, 'Шарф', { new_value: 'buyout_done', datetime: at(1, 0) }),
      position(4, 'Перчатки', { new_value: 'buyout_done', datetime: at(9, 0) }),
    ],
    [],
    client,
  );
  expect(lines.map((l) => [l.text, l.positions.map((p) => p.id)])).toEqual([
    ['позиция «Перчатки»: выкуплена', [4]],
    ['3 позиции: выкуплена', [1, 2, 3]],
  ]);
});

test('warehouse receipts and photos tell only what arrived; the Chinese courier and the carrier are told with their city', () => {
  const photo = (file: string, deleted = false) => ({ file, deleted });
  const lines = orderTimeline(
    [
      position(1, 'Кроссовки', {
        field: 'consolidation_receive_table',
        old_value: [{ id: 1, amount: 2, transporter: 'SF' }],
        new_value: [
          { id: 1, amount: 2, transporter: 'SF' },
          { id: 2, amount: 3, transporter: 'ZTO', cost: '10.00' },
        ],
        datetime: at(3),
      }),
      position(1, 'Кроссовки', {
        field: 'warehouse_images',
        old_value: [photo('/api/file/a')],
        new_value: [photo('/api/file/a'), photo('/api/file/b'), photo('/api/file/c', true)],
        datetime: at(4),
      }),
      position(1, 'Кроссовки', {
        field: 'warehouse_cnt_data',
        user_id: 1,
        user_full_name: 'изменено перевозчиком отслеживания посылок',
        new_value: { label: 'прибыла в город', city: 'Гуанчжоу', event_at: at(2) },
        datetime: at(5),
      }),
    ],
    [{ carrier: 'cdek', label: 'принят на склад отправителя', status_at: at(6), city: 'Москва' }],
    client,
  );
  expect(lines.map((l) => [l.kind, l.text, l.who, l.images])).toEqual([
    ['carrier', 'СДЭК: принят на склад отправителя, Москва', 'СДЭК', []],
    ['photos', '1 фото со склада: позиция «Кроссовки»', 'оператор', ['/api/file/b']],
    ['warehouse', 'на склад консолидации поступило 3 места позиции «Кроссовки» (ZTO)', 'оператор', []],
    ['tracking', 'по Китаю, «Кроссовки»: прибыла в город, Гуанчжоу', 'Caravan', []],
  ]);
  expect(JSON.stringify(lines)).not.toContain('10.00'); // the warehouse's cost is not the client's to read
});

test('a long story is cut to the newest 300 entries', () => {
  const rows = Array.from({ length: 400 }, (_, i) =>
    position(i + 1, `№${i}`, {
      new_value: 'buyout_done',
      datetime: new Date(Date.UTC(2026, 10, 1, 0, 0, i * 2)).toISOString(),
    }),
  );
  const lines = orderTimeline(rows, [], client);
  expect(lines).toHaveLength(300);
  expect(lines[0]!.positions[0]!.id).toBe(400);
});

test("the chat's messages are lines of the story: the author as the chat names them, the words, the files by name", () => {
  const message = (over: Partial<TimelineChatMessage>): TimelineChatMessage => ({
    author_id: 7,
    fullname: 'Анна Оператор',
    created_at: at(10),
    title: '',
    files: [],
    ...over,
  });
  const lines = orderTimeline(
    [row({ field: 'stage', old_value: 'draft', new_value: 'created', user_id: 3, datetime: at(1) })],
    [],
    client,
    [
      message({
        title: 'Фото товара приложила',
        files: [{ file: '/api/files/f1.jpg', name: 'кроссовки.jpg' }],
      }),
      message({ author_id: 3, fullname: 'Ирина Клиентова', title: 'Когда отправите?', created_at: at(5) }),
      message({
        created_at: at(12),
        files: [
          { file: '/api/files/inv.pdf', name: 'счёт.pdf' },
          { file: '/api/files/old.pdf', name: 'старый.pdf', deleted: true },
        ],
      }),
    ],
  );
  expect(lines.map((l) => [l.kind, l.text, l.who, (l.files ?? []).map((f) => f.name)])).toEqual([
    ['message', '1 файл в чате', 'Анна Оператор', ['счёт.pdf']],
    ['message', 'Фото товара приложила', 'Анна Оператор', ['кроссовки.jpg']],
    ['message', 'Когда отправите?', 'вы', []],
    ['stage', 'заказ: сформирован', 'вы', []],
  ]);
  expect(lines[1]!.files).toEqual([{ file: '/api/files/f1.jpg', name: 'кроссовки.jpg' }]);
});
