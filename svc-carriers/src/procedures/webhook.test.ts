import { DEV_WEBHOOK_SECRET, webhookSecret } from './webhook';

describe("the secret CDEK's webhooks carry", () => {
  it('is the configured one, or the development one outside production', () => {
    expect(webhookSecret({ CARRIERS_WEBHOOK_SECRET: 'k3y' })).toBe('k3y');
    expect(webhookSecret({})).toBe(DEV_WEBHOOK_SECRET);
  });

  it('stops a production service that has none (the development one is public)', () => {
    expect(() => webhookSecret({ NODE_ENV: 'production' })).toThrow(/CARRIERS_WEBHOOK_SECRET/);
    expect(webhookSecret({ NODE_ENV: 'production', CARRIERS_WEBHOOK_SECRET: 'k3y' })).toBe('k3y');
  });
});
