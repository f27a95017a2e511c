import { SuccessMessage } from '../../../common/schemas/common';
import {
  AddInstrumentBlockResponse,
  AddQuestionResponse,
  CreateTemplateResponse,
  MoveQuestionResponse,
  type NewInstrumentBlockRequest,
  type NewQuestionRequest,
  QuestionListResponse,
  TemplateListResponse,
} from '../../../common/schemas/templates';
import { ApiError, api, hasErrorCode } from '../../api';

/** Cache keys: the dashboard reads the same template list for its Copy Survey Link button. */
export const TEMPLATES_QUERY_KEY = ['survey-templates'] as const;
export const questionsQueryKey = (templateId: number) =>
  ['survey-templates', templateId, 'questions'] as const;

export async function fetchTemplates() {
  const { templates } = await api.get('/api/survey-templates/', TemplateListResponse);
  return templates;
}

export function createTemplate() {
  return api.post('/api/survey-templates/', CreateTemplateResponse);
}

export function activateTemplate(templateId: number) {
  return api.post(`/api/survey-templates/${templateId}/use/`, SuccessMessage);
}

export function deleteTemplate(templateId: number) {
  return api.delete('/api/survey-templates/', SuccessMessage, { template_id: templateId });
}

export async function fetchQuestions(templateId: number) {
  const { questions } = await api.get(`/api/survey-templates/${templateId}/questions/`, QuestionListResponse);
  return questions;
}

export function addQuestion(templateId: number, question: NewQuestionRequest) {
  return api.post(`/api/survey-templates/${templateId}/questions/`, AddQuestionResponse, question);
}

export function addInstrumentBlock(templateId: number, block: NewInstrumentBlockRequest) {
  return api.post(`/api/survey-templates/${templateId}/instruments/`, AddInstrumentBlockResponse, block);
}

/** Gives a question (or an instrument block, whole) a new order; nothing else of it changes. */
export function moveQuestion(templateId: number, questionId: number, order: number) {
  return api.patch(`/api/survey-templates/${templateId}/questions/${questionId}/`, MoveQuestionResponse, {
    order,
  });
}

export function deleteQuestion(templateId: number, questionId: number) {
  return api.delete(`/api/survey-templates/${templateId}/questions/`, SuccessMessage, {
    question_id: questionId,
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
