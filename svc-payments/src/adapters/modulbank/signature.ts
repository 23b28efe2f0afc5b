import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * The Modulbank signature (vendor-apis §2a, as the bank's own plugins compute it): every field but
 * `signature`, empty values dropped, keys sorted, joined as `k=base64(v)` with `&`, then
 * `sha1(secret + sha1(secret + data))` in lowercase hex. Requests to the bank and its callbacks are
 * signed the same way.
 */
export type FormFields = Record<string, string | number | boolean | null | undefined>;

const text = (value: FormFields[string]): string =>
  value === null || value === undefined
    ? ''
    : typeof value === 'boolean'
      ? value
        ? '1'
        : '0'
      : String(value);

/** The signed text: `amount=MTAw&merchant=...`, keys in byte order, empty values and `signature` left out. */
export function signatureBase(fields: FormFields): string {
  return Object.keys(fields)
    .filter((key) => key !== 'signature' && text(fields[key]) !== '')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((key) => `${key}=${Buffer.from(text(fields[key]), 'utf8').toString('base64')}`)
    .join('&');
}

const sha1 = (data: string) => createHash('sha1').update(data, 'utf8').digest('hex');

/** The signature of these fields with this secret: 40 lowercase hex digits. */
export const sign = (fields: FormFields, secret: string): string =>
  sha1(secret + sha1(secret + signatureBase(fields)));

/** Does `fields.signature` sign the other fields with this secret? Compared in constant time. */
export function verifySignature(fields: FormFields, secret: string): boolean {
  const given = text(fields.signature).toLowerCase();
  if (!/^[0-9a-f]{40}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(given, 'ascii'), Buffer.from(sign(fields, secret), 'ascii'));
}

const SALT_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A request's `salt` (32 random letters and digits) or any random id of that alphabet. */
export const randomSalt = (length = 32): string =>
  Array.from({ length }, () => SALT_ALPHABET[randomInt(SALT_ALPHABET.length)]).join('');

/**
 * The form to send: the fields stringified (true → '1'; null and undefined left out), `unix_timestamp`
 * and `salt` added where absent, then `signature`.
 */
export function signFields(fields: FormFields, secret: string): Record<string, string> {
  const all: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields))
    if (key !== 'signature' && value !== null && value !== undefined) all[key] = text(value);
  all.unix_timestamp ||= String(Math.floor(Date.now() / 1000));
  all.salt ||= randomSalt();
  return { ...all, signature: sign(all, secret) };
}
