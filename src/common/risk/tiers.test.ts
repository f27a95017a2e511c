import { describe, expect, it } from 'vitest';
import { highestTier, isFlagged, RISK_TIERS } from './tiers';

describe('risk tiers', () => {
  it('are ordered from none to urgent', () => {
    expect(RISK_TIERS).toEqual(['none', 'monitor', 'elevated', 'urgent']);
  });

  it('flag only elevated and urgent', () => {
    expect(RISK_TIERS.filter(isFlagged)).toEqual(['elevated', 'urgent']);
  });

  it('pick the most serious tier', () => {
    expect(highestTier(['monitor', 'urgent', 'elevated'])).toBe('urgent');
    expect(highestTier([])).toBe('none');
  });
});
