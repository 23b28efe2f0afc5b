import { request } from 'node:http';
import { IDENTITY_HEADER, UPLOAD_MESSAGES } from '@caravan/contracts';
import {
  DEV_IDENTITY_SECRET,
  identityOf,
  signIdentity,
  startService,
  type RunningService,
} from '@caravan/service-kit';
import { ordersService } from '../src/app';

const admin = identityOf({ user_id: 1, roles: ['admin'] });
let orders: RunningService;

beforeAll(async () => {
  orders = await startService(ordersService());
});
afterAll(async () => {
  await orders?.stop();
});

/** A multipart body cut in the middle of its file: the closing boundary never comes. */
function truncatedForm(boundary: string) {
  return Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="orderId"\r\n\r\n1\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="invoice.xlsx"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n` +
      'PK'.padEnd(5000, 'x'),
  );
}

/** Posts the whole (truncated) body with its exact length, as a client whose upload was cut short. */
function postTruncated(path: string): Promise<{ status: number; body: { ok: boolean; message?: string } }> {
  const boundary = 'caravan-cut-boundary';
  const body = truncatedForm(boundary);
  return new Promise((resolve, reject) => {
    const req = request(
      `${orders.url}/api/${path}`,
      {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(body.length),
          [IDENTITY_HEADER]: signIdentity(admin, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('a truncated multipart upload', () => {
  it.each(['upload_file', 'upload_image', 'client_order_excel_import'])(
    '%s answers 400 in words, stores nothing and the service keeps answering',
    async (path) => {
      const before = await orders.db('file').count({ n: '*' }).first();
      const reply = await postTruncated(path);
      expect(reply).toEqual({
        status: 400,
        body: { ok: false, result: null, message: UPLOAD_MESSAGES.truncated },
      });
      // an unhandled stream error would have taken the process down before this answer
      await new Promise((r) => setTimeout(r, 100));
      expect((await fetch(`${orders.url}/healthz`)).ok).toBe(true);
      expect(await orders.db('file').count({ n: '*' }).first()).toEqual(before);
    },
  );
});

it('a body that is no multipart form at all is refused as no file, 400', async () => {
  const res = await fetch(`${orders.url}/api/upload_file`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [IDENTITY_HEADER]: signIdentity(admin, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET),
    },
    body: '{}',
  });
  expect({ status: res.status, body: await res.json() }).toEqual({
    status: 400,
    body: { ok: false, result: null, message: UPLOAD_MESSAGES.noFile },
  });
});
