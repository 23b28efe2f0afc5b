import { createHmac, timingSafeEqual } from 'node:crypto';
import { Identity } from '@caravan/contracts';

/**
 * The identity token: a short-lived HS256 JWT the gateway signs for every call it forwards.
 * Services trust nothing else about the caller.
 */
const ISSUER = 'caravan-gateway';
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
export const IDENTITY_TTL_SECONDS = 60;

const sign = (input: string, secret: string) =>
  createHmac('sha256', secret).update(input).digest('base64url');

export function signIdentity(identity: Identity, secret: string, ttlSeconds = IDENTITY_TTL_SECONDS): string {
  const now = Math.floor(Date.now() / 1000);
  const claims = { ...identity, iss: ISSUER, iat: now, exp: now + ttlSeconds };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${HEADER}.${payload}.${sign(`${HEADER}.${payload}`, secret)}`;
}

/** The identity in a token, or null when it is malformed, forged, expired or not ours. */
export function verifyIdentity(token: string | undefined, secret: string): Identity | null {
  if (!token) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  if (header !== HEADER) return null;
  const expected = Buffer.from(sign(`${header}.${payload}`, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let claims: { iss?: unknown; exp?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (claims.iss !== ISSUER || typeof claims.exp !== 'number' || claims.exp < Date.now() / 1000) return null;
  const parsed = Identity.safeParse(claims);
  return parsed.success ? parsed.data : null;
}
