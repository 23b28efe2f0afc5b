import { CHAT_MESSAGES, ENTITY_TOPICS, MESSAGES, type Identity } from '@caravan/contracts';
import { startPeople } from './people';
import { ordersWorld, refused, type Any, type OrdersWorld } from './support';

/**
 * The chat of an order (issue 19, docs/adr/0023): its client, its operator and admins open it and write
 * to each other; each reads their own unread count; another client or operator neither reads nor
 * writes; refusals change nothing.
 */
const PREFIX = 'chats';
let world: OrdersWorld;
let people: Awaited<ReturnType<typeof startPeople>>;
let order: Any;
let chat: Any;
let who: Record<'admin' | 'clientA' | 'clientB' | 'operatorA' | 'operatorB', Identity>;

const messageCount = async () => Number((await world.orders.db('chat_message').count('* as n').first())!.n);
const say = (title: string, identity: Identity, fields: Record<string, unknown> = {}) =>
  world.call('chat_message_update', { id: -1, chat_id: chat.id, title, ...fields }, identity);

beforeAll(async () => {
  world = await ordersWorld(PREFIX);
  people = await startPeople(world.orders, `${process.env.KAFKA_TOPIC_PREFIX ?? ''}${PREFIX}-`);
  const { person } = people;
  who = {
    admin: people.admin,
    clientA: await person(['Ирина', 'Клиентова'], 'client', { client_id: world.clientA.id }),
    clientB: await person(['Пётр', 'Чужой'], 'client', { client_id: world.clientB.id }),
    operatorA: await person(['Ли', 'Вэй'], 'operator', { operator_id: world.opA.id }),
    operatorB: await person(['Чжан', 'Мин'], 'operator', { operator_id: world.opB.id }),
  };
  order = await world.draftOrder();
});
afterAll(async () => {
  await people?.stop();
  await world?.stop();
});

describe('opening the chat of an order', () => {
  it('another client and another operator cannot open it', async () => {
    for (const stranger of [who.clientB, who.operatorB])
      expect(await world.call('chat_update', { id: -1, table_id: order.id }, stranger)).toEqual(
        refused(CHAT_MESSAGES.orderMissing),
      );
    expect(await world.orders.db('chat').where({ table_id: order.id })).toHaveLength(0);
  });

  it('the client opens it; a second one for the same order is refused', async () => {
    const reply = await world.call(
      'chat_update',
      { id: -1, table_name: 'client_order', table_id: order.id },
      who.clientA,
    );
    expect(reply.ok).toBe(true);
    chat = reply.result;
    expect(chat).toMatchObject({ table_name: 'client_order', table_id: order.id, table_title: order.title });
    expect(await world.call('chat_update', { id: -1, table_id: order.id }, who.operatorA)).toEqual(
      refused(CHAT_MESSAGES.alreadyExists),
    );
    expect(await world.orders.db('chat').where({ table_id: order.id })).toHaveLength(1);
  });

  it('the order’s participants find it by the order; strangers do not', async () => {
    const find = (identity: Identity) =>
      world.call('chat_list', { filters: { table_name: 'client_order', table_id: order.id } }, identity);
    for (const participant of [who.clientA, who.operatorA, who.admin])
      expect((await find(participant)).result.items.map((c: Any) => c.id)).toEqual([chat.id]);
    for (const stranger of [who.clientB, who.operatorB]) {
      expect((await find(stranger)).result.items).toEqual([]);
      expect(await world.call('chat_get_by_id', { id: chat.id }, stranger)).toEqual(
        refused(MESSAGES.notFound),
      );
    }
  });
});

