import { DateTime } from 'luxon';
import { DAY, MINUTE } from './time';

/**
 * Wall-clock arithmetic in an IANA time zone (luxon, on the platform's time zone database). An
 * institution's deadlines and digest follow its local calendar: "2 days" is the same local time
 * two days later, across a daylight-saving change too. A local time that a spring-forward change
 * skips lands just after the change.
 */

const MINUTES_PER_DAY = DAY / MINUTE;

/**
 * `minutes` after `at` on the zone's calendar: whole days as local days (same local time of day),
 * the rest as elapsed minutes.
 */
export function addLocalMinutes(at: number, minutes: number, timeZone: string): number {
  const days = Math.floor(minutes / MINUTES_PER_DAY);
  const rest = minutes - days * MINUTES_PER_DAY;
  return DateTime.fromMillis(at, { zone: timeZone }).plus({ days }).toMillis() + rest * MINUTE;
}

/** The first instant after `at` when the zone's clocks show hour:minute. */
export function nextLocalTime(at: number, timeZone: string, hour: number, minute: number): number {
  const today = DateTime.fromMillis(at, { zone: timeZone }).set({ hour, minute, second: 0, millisecond: 0 });
  if (today.toMillis() > at) return today.toMillis();
  return today.plus({ days: 1 }).set({ hour, minute }).toMillis();
}

/** The local calendar date at `at`, as YYYY-MM-DD (names a day's digest). */
export function localDate(at: number, timeZone: string): string {
  return DateTime.fromMillis(at, { zone: timeZone }).toFormat('yyyy-MM-dd');
}

/**
 * The instant the zone's calendar day `date` (YYYY-MM-DD) starts, `days` later: the first moment
 * of that local day (a day that a change starts at midnight begins when clocks show 01:00).
 */
export function localMidnight(date: string, timeZone: string, days = 0): number {
  return DateTime.fromISO(date, { zone: timeZone }).plus({ days }).startOf('day').toMillis();
}
