import { describe, expect, it } from 'vitest';
import { timeZoneGroups } from './time-zones';

describe('timeZoneGroups', () => {
  it('groups current zone names by region, UTC first, without deprecated names', () => {
    const groups = timeZoneGroups();
    expect(groups[0]).toEqual({ region: 'UTC', zones: ['UTC'] });
    const america = groups.find((group) => group.region === 'America');
    expect(america?.zones).toContain('America/New_York');
    expect(america?.zones.every((zone) => zone.startsWith('America/'))).toBe(true);
    const all = groups.flatMap((group) => group.zones);
    expect(all).not.toContain('US/Eastern');
    expect(new Set(all).size).toBe(all.length);
  });

  it('keeps a stored deprecated zone, in its own region, so it still shows', () => {
    const groups = timeZoneGroups('US/Eastern');
    expect(groups.find((group) => group.region === 'US')?.zones).toEqual(['US/Eastern']);
    expect(
      timeZoneGroups('Europe/London')
        .flatMap((group) => group.zones)
        .filter((z) => z === 'Europe/London'),
    ).toHaveLength(1);
  });
});
