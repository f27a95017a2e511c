// `npm run bench [-- name...]`: runs every benchmark module in turn, or those whose file name
// contains one of the given names (e.g. `npm run bench -- submissions`).
//
// A benchmark module is a file directly in test/bench/ (other than this one) that exports
// `run(): Promise<void>` and prints its own figures, including ratios against a baseline it
// measured in the same run. Helpers shared by benchmarks belong in a sub-folder.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface BenchmarkModule {
  run(): Promise<void>;
}

const folder = import.meta.dirname;
const filters = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
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
  console.log(`\n=== ${path.basename(file, '.ts')} ===`);
  await module.run();
}
