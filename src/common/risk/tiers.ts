export type RiskTier = 'none' | 'monitor' | 'elevated' | 'urgent';

/** Ordered from least to most serious, so a tier's index is its rank. */
export const RISK_TIERS: readonly RiskTier[] = Object.freeze(['none', 'monitor', 'elevated', 'urgent']);

/** Flagged submissions are the ones counsellors are asked to follow up on. */
export function isFlagged(tier: RiskTier): boolean {
  return tier === 'urgent' || tier === 'elevated';
}

export function highestTier(tiers: Iterable<RiskTier>): RiskTier {
  let highest: RiskTier = 'none';
  for (const tier of tiers) {
    if (RISK_TIERS.indexOf(tier) > RISK_TIERS.indexOf(highest)) highest = tier;
  }
  return highest;
}
