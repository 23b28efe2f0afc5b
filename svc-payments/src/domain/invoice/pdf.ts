import puppeteer, { type Browser } from 'puppeteer-core';

/**
 * HTML → PDF by Chromium through puppeteer-core (ARCHITECTURE §10: Debian's chromium). One browser per
 * process, launched at the first invoice and kept for the next ones; each invoice gets its own page,
 * closed after. A browser that crashed or was closed is launched again at the next invoice. At most
 * PAGES_AT_ONCE pages print together (two cores; more would only queue inside Chromium), the others wait.
 *
 * Chromium talks over a pipe, so it ends when this process ends even when killed; puppeteer's own
 * SIGINT/SIGTERM handlers are off (they would exit the process before the service's graceful stop):
 * the service closes the browser through its stop hook (closeInvoiceBrowser).
 */

const PAGES_AT_ONCE = 2;
const PRINT_TIMEOUT_MS = 30_000;

const executablePath = () => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

let browser: Promise<Browser> | null = null;

function launch(): Promise<Browser> {
  const launching = puppeteer
    .launch({
      executablePath: executablePath(),
      headless: true,
      pipe: true,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-extensions',
        '--no-first-run',
        '--font-render-hinting=none',
      ],
    })
    .then((b) => {
      b.once('disconnected', () => {
        if (browser === launching) browser = null;
      });
      return b;
    });
  // a failed launch is not kept: the next invoice tries again
  launching.catch(() => {
    if (browser === launching) browser = null;
  });
  return launching;
}

const getBrowser = () => (browser ??= launch());

let printing = 0;
const waiting: (() => void)[] = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (printing >= PAGES_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  else printing++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else printing--;
  }
}

/** The PDF of a self-contained HTML page (A4, the page's own @page margins, backgrounds printed). */
export function htmlToPdf(html: string): Promise<Buffer> {
  return slot(async () => {
    const page = await (await getBrowser()).newPage();
    try {
      // the page is ours and needs no script: none runs, nothing is fetched
      await page.setJavaScriptEnabled(false);
      await page.setContent(html, { waitUntil: 'load', timeout: PRINT_TIMEOUT_MS });
      const pdf = await page.pdf({
        format: 'A4',
        printBackground: true,
        preferCSSPageSize: true,
        // untagged: a seventh of the size and about half the time; the text stays selectable and searchable
        tagged: false,
        timeout: PRINT_TIMEOUT_MS,
      });
      return Buffer.from(pdf);
    } finally {
      await page.close().catch(() => {});
    }
  });
}

/** Closes the browser if one runs (the service's stop; tests). The next invoice launches another. */
export async function closeInvoiceBrowser(): Promise<void> {
  const running = browser;
  browser = null;
  if (!running) return;
  const b = await running.catch(() => null);
  await b?.close().catch(() => {});
}
