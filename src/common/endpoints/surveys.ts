import { z } from 'zod/mini';
import {
  SubmitOwnSurveyRequest,
  SubmitSurveyRequest,
  SubmitSurveyResponse,
  SurveyLanguageQuery,
  SurveyQuestionsResponse,
} from '../schemas/surveys';
import { endpoint } from './endpoint';

const LinkParams = /*#__PURE__*/ z.object({ hashLink: z.string().check(z.maxLength(100)) });

const tags = ['surveys'];

export const getOwnSurvey = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/get-user-survey-questions/',
  summary: "The logged-in user's survey: the institution's active template, else its first",
  tags,
  query: SurveyLanguageQuery,
  response: { status: 200, schema: SurveyQuestionsResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'user',
});

export const getLinkSurvey = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/get-user-survey-questions/:hashLink/',
  summary: "A shared link's survey; open to anyone holding the link",
  tags,
  params: LinkParams,
  query: SurveyLanguageQuery,
  response: { status: 200, schema: SurveyQuestionsResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'public',
});

export const submitOwnSurvey = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/survey/',
  summary: 'Submit the survey as the logged-in student',
  description:
    'Name and email come from the account. Retrying with the same submission_id stores nothing new.',
  tags,
  body: SubmitOwnSurveyRequest,
  response: { status: 200, schema: SubmitSurveyResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'student',
});

export const submitLinkSurvey = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/survey/link/:hashLink/',
  summary: 'Submit the survey of a shared link',
  description:
    'Visitors give a name and an email of the institution, and are answered alike whether or not the email has an account. Until the browser proves the address (POST /api/verify/start/, /check/) the submission is stored and screened but counts for no one: the answer says verification_required.',
  tags,
  params: LinkParams,
  body: SubmitSurveyRequest,
  response: { status: 200, schema: SubmitSurveyResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'public',
});
