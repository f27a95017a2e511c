import { z } from 'zod/mini';
import { SuccessMessage } from '../schemas/common';
import {
  ChooseNewPasswordRequest,
  PasswordResetRequest,
  PasswordResetToken,
} from '../schemas/password-reset';
import { endpoint } from './endpoint';

const TokenParams = /*#__PURE__*/ z.object({ token: PasswordResetToken });

const tags = ['auth'];

export const requestPasswordReset = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/password-reset/',
  summary: 'Mail the account of an address a link to choose a new password',
  description:
    'The same answer for every address, with an account or not; past the limits per address and per client nothing is sent, and the answer is still the same.',
  tags,
  body: PasswordResetRequest,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 403, 404, 429],
  access: 'public',
});

export const resetPassword = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/password-reset/:token/',
  summary: 'Choose a new password with the mailed link; every session of the account ends',
  description:
    'Works once, within 30 minutes of the request. Does not sign in: staff still prove their second factor at the next sign-in.',
  tags,
  params: TokenParams,
  body: ChooseNewPasswordRequest,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 403, 404, 429],
  access: 'public',
});
