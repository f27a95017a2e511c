import { WEEKDAYS, type Weekday } from '../../../common/schemas/campaigns';

/** 1 January 2024 was a Monday: the days of that week name the weekdays in any language. */
const MONDAY_UTC = Date.UTC(2024, 0, 1);
const DAY_MS = 24 * 60 * 60 * 1000;

/** A weekday as a sentence of `locale` says it ("Monday", "lunes"). */
export function weekdayName(day: Weekday, locale: string): string {
  const date = new Date(MONDAY_UTC + WEEKDAYS.indexOf(day) * DAY_MS);
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(date);
}

/** A weekday as a list of choices shows it: capitalised, as a label starts ("Lunes"). */
export function weekdayLabel(day: Weekday, locale: string): string {
  const name = weekdayName(day, locale);
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
}

/**
 * A campaign's time of day ("9:00 AM", as the server writes it) on the clock `locale` reads.
 * English keeps the server's own text: the platform's formatter would put a narrow no-break
 * space before "AM".
 */
export function clockTime(time: string, locale: string): string {
  const match = /^(\d{1,2}):(\d{2}) (AM|PM)$/.exec(time);
  if (!match || locale === 'en' || locale.startsWith('en-')) return time;
  const hour = (Number(match[1]) % 12) + (match[3] === 'PM' ? 12 : 0);
  const date = new Date(Date.UTC(2024, 0, 1, hour, Number(match[2])));
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(
    date,
  );
}
