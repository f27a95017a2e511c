import { z } from 'zod/mini';
import { IdParam, SuccessMessage } from '../schemas/common';
import {
  AddInstrumentBlockResponse,
  AddQuestionResponse,
  CreateTemplateResponse,
  DeleteQuestionRequest,
  DeleteTemplateRequest,
  Language,
  MoveQuestionRequest,
  MoveQuestionResponse,
  NewInstrumentBlockRequest,
  NewQuestionRequest,
  QuestionListResponse,
  SetTranslationRequest,
  SetTranslationResponse,
  TemplateListResponse,
} from '../schemas/templates';
import { endpoint } from './endpoint';

const TemplateParams = /*#__PURE__*/ z.object({ id: IdParam });

const TemplateQuestionParams = /*#__PURE__*/ z.object({ id: IdParam, questionId: IdParam });

const TranslationParams = /*#__PURE__*/ z.object({ id: IdParam, questionId: IdParam, language: Language });

const tags = ['templates'];

export const listTemplates = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/survey-templates/',
  summary: "The institution's survey templates",
  tags,
  response: { status: 200, schema: TemplateListResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'templates' },
});

export const createTemplate = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/survey-templates/',
  summary: 'Create an empty template',
  tags,
  response: { status: 201, schema: CreateTemplateResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'templates' },
});

export const deleteTemplate = /*#__PURE__*/ endpoint({
  method: 'DELETE',
  path: '/api/survey-templates/',
  summary: 'Delete a template with its questions; if it was active, none is active afterwards',
  tags,
  body: DeleteTemplateRequest,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'templates' },
});

export const activateTemplate = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/survey-templates/:id/use/',
  summary: 'Make this the active template (deactivates the one that was)',
  tags,
  params: TemplateParams,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'templates' },
});

export const listQuestions = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/survey-templates/:id/questions/',
  summary: "A template's questions, by order then id",
  description:
    'Each question lists, for every language the product offers besides the default, its translation and whether it is missing, outdated (the question changed after it was saved) or current.',
  tags,
  params: TemplateParams,
  response: { status: 200, schema: QuestionListResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'templates' },
});

export const addQuestion = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/survey-templates/:id/questions/',
  summary: 'Add a question to a template',
  tags,
  params: TemplateParams,
  body: NewQuestionRequest,
  response: { status: 201, schema: AddQuestionResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'templates' },
});

export const deleteQuestion = /*#__PURE__*/ endpoint({
  method: 'DELETE',
  path: '/api/survey-templates/:id/questions/',
  summary: 'Delete a question of a template',
  tags,
  params: TemplateParams,
  body: DeleteQuestionRequest,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'templates' },
});

export const addInstrument = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/survey-templates/:id/instruments/',
  summary: 'Add a validated instrument as one locked block (its wording and scale cannot be edited)',
  tags,
  params: TemplateParams,
  body: NewInstrumentBlockRequest,
  response: { status: 201, schema: AddInstrumentBlockResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'templates' },
});

export const moveQuestion = /*#__PURE__*/ endpoint({
  method: 'PATCH',
  path: '/api/survey-templates/:id/questions/:questionId/',
  summary: 'Move a question or an instrument block; nothing but its order can change',
  tags,
  params: TemplateQuestionParams,
  body: MoveQuestionRequest,
  response: { status: 200, schema: MoveQuestionResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'templates' },
});

export const setQuestionTranslation = /*#__PURE__*/ endpoint({
  method: 'PUT',
  path: '/api/survey-templates/:id/questions/:questionId/translations/:language/',
  summary: "Save a question's translation into a language the product offers",
  description:
    "Its text and, when the question has custom answer choices, each of them in that language. Replaces the translation there was. An instrument's items cannot be translated here: validated instruments are asked only in their official translations.",
  tags,
  params: TranslationParams,
  body: SetTranslationRequest,
  response: { status: 200, schema: SetTranslationResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'templates' },
});

export const deleteQuestionTranslation = /*#__PURE__*/ endpoint({
  method: 'DELETE',
  path: '/api/survey-templates/:id/questions/:questionId/translations/:language/',
  summary: "Delete a question's translation: students asking for that language see it in the default one",
  tags,
  params: TranslationParams,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'templates' },
});
