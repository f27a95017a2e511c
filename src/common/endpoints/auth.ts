import {
  CsrfResponse,
  CurrentUser,
  InstitutionList,
  LoginRequest,
  LoginResponse,
  RegisterRequest,
} from '../schemas/auth';
import { SuccessMessage } from '../schemas/common';
import { endpoint } from './endpoint';

export const getCsrfToken = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/csrf/',
  summary: 'Issue a CSRF token (also set as the csrftoken cookie)',
  tags: ['auth'],
  response: { status: 200, schema: CsrfResponse },
  errors: [],
  access: 'public',
});

export const getCurrentUser = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/user/',
  summary: 'The current user; 401 when anonymous',
  tags: ['auth'],
  response: { status: 200, schema: CurrentUser },
  errors: [401],
  access: 'session',
});

export const logIn = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/login/',
  summary: 'Log in with email and password',
  tags: ['auth'],
  body: LoginRequest,
  response: { status: 200, schema: LoginResponse },
  errors: [400, 401, 403, 409, 429],
  access: 'public',
});

export const logOut = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/logout/',
  summary: 'Log out and end the session',
  tags: ['auth'],
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 401, 403, 409, 429],
  access: 'public',
});

export const register = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/register/',
  summary: 'Register a student account',
  description:
    'Sends a code to the address; the account can sign in once this browser proves the address with it (POST /api/verify/check/). The answer is the same whether or not the address has an account.',
  tags: ['auth'],
  body: RegisterRequest,
  response: { status: 201, schema: SuccessMessage },
  errors: [400, 401, 403, 409, 429],
  access: 'public',
});

export const listInstitutions = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/institutions/',
  summary: 'Institutions students can register with',
  tags: ['auth'],
  response: { status: 200, schema: InstitutionList },
  errors: [],
  access: 'public',
});
