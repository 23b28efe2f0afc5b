import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dec, decFormat, formatMoney, PRODUCT_TITLE } from '@caravan/contracts';
import { readRequestBody, type Logger } from '@caravan/service-kit';
import { networkReason } from './client';
import { randomSalt, signFields, verifySignature, type FormFields } from './signature';

/**
 * The built-in sandbox acquirer (ARCHITECTURE §9): a small HTTP server speaking Modulbank's protocol
 * (vendor-apis §2a) — signed form calls `POST /api/v1/sbp_payment`, `POST /api/v1/bill/`,
 * `GET /api/v1/transaction/` — plus the payer's page, where 'оплатить' or 'отклонить' makes it post the
 * signed callback to the payment's callback_url, as the bank does. Payments live in memory.
 */
export type SandboxAcquirerOptions = {
  /** where to listen; 127.0.0.1 */
  host?: string;
  /** 0 = any free port */
  port: number;
  merchant: string;
  secret: string;
  /** the host (or a whole origin, 'https://pay.example') the payer's browser reaches the sandbox at */
  publicHost?: string;
  /**
   * The pauses before each repeated callback post, ms, as a real bank retries (minutes to hours): the
   * first post goes at once, a retry after each pause while the shop does not answer 2xx; then the
   * payer page offers a resend. SANDBOX_CALLBACK_SCHEDULE_MS when not given.
   */
  callbackScheduleMs?: readonly number[];
  log?: Logger;
};

export type SandboxAcquirer = { url: string; stop(): Promise<void> };

/** Modulbank-like retries of an unanswered callback: after 1 min, 5 min, 15 min, 1 h and 3 h. */
export const SANDBOX_CALLBACK_SCHEDULE_MS: readonly number[] = [60, 300, 900, 3600, 10800].map(
  (s) => s * 1000,
);

/** 'ACQUIRER_SANDBOX_CALLBACK_SCHEDULE' as seconds, '60,300,900' → ms; empty → the default schedule. */
export function callbackSchedule(text: string | undefined): readonly number[] {
  if (!text?.trim()) return SANDBOX_CALLBACK_SCHEDULE_MS;
  const seconds = text.split(',').map((part) => Number(part.trim()));
  if (seconds.some((n) => !Number.isFinite(n) || n < 0))
    throw new Error(`ACQUIRER_SANDBOX_CALLBACK_SCHEDULE: seconds separated by commas, got '${text}'`);
  return seconds.map((n) => Math.round(n * 1000));
}

type Method = 'sbp' | 'card';
/** PROCESSING until the payer decides; COMPLETE, FAILED, or EXPIRED when the lifetime ran out. */
type State = 'PROCESSING' | 'COMPLETE' | 'FAILED' | 'EXPIRED';

type SandboxPayment = {
  id: string;
  method: Method;
  amount: string;
  description: string;
  orderId: string;
  callbackUrl: string;
  successUrl: string;
  clientEmail: string;
  testing: boolean;
  state: State;
  createdAt: Date;
  expiresAt: Date | null;
  callback: { attempts: number; delivered: boolean; error: string; nextAt: Date | null } | null;
  /** paid on the payer page with 'провести, не уведомляя магазин': the shop learns it only by asking */
  silent: boolean;
};

/** The test card the card page shows (Visa's test number: no real bank would take it). */
export const SANDBOX_TEST_CARD = { number: '4111 1111 1111 1111', expiry: '12/30', cvc: '123' };

const SANDBOX_MESSAGES = {
  unknownMerchant: (merchant: string) => `неизвестный магазин (merchant): ${merchant || 'не указан'}`,
  unsigned: 'запрос без unix_timestamp или salt',
  badSignature: 'неверная подпись запроса (signature)',
  badAmount: (amount: string) => `неверная сумма платежа (amount): ${amount || 'не указана'}`,
  noDescription: 'не указано описание платежа (description)',
  noOrder: 'не указан номер заказа (order_id)',
  badUrl: (field: string) => `неверный адрес (${field})`,
  badEmail: 'неверный адрес почты плательщика (client_email)',
  badLifetime: (field: string) => `неверный срок оплаты (${field})`,
  notFound: 'платёж не найден',
  unknownMethod: 'неизвестный метод API',
  tooLarge: 'слишком большой запрос',
  failed: 'платёж отклонён плательщиком',
} as const;

class VendorError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const MAX_BODY = 64 * 1024;

