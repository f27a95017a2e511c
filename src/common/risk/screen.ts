import {
  CATEGORY_NAMES,
  isLikertValue,
  LIKERT_MAX,
  LIKERT_MIN,
  QUESTION_CATEGORIES,
  QUESTION_TYPES,
  type QuestionCategory,
  type QuestionType,
} from '../schemas/templates';
import { scanText } from './scan-text';
import { highestTier, RISK_TIERS, type RiskTier } from './tiers';

export interface ScreenedAnswer {
  questionType: QuestionType;
  category: QuestionCategory;
  /** Likert: "1" (Excellent / Never) to "5" (Very Poor / Almost always). Text: the written answer. */
  value: string;
}

interface ScreeningInput {
  answers: readonly ScreenedAnswer[];
  /** `likertMean` of the student's previous submission, if there was one. */
  previousLikertMean?: number | null;
}

export interface RiskResult {
  tier: RiskTier;
  /** Every rule that applied, most serious first, worded for counselling staff. */
  reasons: string[];
  /** Mean of the non-safety Likert answers; safety answers are judged one by one instead. */
  likertMean: number | null;
  /** Mean Likert score of each category answered, safety included. */
  categoryMeans: Partial<Record<QuestionCategory, number>>;
}

export const NEEDS_HUMAN_REVIEW = 'needs human review';

type WellbeingCategory = Exclude<QuestionCategory, 'safety'>;
const WELLBEING_CATEGORIES = QUESTION_CATEGORIES.filter(
  (category): category is WellbeingCategory => category !== 'safety',
);
/** Anything above "Never" on a safety question needs same-day outreach. */
const URGENT_SAFETY_SCORE = 2;
/** 4 is "Poor" on the survey scale. */
const POOR_SCORE = 4;
const WORSENING_STEP = 1;
/** Means are binary fractions: 3.3 - 2.3 is 0.9999999999999996, which must still count as a full step. */
const TOLERANCE = 1e-9;

type ActiveTier = Exclude<RiskTier, 'none'>;

interface Finding {
  tier: ActiveTier;
  reason: string;
}

interface LikertScore {
  category: QuestionCategory;
  score: number;
}

export function screenSubmission(input: ScreeningInput): RiskResult {
  const answers = input.answers.map(checkedAnswer);
  const scores = answers.filter((answer) => answer.questionType === 'likert').map(toLikertScore);
  const safetyScores = scores.filter((score) => score.category === 'safety').map((score) => score.score);
  const wellbeingScores = scores.filter((score) => score.category !== 'safety');
  const likertMean = mean(wellbeingScores.map((score) => score.score));
  const categoryMeans = meansByCategory(scores);
  const texts = answers.filter((answer) => answer.questionType === 'text').map((answer) => answer.value);

  const findings: Finding[] = [
    ...safetyFindings(safetyScores),
    ...writtenAnswerFindings(texts),
    ...overallMeanFindings(likertMean),
    ...categoryMeanFindings(categoryMeans),
    ...worseningFindings(likertMean, validPreviousMean(input.previousLikertMean)),
  ].sort((a, b) => RISK_TIERS.indexOf(b.tier) - RISK_TIERS.indexOf(a.tier));

  return {
    tier: highestTier(findings.map((finding) => finding.tier)),
    reasons: findings.map((finding) => finding.reason),
    likertMean,
    categoryMeans,
  };
}

/**
 * Screening must never let a submission through unscreened: if anything goes wrong, the
 * submission is treated as elevated so that a person looks at it.
 */
export function screenSubmissionSafely(
  input: ScreeningInput,
  screen: typeof screenSubmission = screenSubmission,
): RiskResult {
  try {
    return screen(input);
  } catch {
    return { tier: 'elevated', reasons: [NEEDS_HUMAN_REVIEW], likertMean: null, categoryMeans: {} };
  }
}

