// `npm test`: every check, in the order that fails fastest. Stops at the first failure.
import { spawnSync } from 'node:child_process';

const steps = [
  ['Lint and format (Biome)', 'npx', ['biome', 'check', '.']],
  ['Type-check', 'npx', ['tsc', '--noEmit']],
  ['Unit tests (Vitest project unit)', 'npx', ['vitest', 'run', '--project', 'unit']],
  [
    'API tests (Vitest projects api, api:isolated)',
    'npx',
    ['vitest', 'run', '--project', 'api', '--project', 'api:isolated'],
  ],
  ['Hardening suites (Vitest project hardening)', 'npx', ['vitest', 'run', '--project', 'hardening']],
  // Built once here: `npm start` in the process suites then finds the build current, and the
  // browser suite serves this same build instead of making its own.
  ['Build the web app and the server', 'node', ['scripts/build.mjs']],
  ['Server processes (Vitest project process)', 'npx', ['vitest', 'run', '--project', 'process']],
  ['Benchmarks, once each in smoke mode', 'npx', ['tsx', 'test/bench/run.ts', '--smoke']],
  ['Browser tests (Playwright)', 'npx', ['playwright', 'test'], { E2E_WEB_ROOT: 'dist/web' }],
];

const timings = [];
for (const [title, command, args, env = {}] of steps) {
  console.log(`\n=== ${title} ===`);
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push([title, (performance.now() - started) / 1000]);
  if (result.status !== 0) {
    console.error(`\n${title} failed.`);
    process.exit(result.status ?? 1);
  }
}
// Where the time went, so a step that grows slow is seen growing.
for (const [title, seconds] of timings) console.log(`${seconds.toFixed(1).padStart(7)} s  ${title}`);
console.log('\nAll checks passed.');
