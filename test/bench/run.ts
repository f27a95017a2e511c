// `npm run bench [-- name...]`: runs every benchmark module in turn, or those whose file name
// contains one of the given names (e.g. `npm run bench -- submissions`).
//
// A benchmark module is a file directly in test/bench/ (other than this one) that exports
// `run(): Promise<void>` and prints its own figures, including ratios against a baseline it
// measured in the same run. Helpers shared by benchmarks belong in a sub-folder.
//
// `--smoke` runs each once in seconds (support/smoke.ts): a check that none has broken, with no
// figure judged. `npm test` does that.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface BenchmarkModule {
  run(): Promise<void>;
}

const folder = import.meta.dirname;
const filters = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const smoke = process.argv.includes('--smoke');

/** The knobs each benchmark reads from the environment, at their smallest (see support/smoke.ts). */
const SMOKE_SETTINGS: Record<string, string> = {
  BENCH_SMOKE: '1',
  BENCH_SECONDS: '1',
  BENCH_ROUNDS: '1',
  BENCH_CONNECTIONS: '4',
  BENCH_REQUESTS: '20',
  BENCH_CAMPAIGN_STUDENTS: '50',
  BENCH_ROSTER_ROWS: '500',
  LOAD_SECONDS: '2',
  LOAD_WARMUP_SECONDS: '1',
  PAGES_RUNS: '1',
};
// Set before any benchmark is imported: they read their settings as they load.
if (smoke) Object.assign(process.env, SMOKE_SETTINGS);
const files = fs
  .readdirSync(folder)
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts')
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();

if (files.length === 0) {
  console.error(
    `No benchmark matches ${filters.join(', ')}. Available: ${fs.readdirSync(folder).join(', ')}`,
  );
  process.exit(1);
}

for (const file of files) {
  const module = (await import(pathToFileURL(path.join(folder, file)).href)) as Partial<BenchmarkModule>;
  if (typeof module.run !== 'function') {
    console.error(`${file} exports no run() function; skipped`);
    continue;
  }
  console.log(`\n=== ${path.basename(file, '.ts')}${smoke ? ' (smoke: figures not judged)' : ''} ===`);
  const started = performance.now();
  await module.run();
  if (smoke) {
    // A missed target says nothing at this size; only an error fails the smoke run.
    process.exitCode = 0;
    console.log(`${file}: ran in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}
