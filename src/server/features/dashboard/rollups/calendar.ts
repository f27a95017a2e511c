import { DAY } from '../../../lib/time';

/**
 * Months and days as plain integers, so rollup rows key on them on both databases. Everything is
 * UTC: an institution's dashboard must not change with the server's time zone.
 */

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export const RESPONSE_WINDOW_DAYS = 30;
const DASHBOARD_MONTHS = 12;

/** UTC year * 12 + month (0-based): consecutive months are consecutive integers. */
export function monthOf(epochMs: number): number {
  const date = new Date(epochMs);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/** "Dec 2025". */
export function monthLabel(month: number): string {
  return `${MONTH_NAMES[month % 12]} ${Math.floor(month / 12)}`;
}

/** The first instant after the month (UTC). */
export function monthEnd(month: number): number {
  return Date.UTC(Math.floor(month / 12), (month % 12) + 1, 1);
}

/** The dashboard's months, oldest first, ending with the current one. */
export function dashboardMonths(at: number): number[] {
  const current = monthOf(at);
  return Array.from({ length: DASHBOARD_MONTHS }, (_, index) => current - DASHBOARD_MONTHS + 1 + index);
}

/** UTC days since the epoch. */
export function dayOf(epochMs: number): number {
  return Math.floor(epochMs / DAY);
}

export function dayStart(day: number): number {
  return day * DAY;
}
