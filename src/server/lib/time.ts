/** The clock, in one place so tests can reason about expiry. */
export const now = (): number => Date.now();

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
