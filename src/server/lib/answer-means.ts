import { isLikertValue } from '../../common/schemas/templates';
import type { AnswersTable } from '../db/types';

/**
 * The arithmetic of a submission's Likert answers by category, free of any database: the
 * dashboard's rollups sum it and a case compares a student with their own baseline by it.
 */

export type QuestionCategory = AnswersTable['category'];

/** One stored answer, as far as the arithmetic needs it. */
export interface RecordedAnswer {
  category: QuestionCategory;
  questionType: 'likert' | 'text';
  value: string;
}

function likertValue(answer: RecordedAnswer): number | null {
  if (answer.questionType !== 'likert') return null;
  const value = answer.value.trim();
  return isLikertValue(value) ? Number(value) : null;
}

export function likertValuesByCategory(answers: readonly RecordedAnswer[]) {
  const values: Partial<Record<QuestionCategory, number[]>> = {};
  for (const answer of answers) {
    const value = likertValue(answer);
    if (value === null) continue;
    const list = values[answer.category] ?? [];
    list.push(value);
    values[answer.category] = list;
  }
  return values;
}

export const mean = (list: readonly number[] | undefined) =>
  list?.length ? list.reduce((sum, value) => sum + value, 0) / list.length : null;

export type CategoryMeans = Partial<Record<QuestionCategory, number>>;

/** Mean Likert value per category a submission asked (1 = best, 5 = worst). */
export function categoryMeans(answers: readonly RecordedAnswer[]): CategoryMeans {
  const means: CategoryMeans = {};
  for (const [category, list] of Object.entries(likertValuesByCategory(answers))) {
    const value = mean(list);
    if (value !== null) means[category as QuestionCategory] = value;
  }
  return means;
}

/**
 * A student's own baseline: per category, the mean of the category means of the given earlier
 * (proven) submissions. Each student is compared with themselves, not with others.
 */
export function baselineOf(earlier: readonly CategoryMeans[]): CategoryMeans {
  const lists: Partial<Record<QuestionCategory, number[]>> = {};
  for (const means of earlier) {
    for (const [category, value] of Object.entries(means)) {
      const list = lists[category as QuestionCategory] ?? [];
      list.push(value);
      lists[category as QuestionCategory] = list;
    }
  }
  const baseline: CategoryMeans = {};
  for (const [category, list] of Object.entries(lists)) {
    const value = mean(list);
    if (value !== null) baseline[category as QuestionCategory] = value;
  }
  return baseline;
}

/** Each category's change from the baseline (positive = worse); categories missing on either side are left out. */
export function changeFromBaseline(means: CategoryMeans, baseline: CategoryMeans): CategoryMeans {
  const change: CategoryMeans = {};
  for (const [category, value] of Object.entries(means)) {
    const base = baseline[category as QuestionCategory];
    if (base !== undefined) change[category as QuestionCategory] = Math.round((value - base) * 100) / 100;
  }
  return change;
}
