/**
 * Smoke mode (`npm run bench -- --smoke`, which `npm test` runs): every benchmark once, on the
 * smallest data and the shortest runs that still go through all of its code, in seconds. It
 * proves the benchmarks still work; its figures mean nothing and no target is judged.
 */
export const benchSmoke = process.env.BENCH_SMOKE === '1';
