import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HTTP_OWNERS, MESSAGES, METHOD_OWNERS } from '@caravan/contracts';
import Ajv2020 from 'ajv/dist/2020';
import express from 'express';
import { ReplyConformance, type OpenApiLike } from './conformance';
import { buildOpenApiDocument, methodPath, openApiPath, type OpenApiDocument } from './document';
import { methodDocs, undescribedMethods } from './methods';
import { openApiRoutes } from './routes';

let doc: OpenApiDocument;
let conformance: ReplyConformance;
beforeAll(() => {
  doc = buildOpenApiDocument();
  conformance = new ReplyConformance(doc as unknown as OpenApiLike);
});

type Operation = {
  operationId: string;
  requestBody: { content: Record<string, { schema: { $ref?: string } }> };
  'x-caravan-owner': string;
};
const post = (path: string) => (doc.paths?.[path] as { post?: Operation } | undefined)?.post;
const schemas = () => doc.components!.schemas as Record<string, unknown>;

describe('the OpenAPI document', () => {
  test('describes every method of the routing table on its own path, with its params, reply and owner', () => {
    for (const [method, owner] of Object.entries(METHOD_OWNERS)) {
      const operation = post(methodPath(method));
      expect(operation?.operationId).toBe(method);
      expect(operation?.['x-caravan-owner']).toBe(owner);
      expect(operation?.requestBody.content['application/json']!.schema.$ref).toBe(
        `#/components/schemas/${method}_call`,
      );
      expect(schemas()).toHaveProperty(`${method}_params`);
      expect(schemas()).toHaveProperty(`${method}_reply`);
    }
  });

  test('has no method path the routing table does not have', () => {
    const methodPaths = Object.keys(doc.paths!).filter((p) => p.includes('#'));
    expect(methodPaths.map((p) => p.split('#')[1]).sort()).toEqual(Object.keys(METHOD_OWNERS).sort());
  });

  test('finds the method the catalogue lacks', () => {
    const docs = methodDocs().filter((d) => d.method !== 'wallet_transfer');
    expect(undescribedMethods(docs)).toEqual(['wallet_transfer']);
    expect(undescribedMethods(methodDocs())).toEqual([]);
  });

  test('describes every HTTP path of the routing table, and only those', () => {
    const httpPaths = Object.keys(doc.paths!).filter((p) => !p.includes('#'));
    expect(httpPaths.sort()).toEqual(Object.keys(HTTP_OWNERS).map(openApiPath).sort());
  });

  test('takes any method on the real path, discriminated by `method`', () => {
    const body = post('/api/call_pg_func')!.requestBody.content['application/json']!.schema as {
      oneOf: unknown[];
      discriminator: { propertyName: string; mapping: Record<string, string> };
    };
    expect(body.oneOf).toHaveLength(Object.keys(METHOD_OWNERS).length);
    expect(body.discriminator.propertyName).toBe('method');
    expect(body.discriminator.mapping.client_order_update).toBe(
      '#/components/schemas/client_order_update_call',
    );
  });

  test('keeps patterns without the regex flags the generator glues on', () => {
    const listParams = schemas().client_list_params as { properties: { order_by: { pattern: string } } };
    expect(listParams.properties.order_by.pattern).toBe('^[a-z_]+( (asc|desc))?$');
    expect(JSON.stringify(doc)).not.toMatch(/"pattern":"[^"]*\/[gimsuy]+"/);
  });
});

