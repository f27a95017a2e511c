/**
 * Names found valid, so each is checked once: building a formatter is costly, and filing every
 * urgent answer's case reads the institution's zone (it showed in a profile of urgent answers
 * under load). Only valid names are kept, so the set grows no larger than the time zone database.
 */
const knownZones = new Set<string>();

/**
 * IANA time zone names, as the platform's own time zone database knows them (the server's Node
 * and the browser alike): an institution's deadlines and digest follow one of these calendars.
 */
export function isTimeZone(name: string): boolean {
  if (knownZones.has(name)) return true;
  if (name.length === 0 || name.length > 64) return false;
  try {
    // Throws a RangeError for a name the database does not know.
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    knownZones.add(name);
    return true;
  } catch {
    return false;
  }
}

/** Every zone the platform lists, for pickers; UTC first. */
export function timeZoneNames(): string[] {
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...listed.filter((name) => name !== 'UTC')];
}
