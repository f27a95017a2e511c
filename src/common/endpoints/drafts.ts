import { z } from 'zod/mini';
import { IdParam, SuccessMessage } from '../schemas/common';
import { AutosaveRequest, AutosaveResponse, LoadDraftResponse } from '../schemas/surveys';
import { endpoint } from './endpoint';

const TemplateParams = /*#__PURE__*/ z.object({ templateId: IdParam });

const tags = ['drafts'];

export const saveDraft = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/autosave/',
  summary: "Save the user's draft of a survey (replaces the previous one, or the given version only)",
  tags,
  body: AutosaveRequest,
  response: { status: 200, schema: AutosaveResponse },
  errors: [400, 401, 403, 404, 409, 413],
  access: 'user',
});

export const clearDraft = /*#__PURE__*/ endpoint({
  method: 'DELETE',
  path: '/api/autosave/clear/:templateId/',
  summary: "Delete the user's draft of a survey (Start fresh)",
  tags,
  params: TemplateParams,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 401, 403, 404, 409, 413],
  access: 'user',
});

export const loadDraft = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/autosave/load/:templateId',
  summary: "The user's draft of a survey, or null",
  tags,
  params: TemplateParams,
  response: { status: 200, schema: LoadDraftResponse },
  errors: [400, 401, 403, 404, 409, 413],
  access: 'user',
});

/** The same, spelt with the trailing slash the other paths have. */
export const loadDraftWithSlash = /*#__PURE__*/ endpoint({
  ...loadDraft,
  path: '/api/autosave/load/:templateId/',
});
