import os from 'node:os';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium, missingChromiumMessage } from './test/e2e/chromium';

/**
 * Browser tests: Playwright's runner driving Debian's Chromium against the real server and a
 * fresh SQLite database per run (test/e2e/global-setup.ts). Run with `npm run test:e2e`.
 */

const chromiumPath = findChromium();
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
  // Generous: shared CI machines are slow, and every login hashes a password with argon2id.
  timeout: 60_000,
  expect: { timeout: 10_000 },
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
