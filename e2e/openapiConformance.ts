import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Response } from '@playwright/test';
import { ReplyConformance, type ObservedReply, type OpenApiLike } from '../gateway/src/openapi/conformance';
import { BASE_URL } from './playwright.config';

/**
 * Every JSON reply the browsers of the e2e run get from /api is checked against the document the
 * gateway serves (/api/openapi.json, docs/adr/0026): its status must be documented and its body must
 * match. Files and event streams are not JSON and are left alone; a body the browser dropped before
 * it could be read (the page went on) is counted as skipped.
 */
let checker: Promise<ReplyConformance> | null = null;
const conformance = () =>
  (checker ??= fetch(`${BASE_URL}/api/openapi.json`)
    .then((res) => res.json())
    .then((doc) => new ReplyConformance(doc as OpenApiLike)));

const mismatches: string[] = [];
const pending = new Set<Promise<void>>();
/** What this worker checked, by method or path: the run's coverage of the document. */
const checked = new Map<string, number>();
let skipped = 0;

/** Checks one reply as the browser got it; null when it matches. */
export async function checkReply(reply: ObservedReply): Promise<string | null> {
  const name = reply.method ?? `${reply.httpMethod} ${reply.path}`;
  checked.set(name, (checked.get(name) ?? 0) + 1);
  return (await conformance()).check(reply);
}

async function checkResponse(response: Response) {
  const url = new URL(response.url());
  if (url.origin !== BASE_URL || !url.pathname.startsWith('/api/')) return;
  if (!(response.headers()['content-type'] ?? '').startsWith('application/json')) return;
  const request = response.request();
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    skipped += 1;
    return;
  }
  const method =
    url.pathname === '/api/call_pg_func'
      ? ((request.postDataJSON() as { method?: unknown } | null)?.method as string | undefined)
      : undefined;
  const mismatch = await checkReply({
    httpMethod: request.method(),
    path: url.pathname,
    method: typeof method === 'string' ? method : undefined,
    status: response.status(),
    body,
  });
  if (mismatch) mismatches.push(mismatch);
}

function watch(context: BrowserContext) {
  context.on('response', (response) => {
    const check = checkResponse(response).finally(() => pending.delete(check));
    pending.add(check);
  });
  return context;
}

/** Watches every context of the browser: the tests' own and those they open for a second user. */
export function watchBrowser(browser: Browser) {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => watch(await newContext(...args));
  browser.contexts().forEach(watch);
}

/** The mismatches seen since the last call, once the checks under way are done. */
export async function takeMismatches() {
  await Promise.all([...pending]);
  return mismatches.splice(0);
}

/** Writes what this worker checked (test-results/openapi-conformance-<worker>.json). */
export function writeCoverage(outputDir: string, workerIndex: number) {
  mkdirSync(outputDir, { recursive: true });
  const methods = Object.fromEntries([...checked].sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(
    path.join(outputDir, `openapi-conformance-${workerIndex}.json`),
    `${JSON.stringify({ checked: [...checked.values()].reduce((a, b) => a + b, 0), skipped, methods }, null, 2)}\n`,
  );
}
