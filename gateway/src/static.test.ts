import express from 'express';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { serveBuiltFiles } from './static';

const MAIN_JS = `console.log(${JSON.stringify('Caravan '.repeat(400))});`;
const CHUNK_JS = `export const chunk = ${JSON.stringify('chunk '.repeat(400))};`;
const PAGE = '<!doctype html><div id="root"></div>';

let dir: string;
let server: http.Server;
let port: number;

/** A build as the web build leaves it: assets with .br/.gz next to them, a small page without. */
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'caravan-static-'));
  const dist = path.join(dir, 'dist');
  mkdirSync(dist);
  writeFileSync(path.join(dir, 'secret.txt'), 'outside the build');
  const assets: [string, string][] = [
    ['main.js', MAIN_JS],
    ['4337.2582b05a.js', CHUNK_JS],
  ];
  for (const [name, text] of assets) {
    writeFileSync(path.join(dist, name), text);
    writeFileSync(path.join(dist, `${name}.br`), brotliCompressSync(text));
    writeFileSync(path.join(dist, `${name}.gz`), gzipSync(text));
  }
  writeFileSync(path.join(dist, 'index.html'), PAGE);
  const app = express();
  app.use(serveBuiltFiles(dist, { spa: true }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** A raw GET (no automatic decompression), as a browser sends it. */
function get(urlPath: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: urlPath, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on('error', reject);
    },
  );
}

describe('serving a web build', () => {
  test('a browser accepting brotli gets the brotli file, as JavaScript, varying by encoding', async () => {
    const res = await get('/main.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.body).toString()).toBe(MAIN_JS);
  });

  test('gzip when brotli is not accepted, the plain file when nothing is', async () => {
    const gzip = await get('/main.js', { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(MAIN_JS);

    const plain = await get('/main.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(MAIN_JS);
  });

  test('content-hashed files are cached for a year, the others revalidated', async () => {
    expect((await get('/4337.2582b05a.js')).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await get('/main.js')).headers['cache-control']).toBe('no-cache');
  });

  test('a client-side route gets the page; a missing asset is a 404, not the page', async () => {
    const page = await get('/wallet/3', { 'accept-encoding': 'br' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body.toString()).toBe(PAGE);

    expect((await get('/missing.0badc0de.js')).status).toBe(404);
  });

  test('nothing outside the build is served', async () => {
    for (const attempt of [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/%2e%2e%2fsecret.txt',
    ]) {
      const res = await get(attempt);
      expect(res.body.toString()).not.toContain('outside the build');
    }
  });
});
