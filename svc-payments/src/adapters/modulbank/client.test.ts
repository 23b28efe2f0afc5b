import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AcquirerError, type AcquirerPaymentRequest } from '../acquirer';
import { ModulbankClient } from './client';
import { signedForm, startSandboxAcquirer, SANDBOX_TEST_CARD, type SandboxAcquirer } from './sandbox';

/** The real client against the real sandbox server; a local HTTP server stands for our callback endpoint. */

const MERCHANT = 'shop-42';
const SECRET = 'sandbox-secret';
const NBSP = '\u00a0';

type Local = { url: string; close(): Promise<void> };

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Local> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Our side: records every callback form; answers with the statuses queued, then 200. */
const received: Record<string, string>[] = [];
const answers: number[] = [];
let sandbox: SandboxAcquirer;
let receiver: Local;
let client: ModulbankClient;

beforeAll(async () => {
  receiver = await listen((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push(Object.fromEntries(new URLSearchParams(body)));
      res.writeHead(answers.shift() ?? 200).end('OK');
    });
  });
  sandbox = await startSandboxAcquirer({
    port: 0,
    merchant: MERCHANT,
    secret: SECRET,
    callbackScheduleMs: [10, 20, 40],
  });
  client = new ModulbankClient({ baseUrl: sandbox.url, merchant: MERCHANT, secret: SECRET, testing: true });
});
afterAll(async () => {
  await sandbox.stop();
  await receiver.close();
});
beforeEach(() => {
  received.length = 0;
  answers.length = 0;
});

const request = (over: Partial<AcquirerPaymentRequest> = {}): AcquirerPaymentRequest => ({
  orderId: '101',
  amount: '1007.05',
  description: 'Пополнение кошелька «Основной»',
  callbackUrl: `${receiver.url}/api/acquirer/callback`,
  testing: false,
  ...over,
});

const open = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, html: await res.text() };
};
/** What the payer's browser does on a button: POST the form, follow the redirect to the page. */
const press = async (pageUrl: string, button: 'complete' | 'decline') => {
  const id = pageUrl.split('/').pop()!;
  const res = await fetch(`${sandbox.url}/pay/${id}/${button}`, { method: 'POST' });
  return { status: res.status, html: await res.text() };
};

describe('SBP payment through the sandbox', () => {
  it('link → payer page with the amount → оплатить → a genuine COMPLETE callback, once', async () => {
    const { sbpLink, transactionId } = await client.createSbpPayment(request());
    expect(sbpLink).toBe(`${sandbox.url}/sbp/${transactionId}`);

    const page = await open(sbpLink);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Песочница банка — тестовая оплата');
    expect(page.html).toContain(`1${NBSP}007,05${NBSP}₽`);
    expect(page.html).toContain('СБП');
    expect(page.html).toContain(MERCHANT);
    expect(page.html).toContain('Пополнение кошелька «Основной»');
    expect(page.html).toContain('>оплатить<');
    expect(page.html).toContain('>отклонить<');
    expect(page.html).toContain('тестовый платёж');

    const result = await press(sbpLink, 'complete');
    expect(result.status).toBe(200);
    expect(result.html).toContain('платёж выполнен');
    expect(result.html).toContain('можно вернуться в Caravan');
    expect(result.html).toContain('магазин получил уведомление');

    expect(received).toHaveLength(1);
    expect(client.verifyCallback(received[0]!)).toEqual({
      orderId: '101',
      transactionId,
      amount: '1007.05',
      currency: 'RUB',
      state: 'COMPLETE',
      testing: true,
      message: '',
    });

    // pressed again, either button: the page shows the final state, nothing more is posted
    expect((await press(sbpLink, 'complete')).html).toContain('платёж выполнен');
    expect((await press(sbpLink, 'decline')).html).toContain('платёж выполнен');
    expect((await open(sbpLink)).html).not.toContain('>оплатить<');
    expect(received).toHaveLength(1);

    expect(await client.getTransaction(transactionId)).toMatchObject({
      transactionId,
      orderId: '101',
      state: 'COMPLETE',
      amount: '1007.05',
      testing: true,
    });
  });

  it('отклонить → a genuine FAILED callback; the page says so', async () => {
    const { sbpLink } = await client.createSbpPayment(request({ orderId: '102', amount: '15' }));
    const result = await press(sbpLink, 'decline');
    expect(result.html).toContain('платёж отклонён');
    expect(received).toHaveLength(1);
    expect(client.verifyCallback(received[0]!)).toMatchObject({
      orderId: '102',
      state: 'FAILED',
      amount: '15.00',
    });
    await press(sbpLink, 'complete');
    expect(received).toHaveLength(1);
  });
});

