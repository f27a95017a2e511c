import { DateTime } from 'luxon';
import { WEEKDAYS, type Weekday } from '../../../common/schemas/campaigns';

/**
 * When a campaign's rounds go out: a weekday and a wall-clock time in the institution's time
 * zone. Computed with Luxon in that zone, so 9:00 AM stays 9:00 AM local on both sides of a
 * daylight-saving change (the UTC instant moves instead).
 */

export interface WeeklySlot {
  day: Weekday;
  /** Minutes after local midnight. */
  minuteOfDay: number;
  timeZone: string;
}

/** The form's 12-hour clock as minutes after midnight: 12:05 AM is 5, 12:05 PM is 725. */
export function minuteOfDay(hour: number, minute: number, ampm: 'AM' | 'PM'): number {
  return ((hour % 12) + (ampm === 'PM' ? 12 : 0)) * 60 + minute;
}

/** "9:05 AM". */
export function clockText(minutes: number): string {
  const hour24 = Math.floor(minutes / 60);
  const hour = hour24 % 12 === 0 ? 12 : hour24 % 12;
  return `${hour}:${String(minutes % 60).padStart(2, '0')} ${hour24 < 12 ? 'AM' : 'PM'}`;
}

/** The first time strictly after `after` (epoch ms) that falls on the slot. */
export function nextOccurrence(slot: WeeklySlot, after: number): number {
  const isoWeekday = WEEKDAYS.indexOf(slot.day) + 1;
  const local = DateTime.fromMillis(after, { zone: slot.timeZone });
  const hour = Math.floor(slot.minuteOfDay / 60);
  const minute = slot.minuteOfDay % 60;
  for (let days = 0; days <= 7; days += 1) {
    // Setting the wall-clock time on each calendar day, rather than adding 168 hours, is what
    // keeps the local time right across a DST change.
    const candidate = local.startOf('day').plus({ days }).set({ hour, minute, second: 0, millisecond: 0 });
    if (candidate.weekday === isoWeekday && candidate.toMillis() > after) return candidate.toMillis();
  }
  throw new Error('unreachable: every weekday comes within 8 days');
}
