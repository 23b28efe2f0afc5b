import { CARRIER_MESSAGES, ENTITY_TOPICS } from '@caravan/contracts';
import { callService, identityOf, type RunningService } from '@caravan/service-kit';
import { randomBytes } from 'node:crypto';
import { credentialsOf, sealStoredTokens } from '../src/domain/credentials';
import { DEVELOPMENT_SECRET_KEY, secretKeyFrom } from '../src/domain/secretBox';
import { operatorWithKey, startCarriers } from './syncSupport';

/**
 * Carrier tokens at rest (ADR 0020): stored encrypted, never shown back (the owner and admins see '***'),
 * invisible to clients and other operators; writing '***' back keeps the token, '' clears it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
type Reply = { ok: boolean; result: Any; message?: string };

const admin = identityOf({ user_id: 1, roles: ['admin'] });
const SECRET = 'cdek-client-secret-42';
let svc: RunningService;
let operatorId: number;
let otherOperatorId: number;
const owner = () => identityOf({ user_id: 91, roles: ['operator'], operator_ids: [operatorId] });
const otherOperator = () => identityOf({ user_id: 92, roles: ['operator'], operator_ids: [otherOperatorId] });
const client = identityOf({ user_id: 93, roles: ['client'], client_ids: [9301] });

const call = async (method: string, params: unknown, who = admin) =>
  (await callService(svc.url, method, params, who)).body as Reply;
const cdekEntry = (access_token: string, client_id = 'cdek-account') => ({
  type: 'cdek',
  api_data: { client_id, access_token },
  recipient_cost_commission: '0',
});
const storedCdek = async (id: number) => {
  const row = (await svc.db('operator').where({ id }).first('transport_company_data')) as {
    transport_company_data: Array<{ type: string; api_data: { client_id: string; access_token: string } }>;
  };
  return row.transport_company_data.find((d) => d.type === 'cdek')!.api_data;
};

beforeAll(async () => {
  svc = await startCarriers('credentials');
  const created = await call('operator_update', {
    id: -1,
    title: 'Восточный экспресс (ключи)',
    transport_company_data: [cdekEntry(SECRET)],
  });
  if (!created.ok) throw new Error(created.message);
  operatorId = created.result.id;
  otherOperatorId = (await call('operator_update', { id: -1, title: 'Шёлковый путь (ключи)' })).result.id;
});
afterAll(async () => {
  await svc?.stop();
});

describe('a token at rest', () => {
  it('is stored encrypted and opens to the service alone', async () => {
    const stored = await storedCdek(operatorId);
    expect(stored.access_token).toMatch(/^enc:v1:/);
    expect(stored.access_token).not.toContain(SECRET);
    expect(await credentialsOf(svc.db, operatorId, 'cdek')).toEqual({
      client_id: 'cdek-account',
      access_token: SECRET,
    });
  });

  it('leaves no plain copy in the history or the published event', async () => {
    const history = await svc
      .db('history')
      .where({ table_name: 'operator' })
      .whereRaw('(cast(new_value as text) like ? or cast(old_value as text) like ?)', [
        `%${SECRET}%`,
        `%${SECRET}%`,
      ]);
    expect(history).toEqual([]);
    const events = (await svc
      .db('outbox')
      .where({ topic: ENTITY_TOPICS.operator, key: String(operatorId) })
      .select('event')) as Array<{ event: Any }>;
    expect(events.length).toBeGreaterThan(0);
    for (const { event } of events) {
      expect(JSON.stringify(event)).not.toContain(SECRET);
      expect(event.data.row.transport_company_data[0].api_data.access_token).toBe('***');
    }
  });

  it('plain tokens stored before migration 011 get sealed and still open', async () => {
    const legacy = await operatorWithKey(svc, 'plain-pec-key');
    expect(
      (await svc.db('operator').where({ id: legacy }).first()).transport_company_data[0].api_data
        .access_token,
    ).toBe('plain-pec-key');
    await sealStoredTokens(svc.db);
    const row = await svc.db('operator').where({ id: legacy }).first();
    expect(row.transport_company_data[0].api_data.access_token).toMatch(/^enc:v1:/);
    expect((await credentialsOf(svc.db, legacy, 'pec'))?.access_token).toBe('plain-pec-key');
  });
});

describe('who sees the carriers data', () => {
  it('the owning operator and the admin see the account and *** for the token', async () => {
    for (const who of [owner(), admin]) {
      const reply = await call('operator_get_by_id', { id: operatorId }, who);
      expect(reply.ok).toBe(true);
      expect(reply.result.transport_company_data).toEqual([cdekEntry('***')]);
    }
  });

  it('a client sees the operator without its carriers data', async () => {
    const reply = await call('operator_get_by_id', { id: operatorId }, client);
    expect(reply.ok).toBe(true);
    expect(reply.result.title).toBe('Восточный экспресс (ключи)');
    expect(reply.result).not.toHaveProperty('transport_company_data');
    const list = await call('operator_list', { per_page: 100 }, client);
    expect(JSON.stringify(list)).not.toContain('cdek-account');
  });

  it('another operator does not reach the operator at all', async () => {
    const reply = await call('operator_get_by_id', { id: operatorId }, otherOperator());
    expect(reply.ok).toBe(false);
    expect(JSON.stringify(reply)).not.toContain('cdek-account');
  });
});

describe('writing the carriers data back', () => {
  it("'***' keeps the stored token while the account changes", async () => {
    const reply = await call(
      'operator_update',
      { id: operatorId, transport_company_data: [cdekEntry('***', 'cdek-account-2')] },
      owner(),
    );
    expect(reply.ok).toBe(true);
    expect(reply.result.transport_company_data).toEqual([cdekEntry('***', 'cdek-account-2')]);
    expect(await credentialsOf(svc.db, operatorId, 'cdek')).toEqual({
      client_id: 'cdek-account-2',
      access_token: SECRET,
    });
  });

  it('a new token replaces it, sealed; an empty one clears it', async () => {
    await call(
      'operator_update',
      { id: operatorId, transport_company_data: [cdekEntry('new-secret')] },
      owner(),
    );
    expect((await storedCdek(operatorId)).access_token).toMatch(/^enc:v1:/);
    expect((await credentialsOf(svc.db, operatorId, 'cdek'))?.access_token).toBe('new-secret');
    const cleared = await call(
      'operator_update',
      { id: operatorId, transport_company_data: [cdekEntry('')] },
      owner(),
    );
    expect(cleared.result.transport_company_data).toEqual([cdekEntry('')]);
    expect((await credentialsOf(svc.db, operatorId, 'cdek'))?.access_token).toBe('');
  });
});

describe('the key', () => {
  it('production refuses to start with the development key or none', () => {
    expect(() => secretKeyFrom({ NODE_ENV: 'production' })).toThrow(
      CARRIER_MESSAGES.developmentKeyInProduction,
    );
    expect(() =>
      secretKeyFrom({ NODE_ENV: 'production', CARRIERS_SECRET_KEY: DEVELOPMENT_SECRET_KEY }),
    ).toThrow(CARRIER_MESSAGES.developmentKeyInProduction);
    const own = randomBytes(32);
    expect(secretKeyFrom({ NODE_ENV: 'production', CARRIERS_SECRET_KEY: own.toString('hex') })).toEqual(own);
    expect(secretKeyFrom({ NODE_ENV: 'production', CARRIERS_SECRET_KEY: own.toString('base64') })).toEqual(
      own,
    );
  });

  it('production refuses to start the service with the development key', async () => {
    await expect(
      startCarriers('credentials-production', {
        NODE_ENV: 'production',
        IDENTITY_TOKEN_SECRET: randomBytes(32).toString('hex'),
        CARRIERS_SECRET_KEY: '',
      }),
    ).rejects.toThrow(CARRIER_MESSAGES.developmentKeyInProduction);
  });
});
