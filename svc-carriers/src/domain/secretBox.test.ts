import { randomBytes } from 'node:crypto';
import { CARRIER_MESSAGES } from '@caravan/contracts';
import { DEVELOPMENT_SECRET_KEY, isSealed, seal, secretKeyFrom, unseal } from './secretBox';

const key = randomBytes(32);

describe('secretBox', () => {
  it('seals a token into text that does not contain it and opens it back', () => {
    const sealed = seal('PjLZkKBHEiLK3YsjtNrt3TGNG0ahs3kG', key);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('PjLZkKBHEiLK3YsjtNrt3TGNG0ahs3kG');
    expect(unseal(sealed, key)).toBe('PjLZkKBHEiLK3YsjtNrt3TGNG0ahs3kG');
  });

  it('seals the same token differently each time (a fresh nonce)', () => {
    expect(seal('token', key)).not.toBe(seal('token', key));
  });

  it('refuses to open under another key or after tampering', () => {
    const sealed = seal('token', key);
    expect(() => unseal(sealed, randomBytes(32))).toThrow();
    const raw = Buffer.from(sealed.slice('enc:v1:'.length), 'base64');
    raw.writeUInt8(raw.readUInt8(raw.length - 1) ^ 1, raw.length - 1);
    expect(() => unseal(`enc:v1:${raw.toString('base64')}`, key)).toThrow();
  });

  it('reads a plain value written before encryption as it is', () => {
    expect(unseal('sandbox-pec-token', key)).toBe('sandbox-pec-token');
  });

  it('takes a 32-byte key in hex or base64 and refuses any other length', () => {
    expect(secretKeyFrom({ CARRIERS_SECRET_KEY: key.toString('hex') })).toEqual(key);
    expect(secretKeyFrom({ CARRIERS_SECRET_KEY: key.toString('base64') })).toEqual(key);
    expect(() => secretKeyFrom({ CARRIERS_SECRET_KEY: randomBytes(16).toString('hex') })).toThrow(/32/);
  });

  it('uses the development key outside production and refuses it in production', () => {
    expect(secretKeyFrom({})).toEqual(Buffer.from(DEVELOPMENT_SECRET_KEY, 'base64'));
    expect(() => secretKeyFrom({ NODE_ENV: 'production' })).toThrow(
      CARRIER_MESSAGES.developmentKeyInProduction,
    );
  });
});
