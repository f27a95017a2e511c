import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { z } from 'zod/mini';
import {
  LIKERT_VALUES,
  type LikertValue,
  NewQuestionRequest,
  type QuestionCategory,
  type QuestionType,
} from '../../../common/schemas/templates';

/** The Add New Question form's state, and how it becomes a request (spec sections 4 and 5). */

export const QUESTION_TEXT_REQUIRED = msg`Question text is required.`;
export const ORDER_INVALID = msg`Order must be a whole number of at least 1.`;

type Choices = Record<LikertValue, string>;

export interface QuestionDraft {
  text: string;
  type: QuestionType;
  category: QuestionCategory;
  order: string;
  choices: Choices;
}

const BLANK_CHOICES: Choices = { '1': '', '2': '', '3': '', '4': '', '5': '' };

/** Spec section 4: after a successful add the form returns to likert, general, order 1, blank choices. */
export const EMPTY_QUESTION_DRAFT: QuestionDraft = {
  text: '',
  type: 'likert',
  category: 'general',
  order: '1',
  choices: BLANK_CHOICES,
};

/** The form's own words are read in the language shown; a limit's come from the schema as they are. */
export type DraftError = MessageDescriptor | string;

export interface QuestionDraftErrors {
  text?: DraftError;
  order?: DraftError;
  /** A value the form's fields cannot produce; said with the schema's own words. */
  other?: string;
}

export type NewQuestion = z.output<typeof NewQuestionRequest>;

/** Only the custom answers actually written are sent, and none at all when every one is blank. */
function answerChoicesOf(draft: QuestionDraft): Record<string, string> | undefined {
  if (draft.type !== 'likert') return undefined;
  const given = LIKERT_VALUES.filter((value) => draft.choices[value].trim() !== '');
  return given.length > 0
    ? Object.fromEntries(given.map((value) => [value, draft.choices[value]]))
    : undefined;
}

/**
 * The draft checked by the contract the server applies, and, when it holds, the request as the
 * server will read it (text and choices trimmed, order a number). The two mistakes a person can
 * make here, a blank text and an order below 1, get the form's own words; a value over a limit
 * gets the schema's.
 */
export function checkQuestionDraft(draft: QuestionDraft): {
  request: NewQuestion | null;
  errors: QuestionDraftErrors;
} {
  const answerChoices = answerChoicesOf(draft);
  const parsed = NewQuestionRequest.safeParse({
    question_text: draft.text,
    question_type: draft.type,
    question_category: draft.category,
    order: draft.order,
    ...(answerChoices ? { answer_choices: answerChoices } : {}),
  });
  if (parsed.success) return { request: parsed.data, errors: {} };
  const errors: QuestionDraftErrors = {};
  for (const issue of parsed.error.issues) {
    const overLimit = issue.code === 'too_big';
    if (issue.path[0] === 'question_text') errors.text ??= overLimit ? issue.message : QUESTION_TEXT_REQUIRED;
    else if (issue.path[0] === 'order') errors.order ??= overLimit ? issue.message : ORDER_INVALID;
    else errors.other ??= issue.message;
  }
  return { request: null, errors };
}