describe('the params of the document', () => {
  const paramsValidator = (method: string) => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    return ajv.compile({ $ref: `doc#/components/schemas/${method}_params` });
  };

  test('refuse what the service refuses: an unknown field, a wrong type, a page below 1', () => {
    const update = paramsValidator('client_order_update');
    expect(update({ id: -1, title: 'заказ', client_id: 3 })).toBe(true);
    expect(update({ id: 5, nope: 1 })).toBe(false);
    expect(update({ id: 'five' })).toBe(false);
    const list = paramsValidator('client_order_list');
    expect(list({ page: 2, per_page: 50, where_param: [{ field: 'stage', op: '=', value: 'draft' }] })).toBe(
      true,
    );
    expect(list({ page: 0 })).toBe(false);
    expect(list({ where_param: [{ field: 'stage', op: 'drop table' }] })).toBe(false);
  });

  test('take money as a string or a number', () => {
    const transfer = paramsValidator('wallet_transfer');
    const given = { sender_wallet_id: 1, receiver_wallet_id: 2, comment: '' };
    expect(transfer({ ...given, amount: '10.50' })).toBe(true);
    expect(transfer({ ...given, amount: 10.5 })).toBe(true);
    expect(transfer({ ...given, amount: true })).toBe(false);
  });
});

describe('replies checked against the document', () => {
  const row = {
    id: 7,
    deleted: false,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  };
  const call = (method: string, status: number, body: unknown) =>
    conformance.check({ httpMethod: 'POST', path: '/api/call_pg_func', method, status, body });

  test('a result of the described shape and a refusal match', () => {
    const page = { items: [{ ...row, title: 'Москва', title_cn: '莫斯科' }], total: 1, total_exact: true };
    expect(
      call('city_list', 200, { ok: true, result: { ...page, page: 1, per_page: 10, next_cursor: null } }),
    ).toBe(null);
    expect(call('city_list', 200, { ok: false, result: null, message: MESSAGES.accessDenied })).toBe(null);
    expect(call('city_list', 401, { ok: false, result: null, message: MESSAGES.sessionExpired })).toBe(null);
  });

  test('a result of another shape, an undocumented status or method is named', () => {
    expect(call('city_get_by_id', 200, { ok: true, result: { ...row, id: 'seven' } })).toMatch(
      /city_get_by_id \(200\): .*\/result/,
    );
    expect(call('city_list', 200, { ok: true })).toMatch(/must have required property 'result'/);
    expect(call('city_list', 200, { ok: false, message: 'x' })).not.toBeNull();
    expect(call('city_list', 418, { ok: false, result: null, message: 'x' })).toMatch(
      /status 418 is not documented/,
    );
    expect(call('no_such_method', 200, { ok: true, result: 1 })).toMatch(/not in the document/);
  });

  test('an HTTP path is found by its template', () => {
    const uploaded = [{ file: '/api/files/a.png', name: 'a.png', size: 3, mime: 'image/png' }];
    const upload = { httpMethod: 'POST', path: '/api/upload_image', status: 200 };
    expect(conformance.check({ ...upload, body: { ok: true, result: uploaded } })).toBe(null);
    expect(conformance.check({ ...upload, body: { ok: true, result: [{ file: 1 }] } })).not.toBeNull();
    expect(conformance.pathOf({ path: '/api/files/abc.pdf' })).toBe('/api/files/{name}');
    expect(conformance.pathOf({ path: '/api/carriers/webhook/cdek' })).toBe('/api/carriers/webhook/{vendor}');
  });
});

describe('the gateway serves it', () => {
  const serve = async (file: string) => {
    const app = express().use(openApiRoutes(file));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const close = () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    };
    return { base, close };
  };

  test('/api/openapi.json as the build wrote it, and the reference page with its files', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'caravan-openapi-'));
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const { base, close } = await serve(file);
    try {
      const json = await fetch(`${base}/api/openapi.json`);
      expect(json.headers.get('content-type')).toMatch(/application\/json/);
      const served = (await json.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(served.openapi).toBe('3.1.0');
      expect(Object.keys(served.paths)).toHaveLength(Object.keys(doc.paths!).length);
      const page = await (await fetch(`${base}/api/docs`)).text();
      expect(page).toContain('/api/docs/swagger-ui-bundle.js');
      expect((await fetch(`${base}/api/docs/swagger-ui-bundle.js`)).status).toBe(200);
      expect(await (await fetch(`${base}/api/docs/init.js`)).text()).toContain("url: '/api/openapi.json'");
      expect((await fetch(`${base}/api/docs/package.json`)).status).toBe(404);
    } finally {
      await close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
