import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { buildOpenApiDocument } from './document';

const ROOT = path.resolve(__dirname, '../../..');

/**
 * What a client team does (README: `npx openapi-typescript gateway/dist/openapi.json --default-non-nullable false`,
 * so a param with a default stays optional) with the build's file: generate types with openapi-typescript, then write
 * calls against them. The calls below must compile, and the wrong ones must not (`@ts-expect-error`
 * fails the compilation when the line it guards has no error).
 */
const CLIENT = `
import type { components, paths } from './api';

type Method = { [P in keyof paths]: P extends \`/api/call_pg_func#\${infer M}\` ? M : never }[keyof paths];
type Call<M extends Method> = paths[\`/api/call_pg_func#\${M}\`]['post'];
type Body<M extends Method> = Call<M>['requestBody']['content']['application/json'];
type Reply<M extends Method> = Call<M>['responses'][200]['content']['application/json'];

export const getOrder: Body<'client_order_get_by_id'> = { method: 'client_order_get_by_id', params: { id: 1 } };
export const createCity: Body<'city_update'> = {
  method: 'city_update',
  params: { id: -1, title: 'Иу', title_en: 'Yiwu', title_ru: 'Иу', country_id: 2 },
};
export const transfer: Body<'wallet_transfer'> = {
  method: 'wallet_transfer',
  params: { sender_wallet_id: 1, receiver_wallet_id: 2, amount: '10.50' },
};
export const whoAmI: Body<'user_current'> = { method: 'user_current' };

export function readOrder(reply: Reply<'client_order_get_by_id'>): string {
  if (reply.ok === true) {
    const id: number = reply.result.id;
    const rights: boolean = reply.result._rights.write;
    return \`\${id} \${reply.result.stage ?? ''} \${rights}\`;
  }
  const refusal: components['schemas']['FailReply'] = reply;
  return refusal.message;
}

export function readPage(reply: Reply<'city_list'>): number[] {
  return reply.ok === true ? reply.result.items.map((city) => city.id) : [];
}

// @ts-expect-error: params of another type are refused
export const wrongType: Body<'client_order_get_by_id'> = { method: 'client_order_get_by_id', params: { id: '1' } };
// @ts-expect-error: a method's body names that method
export const wrongMethod: Body<'client_order_get_by_id'> = { method: 'client_list', params: { id: 1 } };
// @ts-expect-error: an unknown field is refused (additionalProperties: false)
export const unknownField: Body<'wallet_transfer'> = { method: 'wallet_transfer', params: { sender_wallet_id: 1, receiver_wallet_id: 2, amount: '1', nope: 1 } };
// @ts-expect-error: a method that is not in the document has no path
export type NoSuchMethod = Call<'no_such_method'>;
`;

test('a typed client generated from the document by openapi-typescript compiles, and refuses wrong calls', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'caravan-openapi-client-'));
  try {
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(buildOpenApiDocument()));
    execFileSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
        'openapi.json',
        '-o',
        'api.d.ts',
        '--default-non-nullable',
        'false',
      ],
      { cwd: dir, stdio: 'pipe' },
    );
    writeFileSync(path.join(dir, 'client.ts'), CLIENT);
    const program = ts.createProgram([path.join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
