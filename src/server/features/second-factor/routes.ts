import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse, IdParam, SuccessMessage } from '../../../common/schemas/common';
import {
  RecoveryCodesResponse,
  SecondFactorStatus,
  SecondFactorVerifyRequest,
  SecondFactorVerifyResponse,
  TotpConfirmRequest,
  TotpSetupResponse,
} from '../../../common/schemas/second-factor';
import { auditActor } from '../../lib/audit';
import { requireSession, requireStaff, requireUser } from '../../lib/guards';
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

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  429: ErrorResponse,
};
const tags = ['second factor'];

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

  app.get(
    '/api/second-factor/',
    {
      schema: {
        tags,
        summary: "The staff member's second factors",
        response: { 200: SecondFactorStatus, ...errors },
      },
    },
    async (request) => secondFactorStatus({ db: db.kysely, user: requireSession(request) }),
  );

  app.post(
    '/api/second-factor/totp/setup/',
    {
      schema: {
        tags,
        summary: 'Start setting up an authenticator app',
        description:
          'Gives a new secret and its QR code; the app is set up once its first code is confirmed. Refused once an app is set up (another admin resets a lost one).',
        response: { 200: TotpSetupResponse, ...errors },
      },
    },
    async (request) => startTotpEnrolment({ db: db.kysely, context, user: requireSession(request) }),
  );

  app.post(
    '/api/second-factor/totp/confirm/',
    {
      config: perClient,
      // Before body validation, so a visitor learns nothing from a 400.
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Confirm the authenticator app with its first code',
        description:
          'Sets the app up, answers ten single-use recovery codes (shown this once) and completes the sign-in.',
        body: TotpConfirmRequest,
        response: { 200: RecoveryCodesResponse, ...errors },
      },
    },
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
  );

  app.post(
    '/api/second-factor/totp/replacement/',
    {
      schema: {
        tags,
        summary: 'Start replacing the authenticator app with a new one',
        description:
          'Gives a new secret and its QR code for the new app; the old app keeps working until the new one is confirmed (POST /api/second-factor/totp/replacement/confirm/, within 15 minutes). Needs a second factor proven in the last 5 minutes (403 STEP_UP_REQUIRED); 409 when no app is set up.',
        response: { 200: TotpSetupResponse, ...errors },
      },
    },
    async (request) => {
      requireUser(request);
      return startAppReplacement({ db: db.kysely, context, session: requireAnySession(request) });
    },
  );

  app.post(
    '/api/second-factor/totp/replacement/confirm/',
    {
      config: perClient,
      preValidation: async (request) => {
        requireStaffAccount(requireUser(request));
      },
      schema: {
        tags,
        summary: 'Confirm the new authenticator app with its first code; the old one stops working',
        description:
          'Needs a second factor proven in the last 5 minutes (403 STEP_UP_REQUIRED; the old app still proves it). 409 when no replacement was started, or it is older than 15 minutes. Counted with the wrong-code limit of the sign-in. The owner is told by mail.',
        body: TotpConfirmRequest,
        response: { 200: SuccessMessage, ...errors },
      },
    },
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
  );

  app.post(
    '/api/second-factor/verify/',
    {
      config: perClient,
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Complete a password sign-in with an app code or a recovery code',
        description:
          'Each app code and each recovery code works once. Five wrong codes make the account wait.',
        body: SecondFactorVerifyRequest,
        response: { 200: SecondFactorVerifyResponse, ...errors },
      },
    },
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
  );

  app.post(
    '/api/second-factor/recovery-codes/',
    {
      schema: {
        tags,
        summary: 'Replace the recovery codes with ten new ones',
        description:
          'Needs a second factor proven in the last 5 minutes (403 STEP_UP_REQUIRED: POST /api/second-factor/step-up/, then retry). The owner is told by mail.',
        response: { 200: RecoveryCodesResponse, ...errors },
      },
    },
    async (request) => {
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
    },
  );

  app.post(
    '/api/second-factor/step-up/',
    {
      config: perClient,
      // Before the body: a student or superuser has no second factor to prove, whatever they send.
      preValidation: async (request) => {
        requireStaffAccount(requireUser(request));
      },
      schema: {
        tags,
        summary: 'Prove the second factor again before changing how you sign in',
        description:
          'An app code or a recovery code; for the next 5 minutes this session may add or remove passkeys, replace recovery codes or change single sign-on. A passkey proves it too (POST /api/passkeys/step-up/). Counted with the wrong-code limit of the sign-in.',
        body: SecondFactorVerifyRequest,
        response: { 200: SuccessMessage, ...errors },
      },
    },
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
  );

  app.post(
    '/api/staff/:id/second-factor/reset/',
    {
      preValidation: async (request) => {
        requireStaff(request, 'team');
      },
      schema: {
        tags,
        summary: "Reset a staff member's lost second factor (another admin of the institution)",
        description:
          'Removes their authenticator app and recovery codes and signs them out everywhere; they set up a new one at their next sign-in. Recorded in the audit log.',
        params: z.object({ id: IdParam }),
        response: { 200: SuccessMessage, ...errors },
      },
    },
    async (request) => {
      const admin = requireStaff(request, 'team');
      const result = await resetSecondFactor({
        db: db.kysely,
        admin,
        actor: auditActor(request, admin),
        targetId: request.params.id,
      });
      app.mail.wake();
      return result;
    },
  );
};