const readBody = (req: IncomingMessage): Promise<string> =>
  readRequestBody(req, MAX_BODY, () => new VendorError(SANDBOX_MESSAGES.tooLarge, 413));

const formOf = (text: string): Record<string, string> => Object.fromEntries(new URLSearchParams(text));

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;background:#eef1f5;color:#1c2127}
header{background:#2d72d2;color:#fff;padding:14px 18px;font-weight:600;letter-spacing:.2px}
header small{display:block;font-weight:400;opacity:.85;font-size:13px}
main{max-width:440px;margin:18px auto;padding:0 12px}
.card{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.12);padding:20px}
.muted{color:#5f6b7c;font-size:14px}
.amount{font-size:34px;font-weight:700;margin:6px 0 2px;white-space:nowrap}
.row{display:flex;justify-content:space-between;gap:12px;padding:6px 0;border-bottom:1px solid #edeff2}
.row span:last-child{text-align:right;word-break:break-word}
.badge{display:inline-block;background:#fbb360;color:#1c2127;border-radius:4px;padding:1px 8px;font-size:12px;font-weight:600}
.fake{margin:14px 0;padding:12px;border:1px dashed #abb3bf;border-radius:8px}
.fake label{display:block;font-size:12px;color:#5f6b7c;margin-top:6px}
.fake input{width:100%;padding:8px;border:1px solid #c5cbd3;border-radius:6px;font:inherit;background:#f6f7f9}
.fake .pair{display:flex;gap:10px}.fake .pair>div{flex:1}
form{margin:0}
button,.button{display:block;width:100%;margin-top:12px;padding:13px;border:0;border-radius:8px;font:inherit;font-weight:600;cursor:pointer;text-align:center;text-decoration:none}
.pay{background:#238551;color:#fff}.pay:hover{background:#1c6e42}
.decline{background:#fff;color:#ac2f33;border:1px solid #cd4246}
.neutral{background:#2d72d2;color:#fff}
h1{font-size:24px;margin:4px 0 8px}
.ok{color:#1c6e42}.fail{color:#ac2f33}
.note{font-size:13px;color:#5f6b7c;margin-top:14px}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${CSS}</style></head>
<body><header>Песочница банка — тестовая оплата<small>ненастоящие деньги: платёж проводит встроенная песочница</small></header>
<main>${body}</main></body></html>`;
}

const METHOD_LABELS: Record<Method, string> = { sbp: 'СБП', card: 'банковская карта' };

/** The form the bank posts to callback_url, signed (vendor-apis §2a: state COMPLETE or FAILED). */
function callbackForm(p: SandboxPayment, merchant: string, secret: string): Record<string, string> {
  return signFields(
    {
      merchant,
      order_id: p.orderId,
      custom_order_id: p.method === 'card' ? p.orderId : undefined,
      transaction_id: p.id,
      amount: p.amount,
      original_amount: p.amount,
      currency: 'RUB',
      state: p.state,
      testing: p.testing ? '1' : '0',
      description: p.description,
      payment_method: p.method,
      client_email: p.clientEmail || undefined,
      message: p.state === 'FAILED' ? SANDBOX_MESSAGES.failed : undefined,
      created_datetime: p.createdAt.toISOString(),
    },
    secret,
  );
}

/** Starts the sandbox; `url` is where the client and the payer reach it. */
export async function startSandboxAcquirer(options: SandboxAcquirerOptions): Promise<SandboxAcquirer> {
  const { merchant, secret, log } = options;
  const host = options.host ?? '127.0.0.1';
  const schedule = options.callbackScheduleMs ?? SANDBOX_CALLBACK_SCHEDULE_MS;
  const retries = new Set<NodeJS.Timeout>();
  const payments = new Map<string, SandboxPayment>();
  let baseUrl = '';

  const payerPath = (p: SandboxPayment) => `/${p.method === 'sbp' ? 'sbp' : 'pay'}/${p.id}`;

  /** The bank's checks of a signed call: the shop, the salt and time, the signature. */
  function checkSigned(form: Record<string, string>) {
    if (form.merchant !== merchant)
      throw new VendorError(SANDBOX_MESSAGES.unknownMerchant(form.merchant ?? ''));
    if (!form.unix_timestamp || !form.salt) throw new VendorError(SANDBOX_MESSAGES.unsigned);
    if (!verifySignature(form, secret)) throw new VendorError(SANDBOX_MESSAGES.badSignature);
  }

  function lifetime(value: string | undefined, field: string, unitMs: number): Date | null {
    if (!value) return null;
    if (!/^\d+$/.test(value) || Number(value) <= 0)
      throw new VendorError(SANDBOX_MESSAGES.badLifetime(field));
    return new Date(Date.now() + Number(value) * unitMs);
  }

  function createPayment(form: Record<string, string>, method: Method): SandboxPayment {
    checkSigned(form);
    const amount = form.amount ?? '';
    if (!/^\d+(\.\d{1,2})?$/.test(amount) || !/[1-9]/.test(amount))
      throw new VendorError(SANDBOX_MESSAGES.badAmount(amount));
    if (!form.description?.trim()) throw new VendorError(SANDBOX_MESSAGES.noDescription);
    const orderId = method === 'sbp' ? (form.order_id ?? '') : (form.custom_order_id ?? '');
    if (method === 'sbp' && !orderId) throw new VendorError(SANDBOX_MESSAGES.noOrder);
    for (const field of ['callback_url', 'success_url'])
      if (form[field] && !isHttpUrl(form[field])) throw new VendorError(SANDBOX_MESSAGES.badUrl(field));
    const email = form.client_email ?? '';
    if (email && (email.length < 6 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)))
      throw new VendorError(SANDBOX_MESSAGES.badEmail);
    const expiresAt =
      method === 'sbp'
        ? lifetime(form.qr_lifetime, 'qr_lifetime', 60_000)
        : lifetime(form.lifetime, 'lifetime', 1000);
    const payment: SandboxPayment = {
      id: randomSalt(22),
      method,
      amount: decFormat(dec(amount), 2),
      description: form.description,
      orderId,
      callbackUrl: form.callback_url ?? '',
      successUrl: form.success_url ?? '',
      clientEmail: email,
      testing: form.testing === '1',
      state: 'PROCESSING',
      createdAt: new Date(),
      expiresAt,
      callback: null,
      silent: false,
    };
    payments.set(payment.id, payment);
    log?.info(
      { transactionId: payment.id, orderId, amount: payment.amount, method },
      'sandbox acquirer: payment created',
    );
    return payment;
  }

  /** The payment as it stands now: a PROCESSING one past its lifetime has EXPIRED. */
  function current(id: string): SandboxPayment | undefined {
    const p = payments.get(id);
    if (p && p.state === 'PROCESSING' && p.expiresAt && p.expiresAt.getTime() < Date.now())
      p.state = 'EXPIRED';
    return p;
  }

  /** One post of the signed callback; true when the shop answered 2xx. */
  async function post(p: SandboxPayment, status: NonNullable<SandboxPayment['callback']>) {
    status.attempts++;
    try {
      const res = await fetch(p.callbackUrl, {
        method: 'POST',
        body: new URLSearchParams(callbackForm(p, merchant, secret)),
        signal: AbortSignal.timeout(5000),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.ok) status.delivered = true;
      else status.error = `HTTP ${res.status}`;
    } catch (error) {
      status.error = networkReason(error);
    }
    return status.delivered;
  }

  /**
   * Posts the signed callback once now (the payer page waits for it); while the shop does not answer
   * 2xx, posts again after each pause of the schedule in the background, as a bank does.
   */
  async function notify(p: SandboxPayment) {
    if (!p.callbackUrl) return;
    const status = { attempts: 0, delivered: false, error: '', nextAt: null as Date | null };
    p.callback = status;
    const attempt = async (retry: number) => {
      status.nextAt = null;
      if (await post(p, status)) {
        log?.info({ transactionId: p.id, state: p.state }, 'sandbox acquirer: callback delivered');
        return;
      }
      const pause = schedule[retry];
      if (pause === undefined) {
        log?.warn(
          { transactionId: p.id, state: p.state, callbackUrl: p.callbackUrl, error: status.error },
          'sandbox acquirer: callback not delivered',
        );
        return;
      }
      status.nextAt = new Date(Date.now() + pause);
      const timer = setTimeout(() => {
        retries.delete(timer);
        void attempt(retry + 1);
      }, pause);
      timer.unref();
      retries.add(timer);
    };
    await attempt(0);
  }

  function transactionJson(p: SandboxPayment) {
    return {
      id: p.id,
      transaction_id: p.id,
      order_id: p.orderId,
      custom_order_id: p.method === 'card' ? p.orderId : undefined,
      amount: p.amount,
      currency: 'RUB',
      state: p.state,
      testing: p.testing ? '1' : '0',
      description: p.description,
      payment_method: p.method,
      message: p.state === 'FAILED' ? SANDBOX_MESSAGES.failed : '',
      created_datetime: p.createdAt.toISOString(),
    };
  }

  function details(p: SandboxPayment): string {
    return `<div class="row"><span class="muted">магазин</span><span>${escapeHtml(merchant)}</span></div>
<div class="row"><span class="muted">назначение</span><span>${escapeHtml(p.description)}</span></div>
<div class="row"><span class="muted">способ</span><span>${METHOD_LABELS[p.method]}</span></div>`;
  }

  function payerPage(p: SandboxPayment): string {
    const amount = escapeHtml(formatMoney(p.amount));
    const testing = p.testing ? ' <span class="badge">тестовый платёж</span>' : '';
    const head = `<div class="muted">к оплате${testing}</div><div class="amount">${amount}</div>${details(p)}`;
    if (p.state === 'PROCESSING') {
      const method =
        p.method === 'card'
          ? `<div class="fake"><label>номер карты</label><input value="${SANDBOX_TEST_CARD.number}" readonly>
<div class="pair"><div><label>срок</label><input value="${SANDBOX_TEST_CARD.expiry}" readonly></div>
<div><label>CVC</label><input value="${SANDBOX_TEST_CARD.cvc}" readonly></div></div>
<div class="note">тестовая карта: деньги не списываются</div></div>`
          : `<div class="fake">В настоящем банке здесь открылось бы приложение банка плательщика (СБП).
Здесь плательщик подтверждает или отклоняет платёж кнопкой.</div>`;
      return page(
        `Оплата ${formatMoney(p.amount)}`,
        `<div class="card">${head}${method}
<form method="post" action="/pay/${p.id}/complete"><button class="pay" type="submit">оплатить</button></form>
<form method="post" action="/pay/${p.id}/decline"><button class="decline" type="submit">отклонить</button></form>
<form method="post" action="/pay/${p.id}/complete_silently"><button class="decline" type="submit">провести, не уведомляя магазин</button></form>
<div class="note">«провести, не уведомляя магазин» — для проверки сверки: деньги приняты, а магазин узнаёт о платеже, только спросив банк</div>
<div class="note">заказ ${escapeHtml(p.orderId || '—')} · платёж ${p.id}</div></div>`,
      );
    }
    const outcome =
      p.state === 'COMPLETE'
        ? '<h1 class="ok">платёж выполнен</h1>'
        : p.state === 'FAILED'
          ? '<h1 class="fail">платёж отклонён</h1>'
          : '<h1 class="fail">время на оплату истекло</h1>';
    const back = p.successUrl
      ? `<a class="button neutral" href="${escapeHtml(p.successUrl)}">вернуться в ${PRODUCT_TITLE}</a>`
      : '';
    let delivery = '';
    if (p.callback?.delivered) delivery = '<div class="note">магазин получил уведомление о платеже</div>';
    else if (p.silent)
      delivery = `<div class="note">магазин не уведомлён (проведено без уведомления): он узнает о платеже, запросив банк</div>
<form method="post" action="/pay/${p.id}/notify"><button class="decline" type="submit">отправить уведомление</button></form>`;
    else if (p.callback)
      delivery = `<div class="note">уведомление магазину не доставлено: ${escapeHtml(p.callback.error)} (попыток: ${p.callback.attempts}${p.callback.nextAt ? `, следующая в ${p.callback.nextAt.toISOString().slice(11, 19)} UTC` : ''})</div>
<form method="post" action="/pay/${p.id}/notify"><button class="decline" type="submit">отправить уведомление ещё раз</button></form>`;
    return page(
      p.state === 'COMPLETE' ? 'Платёж выполнен' : 'Платёж не выполнен',
      `<div class="card">${outcome}<div class="amount">${amount}</div>${details(p)}
<p>можно вернуться в ${PRODUCT_TITLE}</p>${back}${delivery}
<div class="note">заказ ${escapeHtml(p.orderId || '—')} · платёж ${p.id}</div></div>`,
    );
  }

  function indexPage(): string {
    const rows = [...payments.values()]
      .reverse()
      .slice(0, 50)
      .map(
        (p) =>
          `<div class="row"><span><a href="${payerPath(p)}">${escapeHtml(p.description)}</a></span><span>${escapeHtml(formatMoney(p.amount))} · ${p.state}</span></div>`,
      )
      .join('');
    return page(
      'Песочница банка',
      `<div class="card"><h1>Платежи</h1>${rows || '<div class="muted">платежей пока нет</div>'}</div>`,
    );
  }

  const notFoundPage = () =>
    page(
      'Платёж не найден',
      `<div class="card"><h1 class="fail">платёж не найден</h1><p>Ссылка устарела или набрана с ошибкой (песочница помнит платежи до перезапуска сервиса). Можно вернуться в ${PRODUCT_TITLE} и начать оплату заново.</p></div>`,
    );

  const send = (res: ServerResponse, status: number, type: string, body: string, headers = {}) => {
    res.writeHead(status, {
      'content-type': `${type}; charset=utf-8`,
      'cache-control': 'no-store',
      ...headers,
    });
    res.end(body);
  };
  const json = (res: ServerResponse, status: number, body: unknown) =>
    send(res, status, 'application/json', JSON.stringify(body));
  const html = (res: ServerResponse, status: number, body: string) => send(res, status, 'text/html', body);

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';

    if (path.startsWith('/api/')) {
      try {
        if (method === 'POST' && path === '/api/v1/sbp_payment') {
          const p = createPayment(formOf(await readBody(req)), 'sbp');
          return json(res, 200, { status: 'ok', sbp_link: `${baseUrl}/sbp/${p.id}`, transaction_id: p.id });
        }
        if (method === 'POST' && path === '/api/v1/bill') {
          const p = createPayment(formOf(await readBody(req)), 'card');
          return json(res, 200, {
            status: 'ok',
            bill: {
              id: p.id,
              transaction_id: p.id,
              url: `${baseUrl}/pay/${p.id}`,
              amount: p.amount,
              description: p.description,
              custom_order_id: p.orderId,
              created_datetime: p.createdAt.toISOString(),
              expired_datetime: p.expiresAt?.toISOString() ?? null,
              paid: false,
            },
          });
        }
        if (method === 'GET' && path === '/api/v1/transaction') {
          const form = Object.fromEntries(url.searchParams);
          checkSigned(form);
          const p = current(form.transaction_id ?? '');
          if (!p) throw new VendorError(SANDBOX_MESSAGES.notFound, 404);
          return json(res, 200, { status: 'ok', transaction: transactionJson(p) });
        }
        throw new VendorError(SANDBOX_MESSAGES.unknownMethod, 404);
      } catch (error) {
        if (error instanceof VendorError)
          return json(res, error.status, { status: 'error', message: error.message });
        throw error;
      }
    }

    if (method === 'GET' && path === '/') return html(res, 200, indexPage());
    const view = /^\/(sbp|pay)\/([A-Za-z0-9]+)$/.exec(path);
    if (method === 'GET' && view) {
      const p = current(view[2]!);
      return p ? html(res, 200, payerPage(p)) : html(res, 404, notFoundPage());
    }
    const action = /^\/pay\/([A-Za-z0-9]+)\/(complete|complete_silently|decline|notify)$/.exec(path);
    if (method === 'POST' && action) {
      await readBody(req).catch(() => '');
      const p = current(action[1]!);
      if (!p) return html(res, 404, notFoundPage());
      if (action[2] === 'notify') {
        if (p.state === 'COMPLETE' || p.state === 'FAILED') {
          p.silent = false;
          await notify(p);
        }
      } else if (p.state === 'PROCESSING') {
        // the state changes before any await: a second press finds it final and posts nothing
        p.state = action[2] === 'decline' ? 'FAILED' : 'COMPLETE';
        p.silent = action[2] === 'complete_silently';
        log?.info(
          { transactionId: p.id, state: p.state, silent: p.silent },
          'sandbox acquirer: payer decided',
        );
        if (!p.silent) await notify(p);
      }
      return send(res, 303, 'text/plain', '', { location: payerPath(p) });
    }
    return html(res, 404, notFoundPage());
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const status = error instanceof VendorError ? error.status : 500;
      log?.error({ err: error }, 'sandbox acquirer: request failed');
      if (!res.headersSent) json(res, status, { status: 'error', message: String((error as Error).message) });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.publicHost ?? (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);
  baseUrl = shownHost.includes('://')
    ? shownHost.replace(/\/+$/, '')
    : `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;

  return {
    url: baseUrl,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of retries) clearTimeout(timer);
        retries.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * A form as the bank signs it (tests build callbacks with it): the fields stringified, `unix_timestamp`
 * and `salt` added where absent, `signature` last.
 */
export const signedForm = (fields: FormFields, secret: string): Record<string, string> =>
  signFields(fields, secret);
