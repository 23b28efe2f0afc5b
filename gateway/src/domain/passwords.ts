import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt with the OWASP parameters (N=2^17, r=8, p=1), stored as `scrypt$N$r$p$salt$hash`. */
const PARAMS = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;

const derive = (password: string, salt: Buffer, o: { N: number; r: number; p: number }) =>
  new Promise<Buffer>((resolve, reject) => {
    const options: ScryptOptions = { ...o, maxmem: 256 * 1024 * 1024 };
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * Every scrypt of the gateway (login checks, registration and recovery hashes) goes through one gate:
 * at most `concurrency` at a time and `queue` waiting. scrypt runs on Node's small thread pool, which
 * gzip and the file system share: a burst of logins or sign-ups takes part of it, never all of it, and
 * past the queue the caller is told to come back later.
 */
export class ScryptGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency = 2,
    private readonly queue = 40,
  ) {}

  async run<T>(work: () => Promise<T>, tooBusy: () => Error): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queue) throw tooBusy();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  hash(password: string, tooBusy: () => Error): Promise<string> {
    return this.run(() => hashPassword(password), tooBusy);
  }
}

/** A fixed hash to verify against when the email is unknown, so both paths take the same time. */
export const DUMMY_HASH_PROMISE = hashPassword('caravan-timing-equaliser');
