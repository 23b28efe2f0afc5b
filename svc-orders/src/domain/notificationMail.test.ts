import { notificationMail, type MailedNotice } from './notificationMail';

const notice = (over: Partial<MailedNotice> = {}): MailedNotice => ({
  label: 'заказ ожидает оплаты',
  message: 'заказ 12 перешёл на этап «ожидает оплаты/выкупа»',
  table_name: 'client_order',
  item_id: 12,
  ...over,
});

describe('a notification mail', () => {
  it('one notice: its heading is the subject; several: how many, in good Russian', () => {
    expect(notificationMail('Ирина', [notice()], 'https://c.example').subject).toBe(
      'Caravan: заказ ожидает оплаты',
    );
    const subject = (n: number) =>
      notificationMail(
        'Ирина',
        Array.from({ length: n }, () => notice()),
        'https://c.example',
      ).subject;
    expect([2, 5, 11, 21, 22, 500].map(subject)).toEqual([
      'Caravan: 2 новых уведомления',
      'Caravan: 5 новых уведомлений',
      'Caravan: 11 новых уведомлений',
      'Caravan: 21 новое уведомление',
      'Caravan: 22 новых уведомления',
      'Caravan: 500 новых уведомлений',
    ]);
  });

  it('links an order notice to its card and a wallet notice to the wallet, from the public address', () => {
    const mail = notificationMail(
      '',
      [
        notice(),
        notice({ label: 'баланс пополнен', message: 'на 1 000,00 ₽', table_name: 'wallet', item_id: 3 }),
      ],
      'https://c.example/',
    );
    expect(mail.text).toContain('Здравствуйте!\n');
    expect(mail.text).toContain('Открыть заказ: https://c.example/client_order/12');
    expect(mail.text).toContain('Открыть кошелёк: https://c.example/wallet');
    expect(mail.html).toContain('<a href="https://c.example/client_order/12">Открыть заказ</a>');
    expect(mail.html).toContain('<a href="https://c.example/wallet">Открыть кошелёк</a>');
  });

  it('shows an order title with markup in it as text in the HTML', () => {
    const mail = notificationMail(
      'Ли <b>',
      [notice({ message: 'заказ «<img src=x onerror=alert(1)> & Co» изменён' })],
      'https://c.example',
    );
    expect(mail.html).toContain('заказ «&lt;img src=x onerror=alert(1)&gt; &amp; Co» изменён');
    expect(mail.html).toContain('Здравствуйте, Ли &lt;b&gt;!');
    expect(mail.html).not.toContain('<img');
    expect(mail.text).toContain('заказ «<img src=x onerror=alert(1)> & Co» изменён');
  });
});
