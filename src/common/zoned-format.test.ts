import { describe, expect, it } from 'vitest';
import { formatZonedDateTime, formatZonedTime } from './zoned-format';

describe('formatZonedDateTime', () => {
  it("writes the day and month in a reader's language, on the same clock", () => {
    const at = Date.UTC(2026, 10, 9, 14);
    expect(formatZonedDateTime(at, 'America/New_York', 'es')).toBe(
      'lun 9 nov 2026, 09:00 (America/New_York)',
    );
    expect(formatZonedDateTime(at, 'America/New_York', 'en')).toBe(
      'Mon 9 Nov 2026, 09:00 (America/New_York)',
    );
    expect(formatZonedDateTime(at, 'America/New_York', null)).toBe(
      formatZonedDateTime(at, 'America/New_York'),
    );
  });

  it("shows the instant on the zone's clock and names the zone", () => {
    expect(formatZonedDateTime('2026-11-03T19:05:00Z', 'America/New_York')).toBe(
      'Tue 3 Nov 2026, 14:05 (America/New_York)',
    );
    expect(formatZonedDateTime(Date.parse('2026-11-03T19:05:00Z'), 'Asia/Kolkata')).toBe(
      'Wed 4 Nov 2026, 00:35 (Asia/Kolkata)',
    );
  });

  it('follows a daylight-saving change: the same UTC hour reads an hour apart either side', () => {
    expect(formatZonedDateTime('2026-10-31T12:00:00Z', 'America/New_York')).toBe(
      'Sat 31 Oct 2026, 08:00 (America/New_York)',
    );
    expect(formatZonedDateTime('2026-11-02T12:00:00Z', 'America/New_York')).toBe(
      'Mon 2 Nov 2026, 07:00 (America/New_York)',
    );
  });

  it('uses the 24-hour clock at midnight', () => {
    expect(formatZonedDateTime('2026-03-01T00:00:00Z', 'UTC')).toBe('Sun 1 Mar 2026, 00:00 (UTC)');
  });

  it('reads a deprecated zone name that the platform still knows', () => {
    expect(formatZonedDateTime('2026-07-01T12:00:00Z', 'US/Eastern')).toBe(
      'Wed 1 Jul 2026, 08:00 (US/Eastern)',
    );
  });

  it('falls back to UTC, said so, for a zone the platform does not know', () => {
    expect(formatZonedDateTime('2026-07-01T12:00:00Z', 'Mars/Olympus')).toBe('Wed 1 Jul 2026, 12:00 (UTC)');
  });

  it("names the day and month in the reader's language, English as it always read", () => {
    expect(formatZonedDateTime('2026-11-03T19:05:00Z', 'America/New_York', 'en')).toBe(
      'Tue 3 Nov 2026, 14:05 (America/New_York)',
    );
    expect(formatZonedDateTime('2026-11-03T19:05:00Z', 'America/New_York', 'es')).toBe(
      'mar 3 nov 2026, 14:05 (America/New_York)',
    );
    expect(formatZonedTime('2026-11-03T19:05:00Z', 'America/New_York', 'es')).toBe(
      '14:05 (America/New_York)',
    );
  });

  it('is empty for no time or an unreadable one', () => {
    expect(formatZonedDateTime(null, 'UTC')).toBe('');
    expect(formatZonedDateTime('', 'UTC')).toBe('');
    expect(formatZonedDateTime('not a date', 'UTC')).toBe('');
  });
});

describe('formatZonedTime', () => {
  it("gives the time of day alone on the zone's clock, naming the zone", () => {
    expect(formatZonedTime('2026-11-03T19:05:00Z', 'America/New_York')).toBe('14:05 (America/New_York)');
    expect(formatZonedTime('2026-11-03T19:05:00Z', 'Asia/Tokyo')).toBe('04:05 (Asia/Tokyo)');
    expect(formatZonedTime(null, 'Asia/Tokyo')).toBe('');
  });
});
