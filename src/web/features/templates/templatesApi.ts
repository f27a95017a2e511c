import * as endpoints from '../../../common/endpoints/templates';
import type {
  NewInstrumentBlockRequest,
  NewQuestionRequest,
  SetTranslationRequest,
} from '../../../common/schemas/templates';
import { ApiError, api, hasErrorCode } from '../../api';

/** Cache keys: the dashboard reads the same template list for its Copy Survey Link button. */
export const TEMPLATES_QUERY_KEY = ['survey-templates'] as const;
export const questionsQueryKey = (templateId: number) =>
  ['survey-templates', templateId, 'questions'] as const;

export async function fetchTemplates() {
  const { templates } = await api.call(endpoints.listTemplates);
  return templates;
}

export function createTemplate() {
  return api.call(endpoints.createTemplate);
}

export function activateTemplate(templateId: number) {
  return api.call(endpoints.activateTemplate, { params: { id: templateId } });
}

export function deleteTemplate(templateId: number) {
  return api.call(endpoints.deleteTemplate, { body: { template_id: templateId } });
}

export async function fetchQuestions(templateId: number) {
  const { questions } = await api.call(endpoints.listQuestions, { params: { id: templateId } });
  return questions;
}

export function addQuestion(templateId: number, question: NewQuestionRequest) {
  return api.call(endpoints.addQuestion, { params: { id: templateId }, body: question });
}

export function addInstrumentBlock(templateId: number, block: NewInstrumentBlockRequest) {
  return api.call(endpoints.addInstrument, { params: { id: templateId }, body: block });
}

/** Gives a question (or an instrument block, whole) a new order; nothing else of it changes. */
export function moveQuestion(templateId: number, questionId: number, order: number) {
  return api.call(endpoints.moveQuestion, {
    params: { id: templateId, questionId },
    body: {
      order,
    },
  });
}

export function deleteQuestion(templateId: number, questionId: number) {
  return api.call(endpoints.deleteQuestion, {
    params: { id: templateId },
    body: {
      question_id: questionId,
    },
  });
}

/**
 * The message for a failed template call (spec section 8): the server's own words when it sent
 * some, `failed` when it answered without them, `errored` when it could not be reached at all.
 */
export function failureMessage(error: unknown, failed: string, errored: string): string {
  if (error instanceof ApiError && error.status > 0) return error.serverMessage ?? failed;
  return errored;
}

export function isUnauthenticated(error: unknown): boolean {
  return hasErrorCode(error, 'UNAUTHENTICATED');
}

/** Saves a question's translation into a language (its text, and its custom choices when it has them). */
export function saveTranslation(
  templateId: number,
  questionId: number,
  language: string,
  translation: SetTranslationRequest,
) {
  return api.call(endpoints.setQuestionTranslation, {
    params: { id: templateId, questionId, language },
    body: translation,
  });
}

export function deleteTranslation(templateId: number, questionId: number, language: string) {
  return api.call(endpoints.deleteQuestionTranslation, { params: { id: templateId, questionId, language } });
}
