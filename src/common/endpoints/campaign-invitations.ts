import { z } from 'zod/mini';
import {
  ContactRequest,
  ContactResponse,
  InvitationSurveyResponse,
  SubmitSurveyRequest,
  SubmitSurveyResponse,
  SurveyLanguageQuery,
} from '../schemas/surveys';
import { endpoint } from './endpoint';

/**
 * A campaign's personal links, as the invited student uses them: a module of their own, apart
 * from the staff's campaign endpoints, so the survey pages carry none of those.
 */

const InvitationParams = /*#__PURE__*/ z.object({ token: z.string().check(z.maxLength(100)) });

const tags = ['surveys'];

export const getInvitationSurvey = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/survey/invite/:token/',
  summary: 'The survey of a personal invitation link, for the student it was sent to',
  description: 'The link is the proof of the address: no password, no code. It works until the next round.',
  tags,
  params: InvitationParams,
  query: SurveyLanguageQuery,
  response: { status: 200, schema: InvitationSurveyResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'public',
});

export const requestContact = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/survey/contact/',
  summary: 'Ask a counsellor to get in touch, after answering an anonymous campaign',
  description:
    'With the contact_token the answer gave (once, within the hour): opens a case with only what is filled in (an email address or a phone number at least) and, with share_answers, the answers just sent. Nothing else about the student is known, and the anonymous answer itself stays as it was.',
  tags,
  body: ContactRequest,
  response: { status: 200, schema: ContactResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'public',
});

export const submitInvitationSurvey = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/survey/invite/:token/',
  summary: 'Submit the survey of a personal invitation link',
  description:
    'Answers as the invited student, whose address the link proves. Once per round: a second submit is refused. Another address is refused.',
  tags,
  params: InvitationParams,
  body: SubmitSurveyRequest,
  response: { status: 200, schema: SubmitSurveyResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'public',
});
