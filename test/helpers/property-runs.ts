/**
 * How many cases a property test tries. CI (CI=true) always tries the full count; a run on a
 * developer's machine tries a third of it by default, so the loop stays short, and says so.
 * PROPERTY_RUNS=full asks for the full count anywhere.
 */
export function propertyRuns(full: number): number {
  if (process.env.CI === 'true' || process.env.PROPERTY_RUNS === 'full') return full;
  return Math.max(1, Math.ceil(full / 3));
}

/** Whether this run tries fewer property cases than CI does (for the suites' closing lines). */
export const fewerPropertyRunsThanCi = process.env.CI !== 'true' && process.env.PROPERTY_RUNS !== 'full';
