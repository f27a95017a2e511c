import { MINUTE, SECOND } from './time';

/**
 * Wait before attempt n + 1 after n failures: 10 s, then 30 s, 1 min, 2 min, ... at most 4 hours.
 * The first retry is soon because most failures are a dropped connection, and a person may be
 * waiting for the mail (a sign-in code, an alert).
 */
export function retryDelay(failures: number): number {
  if (failures <= 1) return 10 * SECOND;
  return Math.min(30 * SECOND * 2 ** (failures - 2), 4 * 60 * MINUTE);
}

/** After this many failed attempts (about a day of backoff) work is given up and kept as failed. */
export const MAX_ATTEMPTS = 10;
