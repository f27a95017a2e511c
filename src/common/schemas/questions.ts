import { z } from 'zod/mini';
import { LIKERT_LABELS } from './likert-labels';
import { INSTRUMENT_BLOCK, isLikertValue, LIKERT_VALUES } from './values';

/**
 * The words of a survey question as both a template and the survey that asks it use them: its
 * type, category and Likert answers. A module of its own, so the survey screens carry these and
 * not the whole contract of template management (templates.ts, which re-exports them).
 */

export const QUESTION_TYPES = ['likert', 'text'] as const;
export const QuestionType = z.enum(QUESTION_TYPES, { error: 'Question type must be likert or text' });
export type QuestionType = z.infer<typeof QuestionType>;

/**
 * A validated instrument in a template is stored as a question of this type (design section 13):
 * a locked block whose wording, item order and scale come from src/common/instruments only.
 */
export { INSTRUMENT_BLOCK };
export type StoredQuestionType = QuestionType | typeof INSTRUMENT_BLOCK;

/** safety is ours (design section 5): items about self-harm, screened as urgent from 2 up. */
export const QUESTION_CATEGORIES = ['general', 'sleep', 'stress', 'support', 'safety'] as const;
export const QuestionCategory = z.enum(QUESTION_CATEGORIES, {
  error: `Category must be one of ${QUESTION_CATEGORIES.join(', ')}`,
});
export type QuestionCategory = z.infer<typeof QuestionCategory>;

export { LIKERT_VALUES };
export const LikertValue = z.enum(LIKERT_VALUES);
export type LikertValue = z.infer<typeof LikertValue>;
export const LIKERT_MIN = 1;
export const LIKERT_MAX = LIKERT_VALUES.length;

export { isLikertValue, LIKERT_LABELS };

/** Custom label text for some of the Likert values; the emoji stay fixed (spec section 2). */
export const AnswerChoices = z.partialRecord(LikertValue, z.string());
export type AnswerChoices = z.infer<typeof AnswerChoices>;

/** The words a student saw for a Likert value: the question's own label for it, else the survey's. */
export function likertLabel(value: LikertValue, custom: AnswerChoices | null | undefined): string {
  return custom?.[value]?.trim() || LIKERT_LABELS[value];
}

/**
 * A language as a request names it: the rule of common/languages.ts's LanguageTag, in zod's small
 * build (that module's full one would weigh on every page). Which languages exist, the server says.
 */
export const Language = z
  .string({ error: 'Language must be text' })
  .check(z.regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, 'Language must be a language tag such as "es" or "pt-BR"'));
