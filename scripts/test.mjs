// `npm test`: every check, in the order that fails fastest. Stops at the first failure.
import { spawn } from 'node:child_process';

const step = (title, command, args, env = {}) => ({ title, command, args, env });

const steps = [
  step('Lint and format (Biome)', 'npx', ['biome', 'check', '.']),
  step('Type-check', 'npx', ['tsc', '--noEmit']),
  step('Unit tests (Vitest project unit)', 'npx', ['vitest', 'run', '--project', 'unit']),
  step('API tests (Vitest projects api, api:isolated)', 'npx', [
    'vitest',
    'run',
    '--project',
    'api',
    '--project',
    'api:isolated',
  ]),
  step('Hardening suites (Vitest project hardening)', 'npx', ['vitest', 'run', '--project', 'hardening']),
  // Built once here: `npm start` in the process suites then finds the build current, and the
  // browser suite serves this same build instead of making its own.
  step('Build the web app and the server', 'node', ['scripts/build.mjs']),
  step('Server processes (Vitest project process)', 'npx', ['vitest', 'run', '--project', 'process']),
  // Side by side: the smoke run judges no figure, so sharing the machine with the browser suite
  // costs it nothing, and the browser suite waits for what screens show, never for a time.
  [
    step('Browser tests (Playwright)', 'npx', ['playwright', 'test'], { E2E_WEB_ROOT: 'dist/web' }),
    step('Benchmarks, once each in smoke mode', 'npx', ['tsx', 'test/bench/run.ts', '--smoke']),
  ],
];

/**
 * Runs one step. Its output goes straight to the terminal, or, for a step running beside
 * another, is kept and printed whole once every step beside it has ended, so lines never mix.
 */
function run({ title, command, args, env }, { buffered }) {
  const started = performance.now();
  const output = [];
  if (!buffered) console.log(`\n=== ${title} ===`);
  const child = spawn(command, args, {
    stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, ...env },
  });
  if (buffered) {
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
  }
  return new Promise((resolve) => {
    child.on('close', (status) =>
      resolve({ title, status, seconds: (performance.now() - started) / 1000, output, buffered }),
    );
  });
}

const timings = [];
for (const entry of steps) {
  const group = Array.isArray(entry) ? entry : [entry];
  const results = await Promise.all(group.map((item, index) => run(item, { buffered: index > 0 })));
  for (const result of results) {
    if (result.buffered) {
      console.log(`\n=== ${result.title} (ran beside the step above) ===`);
      process.stdout.write(Buffer.concat(result.output));
    }
    timings.push([result.title, result.seconds]);
  }
  const failed = results.find((result) => result.status !== 0);
  if (failed) {
    console.error(`\n${failed.title} failed.`);
    process.exit(failed.status ?? 1);
  }
}
// Where the time went, so a step that grows slow is seen growing.
for (const [title, seconds] of timings) console.log(`${seconds.toFixed(1).padStart(7)} s  ${title}`);
console.log('\nAll checks passed.');
