// `npm test`: every check, in the order that fails fastest. Stops at the first failure.
import { spawnSync } from 'node:child_process';

const steps = [
  ['Lint and format (Biome)', 'npx', ['biome', 'check', '.']],
  ['Type-check', 'npx', ['tsc', '--noEmit']],
  ['Unit tests (Vitest project unit)', 'npx', ['vitest', 'run', '--project', 'unit']],
  ['API tests (Vitest project api)', 'npx', ['vitest', 'run', '--project', 'api']],
  ['Hardening suites (Vitest project hardening)', 'npx', ['vitest', 'run', '--project', 'hardening']],
  ['Server processes (Vitest project process)', 'npx', ['vitest', 'run', '--project', 'process']],
  ['Build the web app and the server', 'node', ['scripts/build.mjs']],
  ['Browser tests (Playwright)', 'npx', ['playwright', 'test']],
];

for (const [title, command, args] of steps) {
  console.log(`\n=== ${title} ===`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n${title} failed.`);
    process.exit(result.status ?? 1);
  }
}
console.log('\nAll checks passed.');
