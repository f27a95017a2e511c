import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/auth';
import { AppError } from '../../lib/errors';
import { requireSession } from '../../lib/guards';
import { requestLanguage } from '../../lib/languages';
import { route } from '../../lib/route';
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

export interface AuthRouteOptions {
  codes: CodeContext;
  /** Why a password sign-in with an address is refused (its institution signs in elsewhere), or null. */
  passwordRefusal: PasswordRefusal;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRouteOptions> = async (app, options) => {
  const { db, config } = app;

  route(app, endpoints.getCsrfToken, async (request, reply) => ({
    success: true as const,
    csrftoken: issueCsrfToken(request, reply, request.session?.idHash ?? null),
  }));

  route(app, endpoints.getCurrentUser, async (request, reply) => {
    if (!request.session) {
      // Stale display cookies would keep showing a logged-in header.
      if (request.cookies.user_email || request.cookies.auth_token) clearAuthCookies(request, reply);
      throw new AppError('UNAUTHENTICATED', 'Not authenticated');
    }
    // Also while a staff sign-in waits for its second factor: the answer says so.
    const user = requireSession(request);
    refreshRoleCookies(request, reply, user);
    return toCurrentUser(user);
  });

  route(
    app,
    endpoints.logIn,
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
    {
      config: { rateLimit: routeLimit({ ...LIMITS.loginPerClient, max: config.limits.loginPerIpPerMinute }) },
    },
  );

  route(app, endpoints.logOut, async (request, reply) => {
    if (request.session) await deleteSession(db.kysely, request.session.idHash);
    clearAuthCookies(request, reply);
    issueCsrfToken(request, reply, null);
    return { success: true as const, message: 'Logged out' };
  });

  route(
    app,
    endpoints.register,
    async (request, reply) => {
      const body = request.body;
      const { message } = await registerStudent({
        db: db.kysely,
        context: options.codes,
        linkBase: config.mail.linkBase,
        visitorHash: visitorHash(request, reply),
        clientAddress: request.ip,
        language: requestLanguage(request),
        institutionName: body.institution_name,
        name: body.name,
        email: body.email,
        password: body.password,
        confirmPassword: body.confirm_password,
      });
      app.mail.wake();
      return reply.status(201).send({ success: true as const, message });
    },
    {
      config: {
        rateLimit: routeLimit({
          ...LIMITS.registrationsPerClient,
          max: config.limits.registrationsPerIpPerHour,
        }),
      },
    },
  );

  route(app, endpoints.listInstitutions, async () => listInstitutions(db.kysely));
};
