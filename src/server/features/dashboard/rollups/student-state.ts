import { FLAGGED_TIERS, isFlagged } from '../../../../common/risk/tiers';
import type { SubmissionsTable } from '../../../db/types';
import { likertValuesByCategory, mean, type RecordedAnswer } from '../../../lib/answer-means';

/**
 * The arithmetic of the rollups, free of any database: what one submission adds, and what a
 * student's latest submission contributes to the latest-submission counters. The incremental
 * path (in the submit transaction) and the full rebuild both go through these functions, so
 * they cannot disagree.
 */

export type { RecordedAnswer } from '../../../lib/answer-means';

export type RiskTier = SubmissionsTable['tier'];

/** What the dashboard remembers of a student's latest submission. */
export interface LatestSubmission {
  submissionId: number;
  submittedAt: number;
  tier: RiskTier;
  sleepMean: number | null;
  stressMean: number | null;
}

/** Counters that depend only on each student's latest submission. */
export interface LatestCounters {
  flagged_students: number;
  stable_students: number;
  good_sleep: number;
  poor_sleep: number;
  low_stress: number;
  moderate_stress: number;
  high_stress: number;
}

const ZERO_LATEST_COUNTERS: Readonly<LatestCounters> = Object.freeze({
  flagged_students: 0,
  stable_students: 0,
  good_sleep: 0,
  poor_sleep: 0,
  low_stress: 0,
  moderate_stress: 0,
  high_stress: 0,
});

interface AnswerSummary {
  sleepMean: number | null;
  stressMean: number | null;
  supportAnswers: number;
  /** Support answers of Good or Excellent (1 or 2 on the 5 = Very Poor scale). */
  supportPositive: number;
}

/** Sort key of the flagged list: the most serious flagged tier first; the rest are not listed. */
export function flagPriority(tier: RiskTier | null): number {
  return isFlagged(tier) ? FLAGGED_TIERS.length - FLAGGED_TIERS.indexOf(tier) : 0;
}

export function summariseAnswers(answers: readonly RecordedAnswer[]): AnswerSummary {
  const values = likertValuesByCategory(answers);
  const support = values.support ?? [];
  return {
    sleepMean: mean(values.sleep),
    stressMean: mean(values.stress),
    supportAnswers: support.length,
    supportPositive: support.filter((value) => value <= 2).length,
  };
}

/** Newest by time; the larger id breaks ties, as it was stored later. */
export function isNewer(candidate: LatestSubmission, current: LatestSubmission | null): boolean {
  if (!current) return true;
  if (candidate.submittedAt !== current.submittedAt) return candidate.submittedAt > current.submittedAt;
  return candidate.submissionId > current.submissionId;
}

/** What one student contributes to the latest-submission counters (all zero before any submission). */
export function latestContribution(latest: LatestSubmission | null): LatestCounters {
  if (!latest) return { ...ZERO_LATEST_COUNTERS };
  const flagged = isFlagged(latest.tier);
  const { sleepMean: sleep, stressMean: stress } = latest;
  return {
    flagged_students: flagged ? 1 : 0,
    stable_students: flagged ? 0 : 1,
    good_sleep: sleep !== null && sleep <= 2 ? 1 : 0,
    poor_sleep: sleep !== null && sleep >= 4 ? 1 : 0,
    low_stress: stress !== null && stress <= 2 ? 1 : 0,
    moderate_stress: stress !== null && stress > 2 && stress < 4 ? 1 : 0,
    high_stress: stress !== null && stress >= 4 ? 1 : 0,
  };
}

/** Counter changes when a student's latest submission goes from `before` to `after`. */
export function latestDelta(before: LatestSubmission | null, after: LatestSubmission | null): LatestCounters {
  const removed = latestContribution(before);
  const added = latestContribution(after);
  const delta = { ...ZERO_LATEST_COUNTERS };
  for (const key of Object.keys(delta) as (keyof LatestCounters)[]) delta[key] = added[key] - removed[key];
  return delta;
}
