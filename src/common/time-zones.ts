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

export interface TimeZoneGroup {
  /** The part of the names before the first '/', e.g. "America"; "UTC" for UTC itself. */
  region: string;
  zones: string[];
}

/**
 * The platform's current zone names grouped by region, for a picker: UTC first, then each region
 * in order. `current` (a stored name, perhaps a deprecated one such as "US/Eastern" that the
 * platform no longer lists) is kept in its region, so it still shows and stays chosen.
 */
export function timeZoneGroups(current?: string): TimeZoneGroup[] {
  const names = timeZoneNames();
  if (current && !names.includes(current)) names.push(current);
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const region = name.includes('/') ? (name.split('/')[0] as string) : name;
    groups.set(region, [...(groups.get(region) ?? []), name]);
  }
  const utc = groups.get('UTC') ?? [];
  groups.delete('UTC');
  const regions = [...groups.keys()].sort();
  return [
    { region: 'UTC', zones: utc },
    ...regions.map((region) => ({ region, zones: (groups.get(region) ?? []).sort() })),
  ];
}
