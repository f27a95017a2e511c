import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { QuestionCategory, QuestionType } from '../../../common/schemas/templates';

export const QUESTION_TYPE_LABELS: Record<QuestionType, MessageDescriptor> = {
  likert: msg`Likert Scale (1-5)`,
  text: msg`Text Response`,
};

export const CATEGORY_LABELS: Record<QuestionCategory, MessageDescriptor> = {
  general: msg`General Question`,
  sleep: msg`Sleep Quality`,
  stress: msg`Stress Level`,
  support: msg`Support Perception`,
  safety: msg`Safety / Self-harm screening`,
};

/** Spec section 5 plus our safety category (design section 5): text questions are always general. */
export const CATEGORIES_BY_TYPE: Record<QuestionType, readonly QuestionCategory[]> = {
  likert: ['general', 'sleep', 'stress', 'support', 'safety'],
  text: ['general'],
};
