import { NOTIFICATION_TEXTS } from './entities/notification';

/** The new notices' words (issue 19, docs/adr/0029): plain Russian, the order named as users know it. */
describe('notices of the work around an order', () => {
  it('a task given and a task finished, with the spec’s success rate', () => {
    expect(
      NOTIFICATION_TEXTS.taskAssigned('заказ 12', 'связаться с клиентом', '  позвонить\nзавтра '),
    ).toEqual({
      label: 'вам поручена задача',
      message: '«связаться с клиентом» по заказу 12: позвонить завтра',
    });
    expect(NOTIFICATION_TEXTS.taskAssigned('Кроссовки', 'прочее', '')).toEqual({
      label: 'вам поручена задача',
      message: '«прочее» по заказу «Кроссовки»',
    });
    expect(NOTIFICATION_TEXTS.taskFinished('заказ 12', 'дополнительные фото', 'сделали 5 фото', 8)).toEqual({
      label: 'задача выполнена',
      message: '«дополнительные фото» по заказу 12: сделали 5 фото. Оценка успешности: 8',
    });
  });

  it('chat messages: one names its author and words (or files), more are counted in good Russian', () => {
    const one = NOTIFICATION_TEXTS.chatMessages('заказ 12', 1, 'Ли Вэй', 'Товар выкуплен', []);
    expect(one).toEqual({
      label: 'новое сообщение в чате',
      message: 'Ли Вэй в чате заказа 12: «Товар выкуплен»',
    });
    expect(NOTIFICATION_TEXTS.chatMessages('Кроссовки', 1, 'Ли Вэй', ' ', ['счёт.pdf']).message).toBe(
      'Ли Вэй в чате заказа «Кроссовки»: файл «счёт.pdf»',
    );
    expect(NOTIFICATION_TEXTS.chatMessages('заказ 12', 1, 'Ли', '', ['a.jpg', 'b.jpg']).message).toBe(
      'Ли в чате заказа 12: файлы «a.jpg», «b.jpg»',
    );
    expect(
      [2, 5, 21].map((n) => NOTIFICATION_TEXTS.chatMessages('заказ 12', n, 'Ли', 'x', []).message),
    ).toEqual([
      '2 новых сообщения в чате заказа 12',
      '5 новых сообщений в чате заказа 12',
      '21 новое сообщение в чате заказа 12',
    ]);
    expect(NOTIFICATION_TEXTS.chatMessages('заказ 12', 3, 'Ли', 'x', []).label).toBe(
      'новые сообщения в чате',
    );
    const long = NOTIFICATION_TEXTS.chatMessages('заказ 12', 1, 'Ли', 'а'.repeat(4000), []).message;
    expect(long.length).toBeLessThan(260);
    expect(long.endsWith('…»')).toBe(true);
  });

  it('warehouse photos gathered per order; the client’s answer to them', () => {
    expect(NOTIFICATION_TEXTS.warehousePhotos('заказ 12', 1, 'Кружка')).toEqual({
      label: 'фото со склада',
      message: 'новые фото со склада: «Кружка» из заказа 12',
    });
    expect(NOTIFICATION_TEXTS.warehousePhotos('Посуда', 3, 'Кружка').message).toBe(
      'новые фото со склада: 3 позиции из заказа «Посуда»',
    );
    expect(NOTIFICATION_TEXTS.photoAnswer('заказ 12', 'Кружка', 'accepted', '')).toEqual({
      label: 'клиент принял фото',
      message: 'клиент принял фото позиции «Кружка» из заказа 12',
    });
    expect(NOTIFICATION_TEXTS.photoAnswer('заказ 12', 'Кружка', 'more', 'дно крупно')).toEqual({
      label: 'клиент просит ещё фото',
      message: 'клиент просит ещё фото позиции «Кружка» из заказа 12: дно крупно',
    });
  });

  it("a carrier's status that moved the order says the stage in the same notice", () => {
    expect(NOTIFICATION_TEXTS.carrierStatus('заказ 12', 'cdek', '1700000077', 'вручён', 'Москва')).toEqual({
      label: 'СДЭК: вручён',
      message: 'заказ 12, отправление 1700000077: вручён (Москва)',
    });
    expect(
      NOTIFICATION_TEXTS.carrierStatus('заказ 12', 'cdek', '1700000077', 'вручён', null, 'client_received')
        .message,
    ).toBe('заказ 12, отправление 1700000077: вручён; заказ перешёл на этап «вручён получателю»');
  });
});
