/**
 * Smoke mode (`npm run bench -- --smoke`, which `npm test` runs): every benchmark once, on the
 * smallest data and the shortest runs that still go through all of its code, in seconds. It
 * proves the benchmarks still work; its figures mean nothing and no target is judged.
 */
export const benchSmoke = process.env.BENCH_SMOKE === '1';

/**
 * How a target reads after a run: met or MISSED. A smoke run's sizes are too small to judge
 * against a target, so a miss there says so instead of alarming whoever reads `npm test`.
 */
export function verdict(met: boolean): string {
  if (met) return 'met';
  return benchSmoke ? 'not reached at smoke size' : 'MISSED';
}