describe('card bill through the sandbox', () => {
  it('bill page with the test card → оплатить → COMPLETE callback with our id; back link to success_url', async () => {
    const successUrl = 'http://caravan.test/wallet?paid=1&x=<y>';
    const { url, transactionId } = await client.createBill(
      request({ orderId: '201', amount: '2500.5', successUrl, description: 'Оплата заказа <№7>' }),
    );
    expect(url).toBe(`${sandbox.url}/pay/${transactionId}`);

    const page = await open(url);
    expect(page.html).toContain(`2${NBSP}500,50${NBSP}₽`);
    expect(page.html).toContain('банковская карта');
    expect(page.html).toContain(SANDBOX_TEST_CARD.number);
    expect(page.html).toContain('Оплата заказа &lt;№7&gt;');

    const result = await press(url, 'complete');
    expect(result.html).toContain('платёж выполнен');
    expect(result.html).toContain('href="http://caravan.test/wallet?paid=1&amp;x=&lt;y&gt;"');
    expect(client.verifyCallback(received[0]!)).toMatchObject({
      orderId: '201',
      transactionId,
      amount: '2500.50',
      state: 'COMPLETE',
    });
  });

  it('отклонить → FAILED', async () => {
    const { url } = await client.createBill(request({ orderId: '202' }));
    expect((await press(url, 'decline')).html).toContain('платёж отклонён');
    expect(client.verifyCallback(received[0]!)).toMatchObject({ orderId: '202', state: 'FAILED' });
  });
});

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 15_000) => {
  for (const deadline = Date.now() + ms; !(await check()); await new Promise((r) => setTimeout(r, 10)))
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
};

describe('callback delivery', () => {
  it('is retried on its schedule while our side answers an error; the page tells when it never got through and resends', async () => {
    answers.push(500, 503);
    const first = await client.createSbpPayment(request({ orderId: '301' }));
    // the first post is at once; the retries come after the schedule's pauses, in the background
    await press(first.sbpLink, 'complete');
    await until('three posts', () => received.length === 3);
    expect(client.verifyCallback(received[2]!)).toMatchObject({ orderId: '301', state: 'COMPLETE' });
    await until('the page to tell it was delivered', async () =>
      (await open(first.sbpLink)).html.includes('магазин получил уведомление'),
    );

    received.length = 0;
    answers.push(500, 500, 500, 500);
    const second = await client.createSbpPayment(request({ orderId: '302' }));
    await press(second.sbpLink, 'complete');
    // the schedule ends after three retries: the page tells it, with no next attempt
    await until('the page to tell the attempts ended', async () =>
      (await open(second.sbpLink)).html.includes('уведомление магазину не доставлено: HTTP 500 (попыток: 4)'),
    );
    expect(received).toHaveLength(4);

    const id = second.sbpLink.split('/').pop()!;
    const resent = await fetch(`${sandbox.url}/pay/${id}/notify`, { method: 'POST' });
    expect(await resent.text()).toContain('магазин получил уведомление');
    expect(client.verifyCallback(received[4]!)).toMatchObject({ orderId: '302', state: 'COMPLETE' });
  });

  it("'провести, не уведомляя магазин': COMPLETE at the bank, no callback; getTransaction tells it", async () => {
    const { sbpLink, transactionId } = await client.createSbpPayment(request({ orderId: '303' }));
    const id = sbpLink.split('/').pop()!;
    const res = await fetch(`${sandbox.url}/pay/${id}/complete_silently`, { method: 'POST' });
    expect(await res.text()).toContain('магазин не уведомлён');
    await new Promise((r) => setTimeout(r, 100));
    expect(received.filter((form) => form.order_id === '303')).toHaveLength(0);
    expect(await client.getTransaction(transactionId)).toMatchObject({
      orderId: '303',
      state: 'COMPLETE',
      amount: '1007.05',
    });
  });
});