function safetyFindings(safetyScores: readonly number[]): Finding[] {
  const concerning = safetyScores.filter((score) => score >= URGENT_SAFETY_SCORE);
  if (concerning.length === 0) return [];
  const highest = Math.max(...concerning);
  const reason =
    concerning.length === 1
      ? `Safety question answered ${highest} of 5`
      : `${concerning.length} safety questions answered ${URGENT_SAFETY_SCORE} or more, highest ${highest} of 5`;
  return [{ tier: 'urgent', reason }];
}

function writtenAnswerFindings(texts: readonly string[]): Finding[] {
  const severities = new Set(texts.map((text) => scanText(text).severity));
  const findings: Finding[] = [];
  if (severities.has('high'))
    findings.push({ tier: 'urgent', reason: 'Crisis language in a written answer' });
  if (severities.has('medium'))
    findings.push({ tier: 'elevated', reason: 'Concerning language in a written answer' });
  return findings;
}

function overallMeanFindings(likertMean: number | null): Finding[] {
  if (likertMean === null || !reaches(likertMean, POOR_SCORE)) return [];
  return [{ tier: 'elevated', reason: `Average wellbeing score ${formatScore(likertMean)} of 5` }];
}

function categoryMeanFindings(categoryMeans: RiskResult['categoryMeans']): Finding[] {
  return WELLBEING_CATEGORIES.flatMap((category) => {
    const categoryMean = categoryMeans[category];
    if (categoryMean === undefined || !reaches(categoryMean, POOR_SCORE)) return [];
    const reason = `${CATEGORY_NAMES[category]} questions average ${formatScore(categoryMean)} of 5`;
    return [{ tier: 'monitor', reason }];
  });
}

/** Higher scores are worse, so an increase is a decline in wellbeing. */
function worseningFindings(likertMean: number | null, previousMean: number | null): Finding[] {
  if (likertMean === null || previousMean === null) return [];
  const worsening = likertMean - previousMean;
  if (!reaches(worsening, WORSENING_STEP)) return [];
  return [
    { tier: 'monitor', reason: `Wellbeing worsened by ${formatScore(worsening)} since the last check-in` },
  ];
}

/** Answers come from stored data; anything unexpected must stop screening rather than be skipped. */
function checkedAnswer(answer: ScreenedAnswer): ScreenedAnswer {
  if (!(QUESTION_TYPES as readonly string[]).includes(answer.questionType)) {
    throw new RangeError(`Unknown question type: ${String(answer.questionType)}`);
  }
  if (!(QUESTION_CATEGORIES as readonly string[]).includes(answer.category)) {
    throw new RangeError(`Unknown question category: ${String(answer.category)}`);
  }
  if (typeof answer.value !== 'string') throw new TypeError('Answer value must be a string');
  return answer;
}

function toLikertScore(answer: ScreenedAnswer): LikertScore {
  const value = answer.value.trim();
  if (!isLikertValue(value)) throw new RangeError(`Likert answer out of range: ${value}`);
  return { category: answer.category, score: Number(value) };
}

function validPreviousMean(previousMean: number | null | undefined): number | null {
  if (previousMean === null || previousMean === undefined) return null;
  if (!Number.isFinite(previousMean) || previousMean < LIKERT_MIN || previousMean > LIKERT_MAX) {
    throw new RangeError(`Previous Likert mean out of range: ${previousMean}`);
  }
  return previousMean;
}

function meansByCategory(scores: readonly LikertScore[]): RiskResult['categoryMeans'] {
  const means: RiskResult['categoryMeans'] = {};
  for (const category of QUESTION_CATEGORIES) {
    const categoryMean = mean(
      scores.filter((score) => score.category === category).map((score) => score.score),
    );
    if (categoryMean !== null) means[category] = categoryMean;
  }
  return means;
}

function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function reaches(value: number, threshold: number): boolean {
  return value >= threshold - TOLERANCE;
}

function formatScore(value: number): string {
  return value.toFixed(1);
}
