import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { linguiCatalogues, linguiMacros } from './scripts/vite-lingui.ts';

/**
 * The projects, chosen by where a test file lives (see README, "Testing"):
 * - unit: pure code, no database: everything under src/common and src/web, and server files
 *   named `*.unit.test.ts`. Runs in seconds.
 * - api: every other test under src/: the app through app.inject(), or code on a real database;
 *   those named `*.isolated.test.ts` (they replace a module) run apart, as api:isolated.
 * - hardening: test/hardening, the in-process matrices over every route.
 * - process: test/process, suites that start real server processes.
 * The database projects run the global setup, which says (and in CI, fails) when PostgreSQL is
 * not configured.
 */
const databaseSetup = ['test/helpers/global-setup.ts'];

/** API tests that replace a module (vi.mock) and so need a module graph of their own. */
const isolatedApiTests = 'src/server/**/*.isolated.test.ts';

/**
 * The process suites run one test file per core, where Vitest's default keeps one core for itself
 * (a single worker on a two-core machine): they spend most of their time waiting on the servers
 * they spawn. The database suites keep the default: measured in one CI run on two cores, a second
 * worker made the hardening project 1.7 times slower (416 s against 247 s), both workers
 * contending for PostgreSQL's database clones and the same two cores.
 */
const oneFilePerCore = os.availableParallelism();

/**
 * Limits that only stop a hung test. A matrix route hashes several passwords; on a machine
 * loaded many times over (a shared CI runner) that takes a multiple of its usual second, and a
 * slow machine must make the suite slower, not red.
 */
const hungTestLimits = { testTimeout: 60_000, hookTimeout: 90_000 };

export default defineConfig({
  // The web app's components and catalogues, as the build has them (vite.config.ts).
  plugins: [linguiMacros({ production: false }), linguiCatalogues()],
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
            'scripts/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['src/server/**/*.test.ts'],
          exclude: ['src/server/**/*.unit.test.ts', isolatedApiTests],
          // The files share one module graph instead of importing the whole app each (about a
          // minute of a CI run). They share no state that matters: every test builds its own app
          // on its own database.
          isolate: false,
          globalSetup: databaseSetup,
          ...hungTestLimits,
        },
      },
      {
        extends: true,
        test: {
          name: 'api:isolated',
          include: [isolatedApiTests],
          globalSetup: databaseSetup,
          ...hungTestLimits,
        },
      },
      {
        extends: true,
        test: {
          name: 'hardening',
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
