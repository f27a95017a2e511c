import { SuccessMessage } from '../schemas/common';
import {
  PasskeyAuthentication,
  PasskeyList,
  PasskeyOptions,
  PasskeyRegistration,
  PasskeySignedIn,
} from '../schemas/passkeys';
import { endpoint } from './endpoint';
import { IdParams } from './shared';

const tags = ['passkeys'];

export const startPasskeyRegistration = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/passkeys/registration/options/',
  summary: 'Start adding a passkey (staff)',
  description:
    'Beside an existing second factor, needs one proven in the last 5 minutes (403 STEP_UP_REQUIRED).',
  tags,
  response: { status: 200, schema: PasskeyOptions },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'session',
});

export const addPasskey = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/passkeys/registration/',
  summary: 'Add the passkey the browser created',
  description:
    'As the first second factor of a password sign-in, it also completes that sign-in. As the first second factor of the account, the answer also carries ten single-use recovery codes (shown this once).',
  tags,
  body: PasskeyRegistration,
  response: { status: 200, schema: PasskeySignedIn },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'session',
});

export const startPasskeySignIn = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/passkeys/authentication/options/',
  summary: 'Start signing in with a passkey, alone or after a password',
  tags,
  response: { status: 200, schema: PasskeyOptions },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'public',
});

export const signInWithPasskey = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/passkeys/authentication/',
  summary: "Sign in with the passkey's answer",
  description: 'Completes a password sign-in, or opens a session of its own. Each challenge works once.',
  tags,
  body: PasskeyAuthentication,
  response: { status: 200, schema: PasskeySignedIn },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'public',
});

export const listPasskeys = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/passkeys/',
  summary: "The staff member's own passkeys: names, when added and last used",
  tags,
  response: { status: 200, schema: PasskeyList },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'user',
});

export const removePasskey = /*#__PURE__*/ endpoint({
  method: 'DELETE',
  path: '/api/passkeys/:id/',
  summary: 'Remove one of your passkeys',
  description:
    'Needs a second factor proven in the last 5 minutes (403 STEP_UP_REQUIRED). Recorded in the audit log; the owner is told by mail.',
  tags,
  params: IdParams,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'user',
});

export const startPasskeyStepUp = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/passkeys/step-up/options/',
  summary: 'Start proving a passkey again before changing how you sign in',
  tags,
  response: { status: 200, schema: PasskeyOptions },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'user',
});

export const stepUpWithPasskey = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/passkeys/step-up/',
  summary: 'Prove a passkey again with its answer: the next 5 minutes may change how you sign in',
  tags,
  body: PasskeyAuthentication,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'user',
});
