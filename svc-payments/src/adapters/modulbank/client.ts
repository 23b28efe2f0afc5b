import { dec, decFormat } from '@caravan/contracts';
import {
  AcquirerError,
  type Acquirer,
  type AcquirerCallback,
  type AcquirerPaymentRequest,
  type AcquirerTransaction,
} from '../acquirer';
import { signFields, verifySignature, type FormFields } from './signature';

export type ModulbankClientOptions = {
  /** 'https://pay.modulbank.ru', or the built-in sandbox's url */
  baseUrl: string;
  merchant: string;
  secret: string;
  /** the shop's test mode: every payment is sent with testing=1 (else only those asked as tests) */
  testing?: boolean;
  /** how long one call may take; 10 s */
  timeoutMs?: number;
  /** how long an SBP link may be paid, minutes (qr_lifetime); 30 */
  sbpLifetimeMinutes?: number;
  /** how long a card bill may be paid, seconds (lifetime); 1 hour */
  billLifetimeSeconds?: number;
};

/** A transaction as GET /api/v1/transaction/ tells it. */
export type ModulbankTransaction = AcquirerTransaction;

export const ACQUIRER_MESSAGES = {
  unreachable: (reason: string) => `нет связи с банком (${reason})`,
  timeout: (seconds: number) => `банк не ответил за ${String(seconds).replace('.', ',')} с`,
  refused: (message: string) => `банк отклонил запрос: ${message}`,
  httpError: (status: number) => `банк ответил ошибкой HTTP ${status}`,
  badReply: 'банк прислал непонятный ответ',
  noLink: 'банк не прислал ссылку на оплату',
  badAmount: (amount: string) => `неверная сумма платежа: ${amount}`,
} as const;

type Reply = Record<string, unknown>;

const str = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/** A plain decimal → '1007.05'; null when it is not one. */
function money(value: string): string | null {
  return /^\d+(\.\d+)?$/.test(value.trim()) ? decFormat(dec(value), 2) : null;
}

/** Why fetch failed, in a few words: the OS's code (ECONNREFUSED, ENOTFOUND…), else the innermost message. */
export function networkReason(error: unknown): string {
  let reason = error instanceof Error ? error.message : String(error);
  let cause: unknown = error;
  for (let depth = 0; cause && typeof cause === 'object' && depth < 5; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string') return code;
    if (typeof message === 'string' && message) reason = message;
    cause = (cause as { cause?: unknown }).cause;
  }
  return reason;
}

/**
 * Modulbank internet acquiring over HTTP (vendor-apis §2a): form-urlencoded calls signed with the
 * shop's secret, answers `{status:"ok", …}` or `{status:"error", message}`. Every failure is an
 * AcquirerError whose message a user may read. Works against pay.modulbank.ru and the sandbox alike.
 */
export class ModulbankClient implements Acquirer {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: ModulbankClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  private signed(fields: FormFields): Record<string, string> {
    const present = Object.fromEntries(
      Object.entries({ ...fields, merchant: this.options.merchant }).filter(
        ([, v]) => v !== undefined && v !== null && v !== '',
      ),
    );
    return signFields(present, this.options.secret);
  }

