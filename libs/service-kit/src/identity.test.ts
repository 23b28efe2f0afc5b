import { signIdentity, verifyIdentity } from './identity';
import { identityOf } from './testing';

const secret = 'a-test-secret-that-is-long-enough-0123456789';
const client = identityOf({ user_id: 7, roles: ['client'], client_ids: [3] });

describe('identity token', () => {
  it('round-trips the identity the gateway signed', () => {
    expect(verifyIdentity(signIdentity(client, secret), secret)).toEqual(client);
  });

  it('refuses a token signed with another secret', () => {
    expect(
      verifyIdentity(signIdentity(client, 'another-secret-that-is-long-enough-xxxxxxx'), secret),
    ).toBeNull();
  });

  it('refuses a token whose claims were changed after signing', () => {
    const [h, , s] = signIdentity(client, secret).split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...client, roles: ['admin'], iss: 'caravan-gateway', exp: 9e9 }),
    ).toString('base64url');
    expect(verifyIdentity(`${h}.${forged}.${s}`, secret)).toBeNull();
  });

  it('refuses an expired token, an unsigned one and garbage', () => {
    expect(verifyIdentity(signIdentity(client, secret, -1), secret)).toBeNull();
    const unsigned = signIdentity(client, secret).split('.').slice(0, 2).join('.') + '.';
    expect(verifyIdentity(unsigned, secret)).toBeNull();
    expect(verifyIdentity('a.b.c', secret)).toBeNull();
    expect(verifyIdentity(undefined, secret)).toBeNull();
  });
});
