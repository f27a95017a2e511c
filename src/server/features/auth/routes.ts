import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CsrfResponse,
  CurrentUser,
  InstitutionList,
  LoginRequest,
  LoginResponse,
  RegisterRequest,
} from '../../../common/schemas/auth';
import { ErrorResponse, SuccessMessage } from '../../../common/schemas/common';
import { AppError } from '../../lib/errors';
import { requireSession } from '../../lib/guards';
import { deleteSession } from '../../lib/sessions';
import { visitorHash } from '../../lib/visitor';
import { LIMITS, routeLimit } from '../../limit-table';
import { listInstitutions } from '../institutions';
import type { CodeContext } from '../verify';
import {
  clearAuthCookies,
  issueCsrfToken,
  knownDeviceFor,
  refreshRoleCookies,
  setDisplayCookies,
  setKnownDevice,
  setSessionCookie,
} from './cookies';
import { logIn, type PasswordRefusal, registerStudent, toCurrentUser } from './service';
import { auditSignIn, auditSignInRefusal } from './sign-in-audit';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  409: ErrorResponse,
  429: ErrorResponse,
};

export interface AuthRouteOptions {
  codes: CodeContext;
  /** Why a password sign-in with an address is refused (its institution signs in elsewhere), or null. */
  passwordRefusal: PasswordRefusal;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRouteOptions> = async (app, options) => {
  const { db, config } = app;

  app.get(
    '/api/csrf/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Issue a CSRF token (also set as the csrftoken cookie)',
        response: { 200: CsrfResponse },
      },
    },
    async (request, reply) => ({
      success: true as const,
      csrftoken: issueCsrfToken(request, reply, request.session?.idHash ?? null),
    }),
  );

  app.get(
    '/api/user/',
    {
      schema: {
        tags: ['auth'],
        summary: 'The current user; 401 when anonymous',
        response: { 200: CurrentUser, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      if (!request.session) {
        // Stale display cookies would keep showing a logged-in header.
        if (request.cookies.user_email || request.cookies.auth_token) clearAuthCookies(request, reply);
        throw new AppError('UNAUTHENTICATED', 'Not authenticated');
      }
      // Also while a staff sign-in waits for its second factor: the answer says so.
      const user = requireSession(request);
      refreshRoleCookies(request, reply, user);
      return toCurrentUser(user);
    },
  );

  app.post(
    '/api/login/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log in with email and password',
        body: LoginRequest,
        response: { 200: LoginResponse, ...errors },
      },
      config: { rateLimit: routeLimit({ ...LIMITS.loginPerClient, max: config.limits.loginPerIpPerMinute }) },
    },
    async (request, reply) => {
      const knownDevice = knownDeviceFor(request, request.body.email);
      const signIn = logIn({
        db: db.kysely,
        passwordRefusal: options.passwordRefusal,
        ...request.body,
        limits: config.limits.login,
        client: { address: request.ip, knownDevice },
        previousSessionIdHash: request.session?.idHash,
      });
      const { user, sessionId, sessionIdHash } = await signIn.catch(async (error: unknown) => {
        await auditSignInRefusal(db.kysely, request.body.email, request.ip, error);
        throw error;
      });
      await auditSignIn(db.kysely, user, 'password', request.ip);
      setKnownDevice(request, reply, user.email, knownDevice);
      setSessionCookie(request, reply, sessionId);
      setDisplayCookies(request, reply, user);
      issueCsrfToken(request, reply, sessionIdHash);
      return { success: true as const, message: 'Login successful', user: toCurrentUser(user) };
    },
  );

  app.post(
    '/api/logout/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log out and end the session',
        response: { 200: SuccessMessage, ...errors },
      },
    },
    async (request, reply) => {
      if (request.session) await deleteSession(db.kysely, request.session.idHash);
      clearAuthCookies(request, reply);
      issueCsrfToken(request, reply, null);
      return { success: true as const, message: 'Logged out' };
    },
  );

  app.post(
    '/api/register/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Register a student account',
        description:
          'Sends a code to the address; the account can sign in once this browser proves the address with it (POST /api/verify/check/). The answer is the same whether or not the address has an account.',
        body: RegisterRequest,
        response: { 201: SuccessMessage, ...errors },
      },
      config: {
        rateLimit: routeLimit({
          ...LIMITS.registrationsPerClient,
          max: config.limits.registrationsPerIpPerHour,
        }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { message } = await registerStudent({
        db: db.kysely,
        context: options.codes,
        linkBase: config.mail.linkBase,
        visitorHash: visitorHash(request, reply),
        clientAddress: request.ip,
        institutionName: body.institution_name,
        name: body.name,
        email: body.email,
        password: body.password,
        confirmPassword: body.confirm_password,
      });
      app.mail.wake();
      return reply.status(201).send({ success: true as const, message });
    },
  );

  app.get(
    '/api/institutions/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Institutions students can register with',
        response: { 200: InstitutionList },
      },
    },
    async () => listInstitutions(db.kysely),
  );
};
