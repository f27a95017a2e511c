import { highestTier, RISK_TIERS, type RiskTier } from '../risk/tiers';
import { ASQ_OUTCOMES } from './asq';
import { PHQ_FREQUENCY_SCALE } from './phq-family';
import type { InstrumentResult } from './score';
import { labelFor } from './scoring';
import { WHO5_POOR_BELOW } from './who5';

/*
 * What each result asks of staff (design section 13). Thresholds, most serious first:
 * - ASQ question 5 yes: urgent, acute.
 * - ASQ positive otherwise (a yes or a refusal on 1-4), or PHQ-9 item 9 above "Not at all"
 *   whatever the total: urgent, with a brief safety assessment asked for.
 * - PHQ-9 >= 10, GAD-7 >= 10, K10 >= 30: elevated.
 * - WHO-5 raw < 13, PHQ-9 5-9, GAD-7 5-9, K10 20-29: monitor.
 * - Otherwise none. A PHQ-2 or GAD-2 below its cut point is none: the full form was not asked.
 * The tier names are the risk engine's (src/common/risk/tiers.ts), so free-text screening and
 * instruments combine with `highestTier`.
 */
export const INSTRUMENT_THRESHOLDS = {
  phq9Elevated: 10,
  phq9Monitor: 5,
  gad7Elevated: 10,
  gad7Monitor: 5,
  k10Elevated: 30,
  k10Monitor: 20,
} as const;

export interface FollowUp {
  readonly tier: RiskTier;
  /** Imminent risk identified (ASQ question 5 yes): staff act now, not within the day. */
  readonly acute: boolean;
  /** A brief safety assessment is asked for (always true when acute). */
  readonly safetyAssessment: boolean;
  /** Plain words for staff, e.g. "PHQ-9 total 15 (moderately severe depression); item 9 ...". */
  readonly reason: string;
}

/** Shown beside every score and band: staff must not read a screen as a diagnosis. */
export const SCREENING_DISCLAIMER = 'screening result, not a diagnosis';

function followUp(
  tier: RiskTier,
  reason: string,
  flags: { acute?: boolean; safetyAssessment?: boolean } = {},
) {
  const acute = flags.acute ?? false;
  return {
    tier,
    acute,
    safetyAssessment: acute || (flags.safetyAssessment ?? false),
    reason,
  } satisfies FollowUp;
}

function numbers(list: readonly number[]): string {
  return list.length === 1 ? `question ${list[0]}` : `questions ${list.join(', ')}`;
}

function asqReason(result: Extract<InstrumentResult, { kind: 'asq' }>): string {
  const parts: string[] = [];
  if (result.yesTo.length > 0) parts.push(`'Yes' to ${numbers(result.yesTo)}`);
  if (result.declined.length > 0) parts.push(`declined to answer ${numbers(result.declined)}`);
  if (result.acuity === 'yes') parts.push("question 5 answered 'Yes'");
  if (result.acuity === 'no') parts.push("question 5 answered 'No'");
  if (result.acuity === 'declined') parts.push('declined to answer question 5, so acuity is not known');
  const outcome = ASQ_OUTCOMES[result.outcome];
  return parts.length > 0 ? `ASQ ${outcome}: ${parts.join('; ')}` : `ASQ ${outcome}`;
}

export function followUpFor(result: InstrumentResult): FollowUp {
  const t = INSTRUMENT_THRESHOLDS;
  switch (result.kind) {
    case 'asq': {
      const reason = asqReason(result);
      if (result.outcome === 'acutePositive') return followUp('urgent', reason, { acute: true });
      if (result.outcome === 'nonAcutePositive')
        return followUp('urgent', reason, { safetyAssessment: true });
      return followUp('none', reason);
    }
    case 'phq9': {
      let reason = `PHQ-9 total ${result.total} (${result.band.label})`;
      if (result.selfHarmAnswer >= 1) {
        reason += `; item 9 answered '${labelFor(PHQ_FREQUENCY_SCALE, result.selfHarmAnswer)}'`;
        return followUp('urgent', reason, { safetyAssessment: true });
      }
      if (result.total >= t.phq9Elevated) return followUp('elevated', reason);
      return followUp(result.total >= t.phq9Monitor ? 'monitor' : 'none', reason);
    }
    case 'gad7': {
      const reason = `GAD-7 total ${result.total} (${result.band.label})`;
      if (result.total >= t.gad7Elevated) return followUp('elevated', reason);
      return followUp(result.total >= t.gad7Monitor ? 'monitor' : 'none', reason);
    }
    case 'k10': {
      const reason = `K10 total ${result.total} (${result.band.label})`;
      if (result.total >= t.k10Elevated) return followUp('elevated', reason);
      return followUp(result.total >= t.k10Monitor ? 'monitor' : 'none', reason);
    }
    case 'who5': {
      const named = result.band ? ` (${result.band.label})` : '';
      const reason = `WHO-5 raw score ${result.total}, ${result.percentage}%${named}`;
      return followUp(result.total < WHO5_POOR_BELOW ? 'monitor' : 'none', reason);
    }
    case 'phq2':
      return followUp('none', `PHQ-2 total ${result.total}, below 3: the rest of the PHQ-9 was not asked`);
    case 'gad2':
      return followUp('none', `GAD-2 total ${result.total}, below 3: the rest of the GAD-7 was not asked`);
  }
}

export interface CombinedFollowUp {
  readonly tier: RiskTier;
  readonly acute: boolean;
  readonly safetyAssessment: boolean;
  /** The reasons of every result that asks for anything, most serious first. */
  readonly reasons: readonly string[];
}

/** A submission's follow-up across its instruments: the highest tier, and every reason behind it. */
export function combinedFollowUp(results: readonly InstrumentResult[]): CombinedFollowUp {
  return combineFollowUps(results.map(followUpFor));
}

/** The same from each result's follow-up, for a caller that has them already. */
export function combineFollowUps(each: readonly FollowUp[]): CombinedFollowUp {
  const raising = each
    .filter((entry) => entry.tier !== 'none')
    .sort((a, b) => RISK_TIERS.indexOf(b.tier) - RISK_TIERS.indexOf(a.tier));
  return {
    tier: highestTier(each.map((entry) => entry.tier)),
    acute: each.some((entry) => entry.acute),
    safetyAssessment: each.some((entry) => entry.safetyAssessment),
    reasons: raising.map((entry) => entry.reason),
  };
}
