import { defineConfig } from '@playwright/test';

/**
 * The whole system, started as `npm start` starts it, on ports shifted by 10000 with its own database
 * (E2E_PORT_OFFSET and E2E_DATABASE move both, so two runs can share a machine).
 */
export const PORT_OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 10000);
export const BASE_URL = `http://127.0.0.1:${8080 + PORT_OFFSET}`;

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // one spec file at a time: the specs share the demo users, and two side by side broke each other's
  // checks of those users' data (docs/adr/0037)
  workers: 1,
  retries: 0,
  outputDir: 'test-results',
  reporter: [['list'], ['json', { outputFile: 'test-results/results.json' }]],
  use: {
    baseURL: BASE_URL,
    locale: 'ru-RU',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: 'node deploy/local/start.mjs',
    cwd: '..',
    timeout: 300_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    // the gateway answers before the services are ready and the remotes may still be building:
    // start.mjs says when all is there (docs/adr/0032). No `url`: Playwright starts the tests on
    // whichever comes first, the url or the line (a spec replacing a remote's files raced its build).
    wait: { stdout: /web apps all built/ },
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      CARAVAN_PORT_OFFSET: String(PORT_OFFSET),
      CARAVAN_DATABASE: process.env.E2E_DATABASE ?? 'caravan_e2e',
      CARAVAN_FRESH_DB: '1',
      CARAVAN_KEEP_KAFKA: '1',
      KAFKA_TOPIC_PREFIX: `e2e-${Date.now()}-`,
      // its stdout is read for that line only: the services' logs stay out of the report, as before
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'fatal',
    },
  },
});
