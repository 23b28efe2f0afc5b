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

/**
 * Test ports come from a slice of their own per jest worker, below the kernel's ephemeral range
 * (32768–60999 here): a port probed free stays free until our child listens, since no socket that asks
 * the kernel for any port (`listen(0)`, an outgoing connection) is ever given one from there, and the
 * other worker allocates from its own slice. Ephemeral probing raced with the other worker's services.
 */
const PORT_SLICE = 1000;
const PORT_SLICES_BASE = 21000;
const portSlice = () => {
  const worker = Math.max(1, Number(process.env.JEST_WORKER_ID ?? 1));
  return PORT_SLICES_BASE + ((worker - 1) % 8) * PORT_SLICE;
};
/** Where this module starts in its slice: random, so test files run one after another in a worker
 * do not try the ports an earlier file's processes may still be leaving. */
let nextInSlice = Math.floor(Math.random() * PORT_SLICE);

const listensFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A port nothing listens on right now and no other allocation of this worker will hand out again (for a
 * child process, or one that must keep its port across restarts). */
export async function freePort() {
  const base = portSlice();
  for (let tried = 0; tried < PORT_SLICE; tried++) {
    const port = base + (nextInSlice++ % PORT_SLICE);
    if (await listensFree(port)) return port;
  }
  throw new Error(`no free port in ${base}–${base + PORT_SLICE - 1}`);
}

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
