/** The clock, in one place so tests can reason about expiry. */
export const now = (): number => Date.now();

export const SECOND = 1_000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
