import {
  CATEGORY_NAMES,
  isLikertValue,
  LIKERT_LABELS,
  LIKERT_MAX,
  LIKERT_MIN,
  type LikertValue,
  QUESTION_CATEGORIES,
  QUESTION_TYPES,
  type QuestionCategory,
  type QuestionType,
} from '../schemas/templates';
import { scanText } from './scan-text';
import { highestTier, RISK_TIERS, type RiskTier, type ScreeningRule } from './tiers';

export interface ScreenedAnswer {
  questionType: QuestionType;
  category: QuestionCategory;
  /** Likert: "1" (Excellent / Never) to "5" (Very Poor / Almost always). Text: the written answer. */
  value: string;
  /** Likert: the words the student saw for the value ("Often"); the survey's own label when absent. */
  label?: string;
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
  /** The same, each with the rule and the tier it raised. */
  findings: ScreeningFinding[];
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
const LIKERT_VALUE_MAX: LikertValue = '5';
/** 4 is "Poor" on the survey scale. */
const POOR_SCORE = 4;
const WORSENING_STEP = 1;
/** Means are binary fractions: 3.3 - 2.3 is 0.9999999999999996, which must still count as a full step. */
const TOLERANCE = 1e-9;

type ActiveTier = Exclude<RiskTier, 'none'>;

export interface ScreeningFinding {
  tier: ActiveTier;
  rule: ScreeningRule;
  /** In the survey's own words, e.g. "Answered 'Often' to the self-harm question". */
  reason: string;
}

interface LikertScore {
  category: QuestionCategory;
  score: number;
  /** What the student saw for the score. */
  label: string;
}

export function screenSubmission(input: ScreeningInput): RiskResult {
  const answers = input.answers.map(checkedAnswer);
  const scores = answers.filter((answer) => answer.questionType === 'likert').map(toLikertScore);
  const safetyScores = scores.filter((score) => score.category === 'safety');
  const wellbeingScores = scores.filter((score) => score.category !== 'safety');
  const likertMean = mean(wellbeingScores.map((score) => score.score));
  const categoryMeans = meansByCategory(scores);
  const texts = answers.filter((answer) => answer.questionType === 'text').map((answer) => answer.value);

  const findings: ScreeningFinding[] = [
    ...safetyFindings(safetyScores),
    ...writtenAnswerFindings(texts),
    ...overallMeanFindings(likertMean, wellbeingScores),
    ...categoryMeanFindings(categoryMeans, wellbeingScores),
    ...worseningFindings(likertMean, validPreviousMean(input.previousLikertMean)),
  ].sort((a, b) => RISK_TIERS.indexOf(b.tier) - RISK_TIERS.indexOf(a.tier));

  return {
    tier: highestTier(findings.map((finding) => finding.tier)),
    reasons: findings.map((finding) => finding.reason),
    findings,
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
    return {
      tier: 'elevated',
      reasons: [NEEDS_HUMAN_REVIEW],
      findings: [],
      likertMean: null,
      categoryMeans: {},
    };
  }
}

function safetyFindings(safetyScores: readonly LikertScore[]): ScreeningFinding[] {
  const concerning = safetyScores
    .filter((score) => score.score >= URGENT_SAFETY_SCORE)
    .sort((a, b) => b.score - a.score);
  if (concerning.length === 0) return [];
  const answered = listOr(concerning.map((score) => `'${score.label}'`));
  const reason =
    concerning.length === 1
      ? `Answered ${answered} to the self-harm question`
      : `Answered ${answered} to ${concerning.length} self-harm questions`;
  return [{ tier: 'urgent', rule: 'safety_answer', reason }];
}

function writtenAnswerFindings(texts: readonly string[]): ScreeningFinding[] {
  const severities = new Set(texts.map((text) => scanText(text).severity));
  const findings: ScreeningFinding[] = [];
  if (severities.has('high'))
    findings.push({ tier: 'urgent', rule: 'crisis_language', reason: 'Crisis language in a written answer' });
  if (severities.has('medium'))
    findings.push({
      tier: 'elevated',
      rule: 'concerning_language',
      reason: 'Concerning language in a written answer',
    });
  return findings;
}

function overallMeanFindings(
  likertMean: number | null,
  wellbeingScores: readonly LikertScore[],
): ScreeningFinding[] {
  if (likertMean === null || !reaches(likertMean, POOR_SCORE)) return [];
  const reason = poorAnswersReason(wellbeingScores, 'wellbeing');
  return [{ tier: 'elevated', rule: 'wellbeing_answers', reason }];
}

function categoryMeanFindings(
  categoryMeans: RiskResult['categoryMeans'],
  wellbeingScores: readonly LikertScore[],
): ScreeningFinding[] {
  return WELLBEING_CATEGORIES.flatMap((category) => {
    const categoryMean = categoryMeans[category];
    if (categoryMean === undefined || !reaches(categoryMean, POOR_SCORE)) return [];
    const scores = wellbeingScores.filter((score) => score.category === category);
    const reason = poorAnswersReason(scores, CATEGORY_NAMES[category].toLowerCase());
    return [{ tier: 'monitor', rule: 'category_answers', reason }];
  });
}

/**
 * "Answered Very Poor or Poor to 4 of 5 wellbeing questions": what the student chose, not a
 * mean, which on a scale where 5 is the worst reads like a good mark.
 */
function poorAnswersReason(scores: readonly LikertScore[], questions: string): string {
  const poor = scores.filter((score) => score.score >= POOR_SCORE).sort((a, b) => b.score - a.score);
  const answered = listOr([...new Set(poor.map((score) => score.label))]);
  return scores.length === 1
    ? `Answered ${answered} to the ${questions} question`
    : `Answered ${answered} to ${poor.length} of ${scores.length} ${questions} questions`;
}

/** Higher scores are worse, so an increase is a decline in wellbeing. */
function worseningFindings(likertMean: number | null, previousMean: number | null): ScreeningFinding[] {
  if (likertMean === null || previousMean === null) return [];
  const worsening = likertMean - previousMean;
  if (!reaches(worsening, WORSENING_STEP)) return [];
  const reason =
    `Wellbeing answers ${formatScore(worsening)} closer to ${LIKERT_LABELS[LIKERT_VALUE_MAX]} than at ` +
    `the last check-in (average ${formatScore(likertMean)}, was ${formatScore(previousMean)})`;
  return [{ tier: 'monitor', rule: 'worsening', reason }];
}

/** "'Often'", "'Often' or 'Sometimes'", "Very Poor, Poor or Uncomfortable". */
function listOr(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
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
  return {
    category: answer.category,
    score: Number(value),
    label: answer.label?.trim() || LIKERT_LABELS[value],
  };
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