describe('verifyCallback refuses what the bank did not send', () => {
  const genuine = () =>
    signedForm(
      {
        merchant: MERCHANT,
        order_id: '55',
        transaction_id: 'T1',
        amount: '100.00',
        currency: 'RUB',
        state: 'COMPLETE',
        testing: '0',
      },
      SECRET,
    );

  it('accepts the genuine form', () => {
    expect(client.verifyCallback(genuine())).toMatchObject({
      orderId: '55',
      amount: '100.00',
      testing: false,
    });
  });

  it('an amount or state changed, a signature changed or dropped, another merchant → null', () => {
    expect(client.verifyCallback({ ...genuine(), amount: '1000.00' })).toBeNull();
    expect(client.verifyCallback({ ...genuine(), state: 'COMPLETE', order_id: '56' })).toBeNull();
    const form = genuine();
    expect(
      client.verifyCallback({
        ...form,
        signature: form.signature!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
      }),
    ).toBeNull();
    const { signature: _, ...unsigned } = form;
    expect(client.verifyCallback(unsigned)).toBeNull();
    expect(client.verifyCallback({ ...form, merchant: 'other-shop' })).toBeNull();
    // signed correctly, but by another shop with its own secret, or for another shop with ours
    expect(client.verifyCallback(signedForm({ ...form, merchant: 'other-shop' }, 'other-secret'))).toBeNull();
    expect(client.verifyCallback(signedForm({ ...form, merchant: 'other-shop' }, SECRET))).toBeNull();
    expect(client.verifyCallback(signedForm({ ...form, amount: '1000.00' }, 'guessed-secret'))).toBeNull();
  });

  it('a signed form without an order, amount or state, or with an amount that is not a number → null', () => {
    const { order_id: _o, ...noOrder } = genuine();
    expect(client.verifyCallback(signedForm(noOrder, SECRET))).toBeNull();
    expect(client.verifyCallback(signedForm({ ...genuine(), amount: '1e3' }, SECRET))).toBeNull();
    expect(client.verifyCallback(signedForm({ ...genuine(), state: '' }, SECRET))).toBeNull();
  });
});

describe('failures become AcquirerError with words a user can read', () => {
  it('the bank refuses a wrong signature or merchant with its message', async () => {
    const wrongSecret = new ModulbankClient({ baseUrl: sandbox.url, merchant: MERCHANT, secret: 'nope' });
    const refusal = wrongSecret.createSbpPayment(request());
    await expect(refusal).rejects.toThrow(AcquirerError);
    await expect(refusal).rejects.toThrow('банк отклонил запрос: неверная подпись запроса (signature)');

    const wrongShop = new ModulbankClient({ baseUrl: sandbox.url, merchant: 'shop-7', secret: SECRET });
    await expect(wrongShop.createBill(request())).rejects.toThrow(
      'банк отклонил запрос: неизвестный магазин (merchant): shop-7',
    );
    await expect(client.createSbpPayment(request({ description: '' }))).rejects.toThrow(
      'банк отклонил запрос: не указано описание платежа (description)',
    );
    await expect(client.getTransaction('NOSUCHPAYMENT')).rejects.toThrow(
      'банк отклонил запрос: платёж не найден',
    );
  });

  it('a wrong amount is refused before any call', async () => {
    await expect(client.createBill(request({ amount: '0' }))).rejects.toThrow('неверная сумма платежа: 0');
    await expect(client.createBill(request({ amount: '12,5' }))).rejects.toThrow(AcquirerError);
  });

  it('connection refused', async () => {
    const gone = await listen(() => undefined);
    await gone.close();
    const offline = new ModulbankClient({ baseUrl: gone.url, merchant: MERCHANT, secret: SECRET });
    const call = offline.createSbpPayment(request());
    await expect(call).rejects.toThrow(AcquirerError);
    await expect(call).rejects.toThrow('нет связи с банком (ECONNREFUSED)');
  });

  it('an answer that is not 2xx, not JSON, or never comes', async () => {
    const broken = await listen((req, res) => {
      if (req.url?.startsWith('/gateway'))
        res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad Gateway</h1>');
      else if (req.url?.startsWith('/garbage')) res.writeHead(200).end('not json');
      else if (req.url?.startsWith('/nolink')) res.writeHead(200).end('{"status":"ok"}');
      // /silent: never answers
    });
    const at = (path: string, timeoutMs = 10_000) =>
      new ModulbankClient({ baseUrl: `${broken.url}${path}`, merchant: MERCHANT, secret: SECRET, timeoutMs });
    try {
      await expect(at('/gateway').createSbpPayment(request())).rejects.toThrow(
        'банк ответил ошибкой HTTP 502',
      );
      await expect(at('/garbage').createSbpPayment(request())).rejects.toThrow(
        'банк прислал непонятный ответ',
      );
      await expect(at('/nolink').createBill(request())).rejects.toThrow('банк не прислал ссылку на оплату');
      await expect(at('/silent', 200).createBill(request())).rejects.toThrow('банк не ответил за 0,2 с');
    } finally {
      await broken.close();
    }
  });
});

describe('the sandbox pages', () => {
  it('an unknown payment is a Russian 404 page; unknown API methods are vendor errors', async () => {
    const page = await open(`${sandbox.url}/pay/UNKNOWN123`);
    expect(page.status).toBe(404);
    expect(page.html).toContain('платёж не найден');
    const pressed = await fetch(`${sandbox.url}/pay/UNKNOWN123/complete`, { method: 'POST' });
    expect(pressed.status).toBe(404);
    const api = await fetch(`${sandbox.url}/api/v1/refund`, { method: 'POST' });
    expect(await api.json()).toEqual({ status: 'error', message: 'неизвестный метод API' });
  });
});
