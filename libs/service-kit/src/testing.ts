import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { Identity } from '@caravan/contracts';
import { IDENTITY_HEADER } from '@caravan/contracts';
import { DEV_IDENTITY_SECRET } from './config';
import { signIdentity } from './identity';

/** Test helpers: an identity as the gateway would sign it, and a call straight to a service. */
export const identityOf = (partial: Partial<Identity> & Pick<Identity, 'user_id' | 'roles'>): Identity => ({
  fullname: `user ${partial.user_id}`,
  state: 'working',
  client_ids: [],
  operator_ids: [],
  ...partial,
});

export async function callService(
  url: string,
  method: string,
  params: unknown,
  identity: Identity | null,
  secret = process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET,
): Promise<{ status: number; body: { ok: boolean; result: unknown; message?: string } }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (identity) headers[IDENTITY_HEADER] = signIdentity(identity, secret);
  const res = await fetch(`${url}/rpc`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ method, params }),
  });
  return { status: res.status, body: (await res.json()) as never };
}

/** Waits until `check` returns a truthy value, polling; fails with `what` after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 30000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A port nothing listens on right now (for a child process that must keep its port across restarts). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });

/**
 * A service as its own process, as `npm start` runs it (the built `main`, e.g.
 * 'svc-carriers/dist/src/main.js' from the repository root): started and awaited until /readyz answers,
 * killed with SIGKILL at the worst moment, started again on the same port, stopped with SIGTERM.
 */
export class ServiceProcess {
  child: ChildProcess | null = null;

  constructor(
    readonly main: string,
    readonly port: number,
    readonly env: Record<string, string | undefined>,
    readonly cwd = process.cwd(),
  ) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** True when the child ended before it was ready (e.g. its port was taken meanwhile). */
  exitedEarly = false;

  async start(timeoutMs = 60_000) {
    this.exitedEarly = false;
    const child = spawn(process.execPath, [this.main], {
      cwd: this.cwd,
      env: { ...process.env, ...this.env, PORT: String(this.port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.child = child;
    await eventually(
      `${this.main} on :${this.port} ready`,
      async () => {
        // an answer counts only while our child lives (another process may hold the port)
        if (child.exitCode !== null || child.signalCode !== null) {
          this.exitedEarly = true;
          throw new Error(`${this.main} on :${this.port} exited before it was ready`);
        }
        return fetch(`${this.url}/readyz`).then(
          (r) => r.ok,
          () => false,
        );
      },
      timeoutMs,
    );
  }

  /** SIGKILL: no stop hook runs, open transactions die with the connections. */
  kill() {
    return this.end('SIGKILL');
  }

  stop() {
    return this.end('SIGTERM');
  }

  private end(signal: NodeJS.Signals) {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    return exited;
  }
}

/**
 * A service process started on a free port; when it ends before it is ready (another process took the
 * port between freePort and its listen), once more on another port.
 */
export async function startOnFreePort(
  main: string,
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
  attempts = 3,
): Promise<ServiceProcess> {
  for (let attempt = 1; ; attempt++) {
    const service = new ServiceProcess(main, await freePort(), env, cwd);
    try {
      await service.start();
      return service;
    } catch (error) {
      if (attempt >= attempts || !service.exitedEarly) throw error;
    }
  }
}
