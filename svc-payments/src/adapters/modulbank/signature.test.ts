import { randomSalt, sign, signatureBase, signFields, verifySignature } from './signature';

/** Worked by hand: base64 of each value (`printf %s v | base64`), then sha1 twice (`sha1sum`). */
const FIELDS = {
  merchant: 'm1',
  amount: '100.00',
  order_id: '42',
  description: 'Пополнение',
  testing: '1',
  unix_timestamp: '1700000000',
  salt: 'abc',
  client_email: '',
  signature: 'left out',
};
const BASE =
  'amount=MTAwLjAw&description=0J/QvtC/0L7Qu9C90LXQvdC40LU=&merchant=bTE=&order_id=NDI=' +
  '&salt=YWJj&testing=MQ==&unix_timestamp=MTcwMDAwMDAwMA==';
const SIGNATURE = 'ae182d5037de449d6c4aba52b27994b4a0f4be31';

describe('Modulbank signature', () => {
  it('signs the sorted, base64-encoded, non-empty fields but signature, sha1(secret + sha1(secret + data))', () => {
    expect(signatureBase(FIELDS)).toBe(BASE);
    expect(sign(FIELDS, 'secret')).toBe(SIGNATURE);
  });

  it('accepts the genuine signature, in either case', () => {
    expect(verifySignature({ ...FIELDS, signature: SIGNATURE }, 'secret')).toBe(true);
    expect(verifySignature({ ...FIELDS, signature: SIGNATURE.toUpperCase() }, 'secret')).toBe(true);
  });

  it('refuses a changed value, an added field, another secret, a changed or malformed signature', () => {
    const signed = { ...FIELDS, signature: SIGNATURE };
    expect(verifySignature({ ...signed, amount: '1000.00' }, 'secret')).toBe(false);
    expect(verifySignature({ ...signed, state: 'COMPLETE' }, 'secret')).toBe(false);
    expect(verifySignature(signed, 'secret2')).toBe(false);
    expect(verifySignature({ ...signed, signature: `${SIGNATURE.slice(0, 39)}0` }, 'secret')).toBe(false);
    expect(verifySignature({ ...signed, signature: SIGNATURE.slice(1) }, 'secret')).toBe(false);
    expect(verifySignature({ ...signed, signature: '' }, 'secret')).toBe(false);
    const { signature: _, ...unsigned } = signed;
    expect(verifySignature(unsigned, 'secret')).toBe(false);
  });

  it('an empty field does not count, so adding one keeps the signature', () => {
    expect(verifySignature({ ...FIELDS, signature: SIGNATURE, client_phone: '' }, 'secret')).toBe(true);
  });

  it('signFields adds unix_timestamp and a 32-character salt, and signs what it sends', () => {
    const form = signFields({ merchant: 'm1', amount: '5.00', testing: true, meta: undefined }, 'secret');
    expect(form.testing).toBe('1');
    expect(form).not.toHaveProperty('meta');
    expect(form.salt).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(Math.abs(Number(form.unix_timestamp) - Date.now() / 1000)).toBeLessThan(5);
    expect(verifySignature(form, 'secret')).toBe(true);
    expect(randomSalt()).not.toBe(randomSalt());
  });
});
