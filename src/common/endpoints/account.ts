import {
  AccountSessionList,
  LanguageChanged,
  LanguageChangeRequest,
  OtherSessionsEnded,
  PasswordChangeRequest,
} from '../schemas/account';
import { endpoint } from './endpoint';

const tags = ['account'];

export const changePassword = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/account/password/',
  summary: 'Change your password',
  description:
    'Needs the current password; five wrong ones in 15 minutes make the account wait (429). Staff also need a second factor proven in the last 5 minutes (403 STEP_UP_REQUIRED). The new password follows the password rules. Every other session is signed out; recorded in the audit log and told by mail.',
  tags,
  body: PasswordChangeRequest,
  response: { status: 200, schema: OtherSessionsEnded },
  errors: [400, 401, 403, 429],
  access: 'session',
});

export const listSessions = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/account/sessions/',
  summary: 'Your open sessions: when each began and was last used',
  tags,
  response: { status: 200, schema: AccountSessionList },
  errors: [400, 401, 403, 429],
  access: 'user',
});

export const signOutOtherSessions = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/account/sessions/sign-out-others/',
  summary: 'Sign out every other session of your account',
  description: 'This session stays signed in. Recorded in the audit log.',
  tags,
  response: { status: 200, schema: OtherSessionsEnded },
  errors: [400, 401, 403, 429],
  access: 'user',
});

export const setLanguage = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/account/language/',
  summary: 'Choose the language of your mail',
  description:
    "One of the product's languages (400 otherwise); kept with the account, and every mail to you from then on is written in it.",
  tags,
  body: LanguageChangeRequest,
  response: { status: 200, schema: LanguageChanged },
  errors: [400, 401, 403, 429],
  access: 'user',
});
