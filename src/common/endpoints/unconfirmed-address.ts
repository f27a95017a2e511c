import { LoginRequest } from '../schemas/auth';
import { SuccessMessage } from '../schemas/common';
import { endpoint } from './endpoint';

export const resendRegistrationCode = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/register/resend-code/',
  summary: 'Send a new code for a registration still waiting for one, given its password',
  description:
    'The code goes to the address when the password is that of its waiting registration, which then belongs to this browser (POST /api/verify/check/ completes it). The same answer for every address and password.',
  tags: ['auth'],
  body: LoginRequest,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 403, 429],
  access: 'public',
});
