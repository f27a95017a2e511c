import { queryOptions } from '@tanstack/react-query';
import * as invitations from '../../../common/endpoints/campaign-invitations';
import * as drafts from '../../../common/endpoints/drafts';
import {
  getLinkSurvey,
  getOwnSurvey,
  submitLinkSurvey,
  submitOwnSurvey,
} from '../../../common/endpoints/surveys';
import type {
  AutosaveRequest,
  SubmitOwnSurveyRequest,
  SubmitSurveyRequest,
} from '../../../common/schemas/surveys';
import { type Api, api, hasErrorCode, mayPassOnRetry } from '../../api';

/**
 * The survey calls of spec section 7. A shared link's token only ever travels as one path segment.
 * `language`, where given, asks for the survey in that language (each question comes in it when
 * it has a translation, else in English, and says which); left out, the server uses the site's
 * language for this visitor. Send the same `language` with the submission.
 */

/** The query of a survey in a language; none when left to the server. */
const inLanguage = (language: string | undefined) => (language ? { query: { language } } : {});

/** A survey's cache key gains its language only when one is asked for, so the first paint's key stays. */
const languageKey = (language: string | undefined) => (language ? [language] : []);

export function fetchSurveyQuestions(hashLink: string | undefined, client: Api = api, language?: string) {
  return hashLink
    ? client.call(getLinkSurvey, { params: { hashLink }, ...inLanguage(language) })
    : client.call(getOwnSurvey, inLanguage(language));
}

/**
 * A link that failed to load shows why (unknown, expired, already answered; "Try again" when
 * that may help) rather than loading again on its own: the server renders that message in the
 * first paint, and the browser takes over that same screen.
 */
const SHOW_FAILURE_ON_MOUNT = { retryOnMount: false } as const;

/** A shared link's survey (anyone holding the link may open it). */
export function linkSurveyQuery(hashLink: string, client: Api = api, language?: string) {
  return queryOptions({
    queryKey: ['survey-questions', 'link', hashLink, ...languageKey(language)],
    queryFn: () => fetchSurveyQuestions(hashLink, client, language),
    staleTime: 60_000,
    ...SHOW_FAILURE_ON_MOUNT,
  });
}

/** The survey of the signed-in student's institution, once someone (`email`) is signed in. */
export function ownSurveyQuery(email: string | undefined, language?: string) {
  return queryOptions({
    queryKey: ['survey-questions', 'own', email ?? '', ...languageKey(language)],
    queryFn: () => fetchSurveyQuestions(undefined, api, language),
    enabled: email !== undefined,
    staleTime: 60_000,
  });
}

export function submitSurvey(hashLink: string | undefined, request: SubmitOwnSurveyRequest) {
  return hashLink
    ? api.call(submitLinkSurvey, { params: { hashLink }, body: request })
    : api.call(submitOwnSurvey, { body: request });
}

/** A personal invitation's survey: the questions and the student it was sent to. */
export function fetchInvitationSurvey(token: string, client: Api = api, language?: string) {
  return client.call(invitations.getInvitationSurvey, { params: { token }, ...inLanguage(language) });
}

/**
 * A personal invitation's survey; a failed load is tried twice more when that may help. Fresh for
 * a minute, as a link's: the page that takes over the server's first paint does not ask again for
 * what the server has just answered.
 */
export function invitationSurveyQuery(token: string, client: Api = api, language?: string) {
  return queryOptions({
    queryKey: ['survey-questions', 'invitation', token, ...languageKey(language)],
    queryFn: () => fetchInvitationSurvey(token, client, language),
    retry: (count, error) => count < 2 && mayPassOnRetry(error),
    staleTime: 60_000,
    ...SHOW_FAILURE_ON_MOUNT,
  });
}

export function submitInvitationSurvey(token: string, request: SubmitSurveyRequest) {
  return api.call(invitations.submitInvitationSurvey, { params: { token }, body: request });
}

export function saveDraft(request: AutosaveRequest) {
  return api.call(drafts.saveDraft, { body: request });
}

export async function loadDraft(templateId: number) {
  const { saved_data } = await api.call(drafts.loadDraft, { params: { templateId } });
  return saved_data;
}

function clearDraft(templateId: number) {
  return api.call(drafts.clearDraft, { params: { templateId } });
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
