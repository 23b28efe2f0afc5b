import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { CARRIER_MESSAGES } from '@caravan/contracts';

/**
 * Secrets at rest (carrier API tokens): AES-256-GCM under CARRIERS_SECRET_KEY (32 bytes, base64 or hex).
 * A sealed value reads `enc:v1:<base64 of iv | tag | ciphertext>`; anything else is a plain value
 * (written before migration 011).
 */
const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The development key: fine on a laptop, refused under NODE_ENV=production. */
export const DEVELOPMENT_SECRET_KEY = 'Y2FyYXZhbi1kZXZlbG9wbWVudC1rZXktMzItYnl0ZXM=';

function decodeKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('CARRIERS_SECRET_KEY: нужен ключ из 32 байт (base64 или hex)');
  return key;
}

/** The key the environment names; the development key when none, which production refuses. */
export function secretKeyFrom(env: Record<string, string | undefined>): Buffer {
  const given = env.CARRIERS_SECRET_KEY?.trim();
  const development = decodeKey(DEVELOPMENT_SECRET_KEY);
  const key = given ? decodeKey(given) : development;
  if (env.NODE_ENV === 'production' && key.equals(development))
    throw new Error(CARRIER_MESSAGES.developmentKeyInProduction);
  return key;
}

let configured: Buffer | null = null;

/** Fixes the key of this process (the service's configure); until then the process environment's. */
export function useSecretKey(key: Buffer) {
  configured = key;
}

const currentKey = () => configured ?? secretKeyFrom(process.env);

export const isSealed = (value: string) => value.startsWith(PREFIX);

export function seal(plain: string, key: Buffer = currentKey()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** The plain value of a sealed one (a plain one as it is); throws when the key does not open it. */
export function unseal(value: string, key: Buffer = currentKey()): string {
  if (!isSealed(value)) return value;
  const raw = Buffer.from(value.slice(PREFIX.length), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}
