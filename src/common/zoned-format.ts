/**
 * Dates and times as staff read them: on the institution's clock, saying which clock that is
 * ("Tue 3 Nov 2026, 14:05 (America/New_York)"), so a reader in another zone, or a browser set to
 * another, never takes a deadline for their own local time. One home for the wording: the web
 * screens and the server's mails both use it.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, format);
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
): (Partial<Record<Intl.DateTimeFormatPartTypes, string>> & { zone: string }) | null {
  if (at === null || at === undefined || at === '') return null;
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return null;
  const zone = safeZone(timeZone);
  const parts = Object.fromEntries(
    formatFor(zone)
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return { ...parts, zone };
}

/**
 * `at` (an ISO string or epoch milliseconds) on `timeZone`'s clock, naming the zone; empty for
 * no time or an unreadable one.
 */
export function formatZonedDateTime(at: string | number | null | undefined, timeZone: string): string {
  const parts = zonedParts(at, timeZone);
  if (!parts) return '';
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute} (${parts.zone})`;
}

/** The time of day alone, for what happened moments ago ("14:05 (America/New_York)"); empty for no time. */
export function formatZonedTime(at: string | number | null | undefined, timeZone: string): string {
  const parts = zonedParts(at, timeZone);
  if (!parts) return '';
  return `${parts.hour}:${parts.minute} (${parts.zone})`;
}
