import {
  VerifyCheckRequest,
  VerifyCheckResponse,
  VerifyStartRequest,
  VerifyStartResponse,
} from '../schemas/verify';
import { endpoint } from './endpoint';

const tags = ['verify'];

export const sendVerificationCode = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/verify/start/',
  summary: 'Send a one-time code to an address',
  description:
    'The same answer for every address of the institution (of the link, when hash_link is given), whether or not it has an account.',
  tags,
  body: VerifyStartRequest,
  response: { status: 200, schema: VerifyStartResponse },
  errors: [400, 403, 404, 429],
  access: 'public',
});

export const checkVerificationCode = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/verify/check/',
  summary: 'Prove an address for this browser with the code it was sent',
  description:
    'Six digits, valid 10 minutes, 5 tries, once. Proving the address counts the survey answers this browser sent in its name whose proof_token secrets it sends in proof_tokens, and completes the registration it started for it.',
  tags,
  body: VerifyCheckRequest,
  response: { status: 200, schema: VerifyCheckResponse },
  errors: [400, 403, 404, 429],
  access: 'public',
});
