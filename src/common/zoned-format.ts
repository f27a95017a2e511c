/**
 * Dates and times as staff read them: on the institution's clock, saying which clock that is
 * ("Tue 3 Nov 2026, 14:05 (America/New_York)"), so a reader in another zone, or a browser set to
 * another, never takes a deadline for their own local time. One home for the wording: the web
 * screens and the server's mails both use it.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * English reads "Tue 3 Nov 2026, 14:05": the day before the month and a 24-hour clock, as
 * British English writes them. Another language writes the names its own way.
 */
const ENGLISH = 'en-GB';

function formatFor(timeZone: string, language: string): Intl.DateTimeFormat {
  const locale = language === 'en' || language.startsWith('en-') ? ENGLISH : language;
  const key = `${locale} ${timeZone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(key, format);
  }
  return format;
}

function safeZone(timeZone: string): string {
  try {
    formatFor(timeZone, ENGLISH);
    return timeZone;
  } catch {
    // A zone this platform does not know (a stored name from a newer database): UTC, said so.
    return 'UTC';
  }
}

/** The clock's parts of `at` on `timeZone` (UTC for a zone this platform lacks); null for no time. */
function zonedParts(
  at: string | number | null | undefined,
  timeZone: string,
  language: string,
): (Partial<Record<Intl.DateTimeFormatPartTypes, string>> & { zone: string }) | null {
  if (at === null || at === undefined || at === '') return null;
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return null;
  const zone = safeZone(timeZone);
  const parts = Object.fromEntries(
    formatFor(zone, language)
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return { ...parts, zone };
}

/**
 * `at` (an ISO string or epoch milliseconds) on `timeZone`'s clock, naming the zone, with the
 * day and month named in `language` (English unless given); empty for no time or an unreadable one.
 */
export function formatZonedDateTime(
  at: string | number | null | undefined,
  timeZone: string,
  language?: string | null,
): string {
  const parts = zonedParts(at, timeZone, language ?? ENGLISH);
  if (!parts) return '';
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute} (${parts.zone})`;
}

/** The time of day alone, for what happened moments ago ("14:05 (America/New_York)"); empty for no time. */
export function formatZonedTime(
  at: string | number | null | undefined,
  timeZone: string,
  language = ENGLISH,
): string {
  const parts = zonedParts(at, timeZone, language);
  if (!parts) return '';
  return `${parts.hour}:${parts.minute} (${parts.zone})`;
}
