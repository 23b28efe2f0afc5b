import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument } from './document';

/**
 * `npm run build` writes the OpenAPI document beside the gateway's build (gateway/dist/openapi.json):
 * the gateway serves that file, and a client team generates its typed client from it. Relative to this
 * module as built (dist/src/openapi); run from the sources (jest) it names no file, and the gateway
 * generates the document from the sources it runs.
 */
export const OPENAPI_FILE = path.resolve(__dirname, '../../openapi.json');

export function writeOpenApiDocument(file = OPENAPI_FILE) {
  const { version } = require('../../../package.json') as { version: string };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(version), null, 2)}\n`);
  return file;
}

if (require.main === module) console.log(`openapi: ${path.relative(process.cwd(), writeOpenApiDocument())}`);