  private async call(method: 'GET' | 'POST', path: string, fields: FormFields): Promise<Reply> {
    const form = new URLSearchParams(this.signed(fields));
    const url = `${this.baseUrl}${path}${method === 'GET' ? `?${form}` : ''}`;
    let status: number;
    let body: string;
    try {
      const res = await fetch(url, {
        method,
        headers: { accept: 'application/json' },
        body: method === 'POST' ? form : undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = res.status;
      body = await res.text();
    } catch (error) {
      const name = (error as { name?: unknown }).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new AcquirerError(ACQUIRER_MESSAGES.timeout(this.timeoutMs / 1000));
      throw new AcquirerError(ACQUIRER_MESSAGES.unreachable(networkReason(error)));
    }
    let reply: unknown;
    try {
      reply = JSON.parse(body);
    } catch {
      reply = null;
    }
    const ok = status >= 200 && status < 300;
    if (reply && typeof reply === 'object' && !Array.isArray(reply)) {
      const r = reply as Reply;
      const message = str(r.message) || str(r.error) || str(r.code);
      if (ok && (r.status === 'ok' || (r.status === undefined && !message))) return r;
      if (r.status === 'error' || message)
        throw new AcquirerError(ACQUIRER_MESSAGES.refused(message || `HTTP ${status}`), status === 404);
    }
    if (!ok) throw new AcquirerError(ACQUIRER_MESSAGES.httpError(status));
    throw new AcquirerError(ACQUIRER_MESSAGES.badReply);
  }

  private amount(req: AcquirerPaymentRequest): string {
    const amount = money(req.amount);
    if (!amount || amount === '0.00') throw new AcquirerError(ACQUIRER_MESSAGES.badAmount(req.amount));
    return amount;
  }

  private testing(req: AcquirerPaymentRequest): string {
    return this.options.testing || req.testing ? '1' : '0';
  }

  /** POST /api/v1/sbp_payment → the SBP link (qr.nspk.ru in production) the payer opens or scans. */
  async createSbpPayment(req: AcquirerPaymentRequest) {
    const reply = await this.call('POST', '/api/v1/sbp_payment', {
      amount: this.amount(req),
      order_id: req.orderId,
      description: req.description,
      callback_url: req.callbackUrl,
      callback_on_failure: '1',
      qr_lifetime: this.options.sbpLifetimeMinutes ?? 30,
      client_email: req.clientEmail && req.clientEmail.length >= 6 ? req.clientEmail : undefined,
      testing: this.testing(req),
    });
    const sbpLink = str(reply.sbp_link);
    if (!sbpLink) throw new AcquirerError(ACQUIRER_MESSAGES.noLink);
    return { sbpLink, transactionId: str(reply.transaction_id) };
  }

  /** POST /api/v1/bill/ → the card bill's page the payer opens in a new tab. */
  async createBill(req: AcquirerPaymentRequest) {
    const reply = await this.call('POST', '/api/v1/bill/', {
      amount: this.amount(req),
      custom_order_id: req.orderId,
      description: req.description,
      callback_url: req.callbackUrl,
      callback_on_failure: '1',
      success_url: req.successUrl,
      show_payment_methods: '["card"]',
      lifetime: this.options.billLifetimeSeconds ?? 3600,
      client_email: req.clientEmail,
      testing: this.testing(req),
    });
    const bill = (reply.bill && typeof reply.bill === 'object' ? reply.bill : {}) as Reply;
    const url = str(bill.url);
    if (!url) throw new AcquirerError(ACQUIRER_MESSAGES.noLink);
    return { url, transactionId: str(bill.transaction_id) || str(bill.id) };
  }

  /** GET /api/v1/transaction/: the bank's own word on a payment (for a check when no callback came). */
  async getTransaction(transactionId: string): Promise<ModulbankTransaction> {
    const reply = await this.call('GET', '/api/v1/transaction/', { transaction_id: transactionId });
    const t = (
      reply.transaction && typeof reply.transaction === 'object' ? reply.transaction : null
    ) as Reply | null;
    const amount = t ? money(str(t.amount)) : null;
    if (!t || !amount) throw new AcquirerError(ACQUIRER_MESSAGES.badReply);
    return {
      transactionId: str(t.transaction_id) || str(t.id) || transactionId,
      orderId: str(t.custom_order_id) || str(t.order_id),
      state: str(t.state),
      amount,
      currency: str(t.currency) || 'RUB',
      testing: str(t.testing) === '1' || t.testing === true,
      message: str(t.message),
    };
  }

  /**
   * The callback form the bank posted to callback_url: genuine when it names this shop and its
   * signature checks with the shop's secret; then its fields as svc-payments acts on them (amount with
   * two decimals). null for a forged, altered or malformed form.
   */
  verifyCallback(form: Record<string, string>): AcquirerCallback | null {
    if (!form || typeof form !== 'object') return null;
    if (Object.values(form).some((v) => typeof v !== 'string')) return null;
    if (form.merchant !== this.options.merchant) return null;
    if (!verifySignature(form, this.options.secret)) return null;
    const orderId = form.custom_order_id || form.order_id || '';
    const amount = money(form.amount ?? '');
    const state = form.state ?? '';
    if (!orderId || !amount || !state) return null;
    return {
      orderId,
      transactionId: form.transaction_id ?? '',
      amount,
      currency: form.currency || 'RUB',
      state,
      testing: form.testing === '1',
      message: form.message || form.error || '',
    };
  }
}
