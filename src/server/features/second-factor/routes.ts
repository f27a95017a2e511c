import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/second-factor';
import { auditActor } from '../../lib/audit';
import { requireSession, requireUser } from '../../lib/guards';
import { route } from '../../lib/route';
import type { Session, SessionUser } from '../../lib/sessions';
import { LIMITS, routeLimit } from '../../limit-table';
import { issueCsrfToken, setDisplayCookies, setSessionCookie, toCurrentUser } from '../auth';
import { confirmAppReplacement, startAppReplacement } from './replace-app';
import {
  confirmTotpEnrolment,
  regenerateRecoveryCodes,
  requireStaffAccount,
  resetSecondFactor,
  type SecondFactorContext,
  secondFactorStatus,
  startTotpEnrolment,
  stepUpWithCode,
  verifySecondFactor,
} from './service';

/** The session, whether or not its sign-in is complete (these calls are how it completes). */
function requireAnySession(request: FastifyRequest): Session {
  requireSession(request);
  return request.session as Session;
}

/** The browser now holds the stronger session: its cookie, and a CSRF token bound to it. */
function giveStrongerSession(
  request: FastifyRequest,
  reply: FastifyReply,
  stronger: { sessionId: string; idHash: string; user: SessionUser },
) {
  setSessionCookie(request, reply, stronger.sessionId);
  setDisplayCookies(request, reply, stronger.user);
  issueCsrfToken(request, reply, stronger.idHash);
}

/** A second factor for staff: an authenticator app with recovery codes (design section 11). */
export const secondFactorRoutes: FastifyPluginAsyncZod<{ context: SecondFactorContext }> = async (
  app,
  options,
) => {
  const { db, config } = app;
  const { context } = options;
  // Before body validation: a visitor, or an account with no second factor to prove (a student),
  // learns nothing from a 400.
  const signedIn = async (request: FastifyRequest) => {
    requireStaffAccount(requireSession(request));
  };
  const perClient = {
    rateLimit: routeLimit({ ...LIMITS.loginPerClient, max: config.limits.loginPerIpPerMinute }),
  };

  route(app, endpoints.listSecondFactors, async (request) =>
    secondFactorStatus({ db: db.kysely, user: requireSession(request) }),
  );

  route(app, endpoints.startTotpSetup, async (request) =>
    startTotpEnrolment({ db: db.kysely, context, user: requireSession(request) }),
  );

  route(
    app,
    endpoints.confirmTotpSetup,
    async (request, reply) => {
      const session = requireAnySession(request);
      const { recoveryCodes, stronger } = await confirmTotpEnrolment({
        db: db.kysely,
        context,
        session,
        code: request.body.code,
        address: request.ip,
      });
      app.mail.wake();
      if (stronger) giveStrongerSession(request, reply, stronger);
      return {
        success: true as const,
        message: 'Your authenticator app is set up. Keep the recovery codes somewhere safe.',
        recovery_codes: recoveryCodes,
        user: toCurrentUser(stronger?.user ?? { ...session.user, hasSecondFactor: true }),
      };
    },
    {
      config: perClient, // Before body validation, so a visitor learns nothing from a 400.
      preValidation: signedIn,
    },
  );

  route(app, endpoints.startTotpReplacement, async (request) => {
    requireUser(request);
    return startAppReplacement({ db: db.kysely, context, session: requireAnySession(request) });
  });

  route(
    app,
    endpoints.confirmTotpReplacement,
    async (request) => {
      requireUser(request);
      const replaced = await confirmAppReplacement({
        db: db.kysely,
        context,
        session: requireAnySession(request),
        code: request.body.code,
        address: request.ip,
      });
      app.mail.wake();
      return replaced;
    },
    {
      config: perClient,
      preValidation: async (request) => {
        requireStaffAccount(requireUser(request));
      },
    },
  );

  route(
    app,
    endpoints.verifySecondFactor,
    async (request, reply) => {
      const stronger = await verifySecondFactor({
        db: db.kysely,
        context,
        session: requireAnySession(request),
        code: request.body.code,
        address: request.ip,
      });
      giveStrongerSession(request, reply, stronger);
      return { success: true as const, message: 'Signed in', user: toCurrentUser(stronger.user) };
    },
    { config: perClient, preValidation: signedIn },
  );

  route(app, endpoints.regenerateRecoveryCodes, async (request) => {
    const user = requireUser(request);
    const codes = await regenerateRecoveryCodes({
      db: db.kysely,
      context,
      session: requireAnySession(request),
      address: request.ip,
    });
    app.mail.wake();
    return {
      success: true as const,
      message: 'New recovery codes: the old ones no longer work.',
      recovery_codes: codes,
      user: toCurrentUser(user),
    };
  });

  route(
    app,
    endpoints.stepUpWithSecondFactor,
    async (request) => {
      requireUser(request);
      return stepUpWithCode({
        db: db.kysely,
        context,
        session: requireAnySession(request),
        code: request.body.code,
        address: request.ip,
      });
    },
    {
      config: perClient, // Before the body: a student or superuser has no second factor to prove, whatever they send.
      preValidation: async (request) => {
        requireStaffAccount(requireUser(request));
      },
    },
  );

  route(app, endpoints.resetStaffSecondFactor, async (request, _reply, admin) => {
    const result = await resetSecondFactor({
      db: db.kysely,
      admin,
      actor: auditActor(request, admin),
      targetId: request.params.id,
    });
    app.mail.wake();
    return result;
  });
};
