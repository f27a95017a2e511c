import { z } from 'zod/mini';

/** Ordered from least to most serious, so a tier's index is its rank. */
export const RISK_TIERS = ['none', 'monitor', 'elevated', 'urgent'] as const;
export const RiskTier = z.enum(RISK_TIERS);
export type RiskTier = z.infer<typeof RiskTier>;

/** Flagged submissions are the ones counsellors are asked to follow up on; most serious first. */
export const FLAGGED_TIERS = ['urgent', 'elevated'] as const satisfies readonly RiskTier[];

export function isFlagged(tier: RiskTier | null): tier is (typeof FLAGGED_TIERS)[number] {
  return tier !== null && (FLAGGED_TIERS as readonly RiskTier[]).includes(tier);
}

export function highestTier(tiers: Iterable<RiskTier>): RiskTier {
  let highest: RiskTier = 'none';
  for (const tier of tiers) {
    if (RISK_TIERS.indexOf(tier) > RISK_TIERS.indexOf(highest)) highest = tier;
  }
  return highest;
}

/** The screening's rules (design section 5), each of which can raise a submission's tier. */
export const SCREENING_RULES = [
  'safety_answer',
  'crisis_language',
  'concerning_language',
  'wellbeing_answers',
  'category_answers',
  'worsening',
] as const;
export type ScreeningRule = (typeof SCREENING_RULES)[number];
