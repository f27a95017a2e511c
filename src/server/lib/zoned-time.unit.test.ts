import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from './time';
import { addLocalMinutes, localDate, nextLocalTime } from './zoned-time';

const NY = 'America/New_York';

describe('wall-clock time in a zone', () => {
  it('lands a local time that a spring-forward change skips just after the change', () => {
    // 2026-03-08 is the spring-forward day in New York (02:00 -> 03:00): 02:30 does not exist.
    const saturday230 = Date.UTC(2026, 2, 7, 7, 30); // 02:30 EST
    expect(nextLocalTime(Date.UTC(2026, 2, 7, 8), NY, 2, 30)).toBe(Date.UTC(2026, 2, 8, 7, 30)); // 03:30 EDT
    expect(addLocalMinutes(saturday230, 24 * 60, NY)).toBe(Date.UTC(2026, 2, 8, 7, 30));
  });

  it('adds whole days on the local calendar and the rest as elapsed minutes', () => {
    const winter = Date.UTC(2026, 2, 7, 14); // Saturday 09:00 EST
    // Two local days later is Monday 09:00 EDT: 47 hours, not 48.
    expect(addLocalMinutes(winter, 48 * 60, NY)).toBe(Date.UTC(2026, 2, 9, 13));
    expect(addLocalMinutes(winter, 48 * 60, 'UTC')).toBe(winter + 48 * HOUR);
    expect(addLocalMinutes(winter, 90, NY)).toBe(winter + 90 * MINUTE);
    expect(addLocalMinutes(winter, 24 * 60 + 30, NY)).toBe(Date.UTC(2026, 2, 8, 14, 30) - HOUR);
  });

  it('finds the next local time of day and names local dates', () => {
    const at = Date.UTC(2026, 10, 23, 12); // 07:00 in New York
    expect(nextLocalTime(at, NY, 8, 0)).toBe(Date.UTC(2026, 10, 23, 13));
    expect(nextLocalTime(Date.UTC(2026, 10, 23, 13), NY, 8, 0)).toBe(Date.UTC(2026, 10, 24, 13));
    expect(localDate(Date.UTC(2026, 10, 24, 3), NY)).toBe('2026-11-23');
    expect(localDate(Date.UTC(2026, 10, 24, 3), 'Asia/Tokyo')).toBe('2026-11-24');
  });
});
