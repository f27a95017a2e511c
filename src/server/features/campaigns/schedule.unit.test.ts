import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { clockText, minuteOfDay, nextOccurrence } from './schedule';

const NEW_YORK = 'America/New_York';
const local = (millis: number, zone = NEW_YORK) =>
  DateTime.fromMillis(millis, { zone }).toFormat('cccc yyyy-MM-dd HH:mm ZZ');

describe('campaign schedule', () => {
  it('reads the 12-hour clock of the form', () => {
    expect(minuteOfDay(12, 5, 'AM')).toBe(5);
    expect(minuteOfDay(9, 0, 'AM')).toBe(540);
    expect(minuteOfDay(12, 0, 'PM')).toBe(720);
    expect(minuteOfDay(11, 59, 'PM')).toBe(1439);
    expect([5, 540, 720, 1439].map(clockText)).toEqual(['12:05 AM', '9:00 AM', '12:00 PM', '11:59 PM']);
  });

  it('keeps Monday 9:00 AM in New York at 9:00 local across the spring and autumn changes', () => {
    const slot = { day: 'Monday' as const, minuteOfDay: 540, timeZone: NEW_YORK };
    // 2026: clocks go forward on Sunday 8 March and back on Sunday 1 November.
    let at = Date.UTC(2026, 2, 2, 15); // Monday 2 March, 10:00 EST: this week's slot has passed.
    const rounds: string[] = [];
    for (let week = 0; week < 3; week += 1) {
      at = nextOccurrence(slot, at);
      rounds.push(local(at));
    }
    expect(rounds).toEqual([
      'Monday 2026-03-09 09:00 -04:00',
      'Monday 2026-03-16 09:00 -04:00',
      'Monday 2026-03-23 09:00 -04:00',
    ]);
    // The instant moved by an hour in UTC: 14:00Z before the change, 13:00Z after.
    expect(nextOccurrence(slot, Date.UTC(2026, 1, 28))).toBe(Date.UTC(2026, 2, 2, 14));
    expect(nextOccurrence(slot, Date.UTC(2026, 2, 3))).toBe(Date.UTC(2026, 2, 9, 13));
    expect(local(nextOccurrence(slot, Date.UTC(2026, 9, 27)))).toBe('Monday 2026-11-02 09:00 -05:00');
    expect(nextOccurrence(slot, Date.UTC(2026, 9, 27))).toBe(Date.UTC(2026, 10, 2, 14));
  });

  it('moves a time that does not exist on the day of the change forward, and never repeats one', () => {
    const slot = { day: 'Sunday' as const, minuteOfDay: minuteOfDay(2, 30, 'AM'), timeZone: NEW_YORK };
    // 2:30 AM on 8 March 2026 is skipped by the clocks: the round goes at 3:30 AM EDT.
    expect(local(nextOccurrence(slot, Date.UTC(2026, 2, 7)))).toBe('Sunday 2026-03-08 03:30 -04:00');
    // 1:30 AM on 1 November happens twice; the round goes once, at the first.
    const early = { ...slot, minuteOfDay: minuteOfDay(1, 30, 'AM') };
    const first = nextOccurrence(early, Date.UTC(2026, 9, 31));
    expect(local(first)).toBe('Sunday 2026-11-01 01:30 -04:00');
    expect(local(nextOccurrence(early, first))).toBe('Sunday 2026-11-08 01:30 -05:00');
  });

  it('finds today when the time is still ahead, and next week when it has passed', () => {
    const slot = { day: 'Monday' as const, minuteOfDay: 540, timeZone: 'Europe/Berlin' };
    const mondayEarly = Date.UTC(2026, 10, 23, 6); // 07:00 in Berlin
    expect(nextOccurrence(slot, mondayEarly)).toBe(Date.UTC(2026, 10, 23, 8));
    expect(nextOccurrence(slot, Date.UTC(2026, 10, 23, 8))).toBe(Date.UTC(2026, 10, 30, 8));
  });
});
