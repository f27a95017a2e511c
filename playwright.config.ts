import os from 'node:os';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findTestBrowser, missingChromiumMessage } from './test/e2e/chromium';

/**
 * Browser tests: Playwright's runner driving Debian's Chromium against the real server and a
 * fresh SQLite database per run (test/e2e/global-setup.ts). Run with `npm run test:e2e`.
 */

const chromiumPath = findTestBrowser();
if (!chromiumPath) {
  console.error(`\n${missingChromiumMessage()}\n`);
  if (process.env.CI === 'true') throw new Error('Chromium is required when CI=true');
}

const isCI = process.env.CI === 'true';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/e2e',
  // Without a browser there is nothing to serve: the specs skip themselves (support.ts).
  globalSetup: chromiumPath ? './test/e2e/global-setup.ts' : undefined,
  fullyParallel: true,
  // Each worker runs a Chromium; more workers than cores only makes every test slower.
  workers: Math.max(1, Math.min(isCI ? 2 : 4, os.cpus().length)),
  // A retry hides a test that depends on timing; a failure is fixed where it happens.
  retries: 0,
  forbidOnly: isCI,
  // Limits that only stop a hung test, never a measure of speed: the specs wait for what the
  // screen shows, and on a machine loaded many times over (seen: load 20 on two cores) a whole
  // journey takes minutes and one screen's answer many seconds. A slow machine makes the suite
  // slower, not red.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: isCI ? [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]] : 'list',
  use: {
    // Set by global-setup.ts, which runs before the workers that read this config start.
    baseURL: process.env.E2E_BASE_URL,
    browserName: 'chromium',
    launchOptions: { executablePath: chromiumPath ?? undefined, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
