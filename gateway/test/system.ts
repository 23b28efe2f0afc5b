import { startService, type RunningService } from '@caravan/service-kit';
import { carriersService } from '../../svc-carriers/src/app';
import { ordersService } from '../../svc-orders/src/app';
import { paymentsService } from '../../svc-payments/src/app';
import { startGateway } from '../src/app';
import { startMailCatcher } from '../../deploy/local/mail-catcher';

export type System = {
  url: string;
  services: RunningService[];
  gateway: Awaited<ReturnType<typeof startGateway>>;
  mail: Awaited<ReturnType<typeof startMailCatcher>>;
  startAnotherGateway(): Promise<Awaited<ReturnType<typeof startGateway>>>;
  stop(): Promise<void>;
};

/** The whole backend in one process, on ephemeral ports, with demo data: what the gateway tests drive. */
export async function startSystem(): Promise<System> {
  if (!process.env.SYSTEM_DATABASE_URL)
    throw new Error('SYSTEM_DATABASE_URL is set by the integration global setup');
  const mail = await startMailCatcher({ smtpPort: 0, httpPort: 0 });
  // the gateway's account mail and svc-orders' notification mail reach the same catcher
  const env = {
    ...process.env,
    DATABASE_URL: process.env.SYSTEM_DATABASE_URL,
    // its own database, so its own topics and consumer groups: the service tests' svc-orders must never take
    // (or be handed) this system's events
    KAFKA_TOPIC_PREFIX: `${process.env.KAFKA_TOPIC_PREFIX ?? ''}system-`,
    SEED_DEMO: 'true',
    PORT: '0',
    SMTP_URL: mail.smtpUrl,
  };
  const services = await Promise.all([
    startService(ordersService(env)),
    startService(paymentsService(env)),
    startService(carriersService(env)),
  ]);
  const [orders, payments, carriers] = services as [RunningService, RunningService, RunningService];
  const gateway = await startGateway({
    ...env,
    SERVICE_URL_ORDERS: orders.url,
    SERVICE_URL_PAYMENTS: payments.url,
    SERVICE_URL_CARRIERS: carriers.url,
    LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
    LOGIN_MAX_FAILURES_PER_ACCOUNT_FROM_STRANGERS: '5',
    // the tests play callers at several addresses through X-Forwarded-For from the loopback "proxy"
    TRUSTED_PROXIES: 'loopback',
  });
  await gateway.busReady;
  const extraGateways: Awaited<ReturnType<typeof startGateway>>[] = [];
  return {
    url: gateway.url,
    services,
    gateway,
    mail,
    /** Another gateway instance on the same database and Kafka (default config: no trusted proxies). */
    async startAnotherGateway() {
      const another = await startGateway({
        ...env,
        SERVICE_URL_ORDERS: orders.url,
        SERVICE_URL_PAYMENTS: payments.url,
        SERVICE_URL_CARRIERS: carriers.url,
      });
      extraGateways.push(another);
      await another.busReady;
      return another;
    },
    async stop() {
      await Promise.all(extraGateways.map((g) => g.stop()));
      await gateway.stop();
      await mail.close();
      await Promise.all(services.map((s) => s.stop()));
    },
  };
}

export async function login(url: string, email: string, password: string) {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: email, password }),
  });
  return (await res.json()) as { ok: boolean; message?: string; result: { token: string } };
}

export async function call(url: string, token: string | null, method: string, params: unknown = {}) {
  const res = await fetch(`${url}/api/call_pg_func`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'auth-token': token } : {}) },
    body: JSON.stringify({ method, params }),
  });
  return { status: res.status, body: (await res.json()) as { ok: boolean; result: any; message?: string } }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Reads server-sent events of one browser-like connection into a list. */
export function openSse(url: string, token: string, query = '') {
  const events: { event: string; data: any }[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  const state = { ended: false };
  const controller = new AbortController();
  const ready = fetch(`${url}/api/sse?authToken=${encodeURIComponent(token)}${query}`, {
    signal: controller.signal,
  }).then(async (res) => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) {
            state.ended = true;
            return;
          }
          buffer += decoder.decode(value, { stream: true });
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data) events.push({ event, data: JSON.parse(data) });
          }
        }
      } catch {
        /* aborted */
      }
    })();
    return res.status;
  });
  return { events, ready, state, close: () => controller.abort() };
}
