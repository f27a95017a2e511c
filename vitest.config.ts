import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Four projects, chosen by where a test file lives (see README, "Testing"):
 * - unit: pure code, no database: everything under src/common and src/web, and server files
 *   named `*.unit.test.ts`. Runs in seconds.
 * - api: every other test under src/: the app through app.inject(), or code on a real database.
 * - hardening: test/hardening, the in-process matrices over every route.
 * - process: test/process, suites that start real server processes.
 * The database projects run the global setup, which says (and in CI, fails) when PostgreSQL is
 * not configured.
 */
const databaseSetup = ['test/helpers/global-setup.ts'];

/**
 * One test file per core, where Vitest's default keeps one core for itself (a single worker on a
 * two-core machine). The database suites spend much of their time waiting on PostgreSQL and the
 * process suites on the servers they spawn, so the runner's own core is otherwise idle.
 */
const oneFilePerCore = os.availableParallelism();

/**
 * Limits that only stop a hung test. A matrix route hashes several passwords; on a machine
 * loaded many times over (a shared CI runner) that takes a multiple of its usual second, and a
 * slow machine must make the suite slower, not red.
 */
const hungTestLimits = { testTimeout: 60_000, hookTimeout: 90_000 };

export default defineConfig({
  test: {
    exclude: ['test/e2e/**', 'node_modules/**'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // Pure code that shares no state between files: one module graph per thread instead of
          // one per file, which is most of the time such small files take.
          pool: 'threads',
          isolate: false,
          include: [
            'src/common/**/*.test.ts',
            'src/web/**/*.test.ts',
            'src/web/**/*.test.tsx',
            'src/server/**/*.unit.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          maxWorkers: oneFilePerCore,
          include: ['src/server/**/*.test.ts'],
          exclude: ['src/server/**/*.unit.test.ts'],
          globalSetup: databaseSetup,
          ...hungTestLimits,
        },
      },
      {
        extends: true,
        test: {
          name: 'hardening',
          maxWorkers: oneFilePerCore,
          include: ['test/hardening/**/*.test.ts'],
          globalSetup: databaseSetup,
          ...hungTestLimits,
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          maxWorkers: oneFilePerCore,
          include: ['test/process/**/*.test.ts'],
          // The server compiled once for the run: every spawn then starts plain JavaScript.
          globalSetup: [...databaseSetup, 'test/helpers/process-global-setup.ts'],
          ...hungTestLimits,
        },
      },
    ],
  },
});
