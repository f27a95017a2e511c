import { InvitationSurveyResponse } from '../../../common/schemas/campaigns';
import { SuccessMessage } from '../../../common/schemas/common';
import {
  type AutosaveRequest,
  AutosaveResponse,
  LoadDraftResponse,
  type SubmitSurveyRequest,
  SubmitSurveyResponse,
  SurveyQuestionsResponse,
} from '../../../common/schemas/surveys';
import { api, hasErrorCode } from '../../api';

/** The survey calls of spec section 7. A shared link's token only ever travels as one path segment. */

function linkSegment(hashLink: string): string {
  return encodeURIComponent(hashLink);
}

export function fetchSurveyQuestions(hashLink: string | undefined) {
  const path = hashLink
    ? `/api/get-user-survey-questions/${linkSegment(hashLink)}/`
    : '/api/get-user-survey-questions/';
  return api.get(path, SurveyQuestionsResponse);
}

export function submitSurvey(hashLink: string | undefined, request: SubmitSurveyRequest) {
  const path = hashLink ? `/api/survey/link/${linkSegment(hashLink)}/` : '/api/survey/';
  return api.post(path, SubmitSurveyResponse, request);
}

/** A personal invitation's survey: the questions and the student it was sent to. */
export function fetchInvitationSurvey(token: string) {
  return api.get(`/api/survey/invite/${linkSegment(token)}/`, InvitationSurveyResponse);
}

export function submitInvitationSurvey(token: string, request: SubmitSurveyRequest) {
  return api.post(`/api/survey/invite/${linkSegment(token)}/`, SubmitSurveyResponse, request);
}

export function saveDraft(request: AutosaveRequest) {
  return api.post('/api/autosave/', AutosaveResponse, request);
}

export async function loadDraft(templateId: number) {
  const { saved_data } = await api.get(`/api/autosave/load/${templateId}`, LoadDraftResponse);
  return saved_data;
}

function clearDraft(templateId: number) {
  return api.delete(`/api/autosave/clear/${templateId}/`, SuccessMessage);
}

/**
 * Spec section 7: after a clear, load again and clear once more if a draft is still there (an
 * autosave sent just before the clear may have landed after it). Failures are only logged: the
 * answers are already gone from the screen, and a stale draft is cleared on the next submit.
 */
export async function clearDraftAndVerify(templateId: number): Promise<void> {
  try {
    await clearDraft(templateId);
    const remaining = await loadDraft(templateId);
    if (remaining) await clearDraft(templateId);
  } catch (error) {
    console.error('Could not clear the saved draft', error);
  }
}

/** Spec section 4 (`requires_auth`): the answers are kept, and the server wants a login first. */
export function requiresAuth(error: unknown): boolean {
  return hasErrorCode(error, 'REQUIRES_AUTH');
}
