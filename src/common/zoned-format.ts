/**
 * Dates and times as staff read them: on the institution's clock, saying which clock that is
 * ("Tue 3 Nov 2026, 14:05 (America/New_York)"), so a reader in another zone, or a browser set to
 * another, never takes a deadline for their own local time. One home for the wording: the web
 * screens and the server's mails both use it.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

/** English is written day first ("Tue 3 Nov 2026"); any other language as its own locale writes it. */
function formatFor(timeZone: string, language = 'en'): Intl.DateTimeFormat {
  const key = `${language} ${timeZone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : language, {
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
    formatFor(timeZone);
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
  language?: string,
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
 * `at` (an ISO string or epoch milliseconds) on `timeZone`'s clock, naming the zone; empty for
 * no time or an unreadable one. In `language`'s words for the day and month (English unless said).
 */
export function formatZonedDateTime(
  at: string | number | null | undefined,
  timeZone: string,
  language?: string | null,
): string {
  const parts = zonedParts(at, timeZone, language ?? undefined);
  if (!parts) return '';
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute} (${parts.zone})`;
}

/** The time of day alone, for what happened moments ago ("14:05 (America/New_York)"); empty for no time. */
export function formatZonedTime(at: string | number | null | undefined, timeZone: string): string {
  const parts = zonedParts(at, timeZone);
  if (!parts) return '';
  return `${parts.hour}:${parts.minute} (${parts.zone})`;
}
