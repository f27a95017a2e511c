import type { QuestionCategory, QuestionType } from '../../../common/schemas/templates';

export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  likert: 'Likert Scale (1-5)',
  text: 'Text Response',
};

export const CATEGORY_LABELS: Record<QuestionCategory, string> = {
  general: 'General Question',
  sleep: 'Sleep Quality',
  stress: 'Stress Level',
  support: 'Support Perception',
  safety: 'Safety / Self-harm screening',
};

/** Spec section 5 plus our safety category (design section 5): text questions are always general. */
export const CATEGORIES_BY_TYPE: Record<QuestionType, readonly QuestionCategory[]> = {
  likert: ['general', 'sleep', 'stress', 'support', 'safety'],
  text: ['general'],
};