describe('messages', () => {
  it('go both ways between the client and the operator, each counting what the other wrote', async () => {
    const fromClient = await say('Здравствуйте! Когда будет выкуп?', who.clientA);
    expect(fromClient.ok).toBe(true);
    expect(fromClient.result).toMatchObject({ author_id: who.clientA.user_id, fullname: 'Ирина Клиентова' });
    const fromOperator = await say('Завтра утром', who.operatorA);
    expect(fromOperator.ok).toBe(true);

    const seenByOperator = (await world.call('chat_get_by_id', { id: chat.id }, who.operatorA)).result;
    expect(seenByOperator.message_list.map((m: Any) => [m.fullname, m.title])).toEqual([
      ['Ирина Клиентова', 'Здравствуйте! Когда будет выкуп?'],
      ['Ли Вэй', 'Завтра утром'],
    ]);
    expect(seenByOperator.unread_count).toBe(1);
    expect((await world.call('chat_get_by_id', { id: chat.id }, who.clientA)).result.unread_count).toBe(1);

    const unread = await world.call('chat_unread_list', {}, who.clientA);
    expect(unread.result).toEqual([
      { chat_id: chat.id, table_name: 'client_order', table_id: order.id, unread: 1 },
    ]);
    expect((await world.call('chat_unread_list', {}, who.clientB)).result).toEqual([]);
    expect((await world.call('chat_unread_list', {}, who.operatorB)).result).toEqual([]);

    expect(await world.call('chat_mark_read', { chat_id: chat.id }, who.operatorA)).toEqual({
      ok: true,
      result: { chat_id: chat.id, unread_count: 0 },
    });
    // the client's count is their own
    expect((await world.call('chat_get_by_id', { id: chat.id }, who.clientA)).result.unread_count).toBe(1);

    // a read mark beyond the newest message stops at it: a later message still counts as unread
    await world.call('chat_mark_read', { chat_id: chat.id, message_id: 9007199254740991 }, who.operatorA);
    await say('И ещё вопрос', who.clientA);
    expect((await world.call('chat_get_by_id', { id: chat.id }, who.operatorA)).result.unread_count).toBe(1);
  });

  it('are published with the order’s client and operator, who alone receive them live', async () => {
    const sent = (await say('Спасибо', who.clientA)).result;
    const row = await world.orders
      .db('outbox')
      .where({ topic: ENTITY_TOPICS.chat_message, key: String(sent.id) })
      .first();
    expect(row.event.data.row).toMatchObject({
      chat_id: chat.id,
      title: 'Спасибо',
      client_id: world.clientA.id,
      operator_id: world.opA.id,
      table_id: order.id,
    });
  });

  it('carry files uploaded through /api/upload_file, with or without text', async () => {
    const uploaded = await world.upload(
      'upload_file',
      [Buffer.from('накладная'), 'waybill.txt'],
      {},
      who.operatorA,
    );
    expect(uploaded.ok).toBe(true);
    const [file] = uploaded.result as { file: string; name: string }[];
    const reply = await say('', who.operatorA, { files: [{ file: file!.file, name: file!.name }] });
    expect(reply.ok).toBe(true);
    expect(reply.result.files).toEqual([{ file: file!.file, name: 'waybill.txt', deleted: false }]);
  });

  it('refuse a link that is not a file uploaded here, and keep the message as it was', async () => {
    const before = await messageCount();
    const outside = [
      { file: 'javascript:alert(document.cookie)', name: 'счёт.pdf' },
      { file: 'https://evil.example/phish.exe', name: 'накладная.pdf' },
      // the shape of ours, but nothing was uploaded under this id
      { file: '/api/files/0b6c1b2e-0000-4000-8000-000000000000.pdf', name: 'накладная.pdf' },
    ];
    for (const file of outside)
      expect(await say('файл', who.clientA, { files: [file] })).toEqual(refused(CHAT_MESSAGES.notUploaded));
    expect(await messageCount()).toBe(before);

    // nor slipped into a message already sent
    const sent = (await say('вот накладная', who.clientA)).result;
    const stored = await world.stored('chat_message', sent.id);
    expect(
      await world.call('chat_message_update', { id: sent.id, files: [outside[1]] }, who.clientA),
    ).toEqual(refused(CHAT_MESSAGES.notUploaded));
    expect(await world.stored('chat_message', sent.id)).toEqual(stored);
  });

  it('another client or operator can neither read nor write them; nothing is stored', async () => {
    const before = await messageCount();
    for (const stranger of [who.clientB, who.operatorB]) {
      expect(await say('я тоже хочу', stranger)).toEqual(refused(CHAT_MESSAGES.chatMissing));
      const listed = await world.call(
        'chat_message_list',
        { where_param: [{ field: 'chat_id', op: '=', value: chat.id }] },
        stranger,
      );
      expect(listed.result.items).toEqual([]);
      expect(await world.call('chat_mark_read', { chat_id: chat.id }, stranger)).toEqual(
        refused(MESSAGES.notFound),
      );
    }
    expect(await messageCount()).toBe(before);
  });

  it('refuses an empty message, one in another’s name, or a change by someone else; rows unchanged', async () => {
    const before = await messageCount();
    expect(await say('   ', who.clientA)).toEqual(refused(CHAT_MESSAGES.empty));
    expect(await say('от имени оператора', who.clientA, { fullname: 'Ли Вэй' })).toEqual(
      refused(MESSAGES.accessDenied),
    );
    expect(await say('от имени оператора', who.clientA, { author_id: who.operatorA.user_id })).toEqual(
      refused(MESSAGES.accessDenied),
    );
    expect(await say('x'.repeat(4001), who.clientA)).toEqual(refused(CHAT_MESSAGES.tooLong));
    expect(await messageCount()).toBe(before);

    const mine = (await say('моё сообщение', who.clientA)).result;
    const stored = await world.stored('chat_message', mine.id);
    expect(
      await world.call('chat_message_update', { id: mine.id, title: 'исправлено' }, who.operatorA),
    ).toEqual(refused(CHAT_MESSAGES.onlyAuthor));
    expect(await world.call('chat_message_update', { id: mine.id, deleted: true }, who.operatorA)).toEqual(
      refused(CHAT_MESSAGES.onlyAuthor),
    );
    const other = await world.call(
      'chat_update',
      { id: -1, table_id: (await world.draftOrder()).id },
      who.clientA,
    );
    expect(
      await world.call('chat_message_update', { id: mine.id, chat_id: other.result.id }, who.clientA),
    ).toEqual(refused(CHAT_MESSAGES.chatFixed));
    expect(await world.stored('chat_message', mine.id)).toEqual(stored);

    // the author corrects their own; an admin removes any
    expect(
      (await world.call('chat_message_update', { id: mine.id, title: 'исправлено' }, who.clientA)).ok,
    ).toBe(true);
    expect((await world.call('chat_message_update', { id: mine.id, deleted: true }, who.admin)).ok).toBe(
      true,
    );
    expect(await world.stored('chat_message', mine.id)).toMatchObject({ title: 'исправлено', deleted: true });
  });
});
