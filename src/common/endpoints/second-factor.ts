import { SuccessMessage } from '../schemas/common';
import {
  RecoveryCodesResponse,
  SecondFactorStatus,
  SecondFactorVerifyRequest,
  SecondFactorVerifyResponse,
  TotpConfirmRequest,
  TotpSetupResponse,
} from '../schemas/second-factor';
import { endpoint } from './endpoint';
import { IdParams } from './shared';

const tags = ['second factor'];

export const listSecondFactors = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/second-factor/',
  summary: "The staff member's second factors",
  tags,
  response: { status: 200, schema: SecondFactorStatus },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'session',
});

export const startTotpSetup = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/second-factor/totp/setup/',
  summary: 'Start setting up an authenticator app',
  description:
    'Gives a new secret and its QR code; the app is set up once its first code is confirmed. Refused once an app is set up (another admin resets a lost one).',
  tags,
  response: { status: 200, schema: TotpSetupResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'session',
});

export const confirmTotpSetup = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/second-factor/totp/confirm/',
  summary: 'Confirm the authenticator app with its first code',
  description:
    'Sets the app up, answers ten single-use recovery codes (shown this once) and completes the sign-in.',
  tags,
  body: TotpConfirmRequest,
  response: { status: 200, schema: RecoveryCodesResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'session',
});

export const startTotpReplacement = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/second-factor/totp/replacement/',
  summary: 'Start replacing the authenticator app with a new one',
  description:
    'Gives a new secret and its QR code for the new app; the old app keeps working until the new one is confirmed (POST /api/second-factor/totp/replacement/confirm/, within 15 minutes). Needs a second factor proven in the last 5 minutes (403 STEP_UP_REQUIRED); 409 when no app is set up.',
  tags,
  response: { status: 200, schema: TotpSetupResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'user',
});

export const confirmTotpReplacement = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/second-factor/totp/replacement/confirm/',
  summary: 'Confirm the new authenticator app with its first code; the old one stops working',
  description:
    'Needs a second factor proven in the last 5 minutes (403 STEP_UP_REQUIRED; the old app still proves it). 409 when no replacement was started, or it is older than 15 minutes. Counted with the wrong-code limit of the sign-in. The owner is told by mail.',
  tags,
  body: TotpConfirmRequest,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'user',
});

export const verifySecondFactor = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/second-factor/verify/',
  summary: 'Complete a password sign-in with an app code or a recovery code',
  description: 'Each app code and each recovery code works once. Five wrong codes make the account wait.',
  tags,
  body: SecondFactorVerifyRequest,
  response: { status: 200, schema: SecondFactorVerifyResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'session',
});

export const regenerateRecoveryCodes = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/second-factor/recovery-codes/',
  summary: 'Replace the recovery codes with ten new ones',
  description:
    'Needs a second factor proven in the last 5 minutes (403 STEP_UP_REQUIRED: POST /api/second-factor/step-up/, then retry). The owner is told by mail.',
  tags,
  response: { status: 200, schema: RecoveryCodesResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'user',
});

export const stepUpWithSecondFactor = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/second-factor/step-up/',
  summary: 'Prove the second factor again before changing how you sign in',
  description:
    'An app code or a recovery code; for the next 5 minutes this session may add or remove passkeys, replace recovery codes or change single sign-on. A passkey proves it too (POST /api/passkeys/step-up/). Counted with the wrong-code limit of the sign-in.',
  tags,
  body: SecondFactorVerifyRequest,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'user',
});

export const resetStaffSecondFactor = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/staff/:id/second-factor/reset/',
  summary: "Reset a staff member's lost second factor (another admin of the institution)",
  description:
    'Removes their authenticator app and recovery codes and signs them out everywhere; they set up a new one at their next sign-in. Recorded in the audit log.',
  tags,
  params: IdParams,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 401, 403, 404, 409, 429],
  access: { staff: 'team' },
});
