import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { ErrorResponse, IdParam, SuccessMessage } from '../../../common/schemas/common';
import {
  PasskeyAuthentication,
  PasskeyList,
  PasskeyOptions,
  PasskeyRegistration,
  PasskeySignedIn,
} from '../../../common/schemas/passkeys';
import type { Config } from '../../config';
import { requireSession, requireUser } from '../../lib/guards';
import type { Session, SessionUser } from '../../lib/sessions';
import { LIMITS, routeLimit } from '../../limit-table';
import { issueCsrfToken, setDisplayCookies, setSessionCookie, toCurrentUser } from '../auth';
import {
  authenticateWithPasskey,
  authenticationOptions,
  listOwnPasskeys,
  type RelyingParty,
  registerPasskey,
  registrationOptions,
  removeOwnPasskey,
  requireStaffAccount,
  stepUpOptions,
  stepUpWithPasskey,
} from './service';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  429: ErrorResponse,
};
const tags = ['passkeys'];

function giveSession(
  request: FastifyRequest,
  reply: FastifyReply,
  opened: { sessionId: string; idHash: string; user: SessionUser },
) {
  setSessionCookie(request, reply, opened.sessionId);
  setDisplayCookies(request, reply, opened.user);
  issueCsrfToken(request, reply, opened.idHash);
}

/**
 * The site passkeys belong to, from the configuration alone: PUBLIC_URL, else the server's own
 * address by the name localhost. Never from the request: its Host (or X-Forwarded-Host) is the
 * sender's to write, and a forged one would have the server accept a ceremony run for another
 * site (a look-alike that relays the challenge).
 */
export function relyingPartyOf(config: Pick<Config, 'port' | 'web'>): RelyingParty {
  const origin = config.web.publicUrl
    ? new URL(config.web.publicUrl).origin
    : `http://localhost:${config.port}`;
  return { id: new URL(origin).hostname, origin, name: `${config.web.brandName} Health` };
}

/** Passkeys for staff: a second factor, or a sign-in of their own (design section 11). */
export const passkeyRoutes: FastifyPluginAsyncZod<{ recoveryKey: Buffer }> = async (app, { recoveryKey }) => {
  const { db, config } = app;
  const perClient = {
    rateLimit: routeLimit({ ...LIMITS.loginPerClient, max: config.limits.loginPerIpPerMinute }),
  };

  const sessionOf = (request: FastifyRequest) => {
    requireSession(request);
    return request.session as Session;
  };
  // Before body validation: a visitor or a student learns nothing from a 400.
  const signedIn = async (request: FastifyRequest) => {
    requireStaffAccount(sessionOf(request));
  };
  /** A complete sign-in: the staff member's own passkeys and step-ups. */
  const completeSessionOf = (request: FastifyRequest) => {
    requireUser(request);
    return request.session as Session;
  };
  // Before the body: only staff have passkeys to list, remove or prove again.
  const signedInFully = async (request: FastifyRequest) => {
    requireUser(request);
    requireStaffAccount(request.session as Session);
  };

  const rp = relyingPartyOf(config);

  app.post(
    '/api/passkeys/registration/options/',
    {
      schema: {
        tags,
        summary: 'Start adding a passkey (staff)',
        description:
          'Beside an existing second factor, needs one proven in the last 5 minutes (403 STEP_UP_REQUIRED).',
        response: { 200: PasskeyOptions, ...errors },
      },
    },
    async (request) => {
      const options = await registrationOptions({
        db: db.kysely,
        rp,
        session: sessionOf(request),
      });
      return { success: true as const, options: { ...options } };
    },
  );

  app.post(
    '/api/passkeys/registration/',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Add the passkey the browser created',
        description:
          'As the first second factor of a password sign-in, it also completes that sign-in. As the first second factor of the account, the answer also carries ten single-use recovery codes (shown this once).',
        body: PasskeyRegistration,
        response: { 200: PasskeySignedIn, ...errors },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const { stronger, recoveryCodes } = await registerPasskey({
        db: db.kysely,
        rp,
        recoveryKey,
        session,
        response: request.body.credential as unknown as RegistrationResponseJSON,
        name: request.body.name,
        address: request.ip,
      });
      app.mail.wake();
      if (stronger) giveSession(request, reply, stronger);
      return {
        success: true as const,
        message: recoveryCodes
          ? 'Your passkey is added. Keep the recovery codes somewhere safe.'
          : 'Your passkey is added.',
        ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}),
        user: toCurrentUser(stronger?.user ?? { ...session.user, hasSecondFactor: true }),
      };
    },
  );

  app.post(
    '/api/passkeys/authentication/options/',
    {
      config: perClient,
      schema: {
        tags,
        summary: 'Start signing in with a passkey, alone or after a password',
        response: { 200: PasskeyOptions, ...errors },
      },
    },
    async (request) => {
      const options = await authenticationOptions({
        db: db.kysely,
        rp,
        session: request.session ?? null,
      });
      return { success: true as const, options: { ...options } };
    },
  );

  app.post(
    '/api/passkeys/authentication/',
    {
      config: perClient,
      schema: {
        tags,
        summary: "Sign in with the passkey's answer",
        description:
          'Completes a password sign-in, or opens a session of its own. Each challenge works once.',
        body: PasskeyAuthentication,
        response: { 200: PasskeySignedIn, ...errors },
      },
    },
    async (request, reply) => {
      const opened = await authenticateWithPasskey({
        db: db.kysely,
        rp,
        session: request.session ?? null,
        response: request.body.credential as unknown as AuthenticationResponseJSON,
        address: request.ip,
      });
      giveSession(request, reply, opened);
      return { success: true as const, message: 'Signed in', user: toCurrentUser(opened.user) };
    },
  );

  app.get(
    '/api/passkeys/',
    {
      schema: {
        tags,
        summary: "The staff member's own passkeys: names, when added and last used",
        response: { 200: PasskeyList, ...errors },
      },
    },
    async (request) => listOwnPasskeys({ db: db.kysely, session: completeSessionOf(request) }),
  );

  app.delete(
    '/api/passkeys/:id/',
    {
      preValidation: signedInFully,
      schema: {
        tags,
        summary: 'Remove one of your passkeys',
        description:
          'Needs a second factor proven in the last 5 minutes (403 STEP_UP_REQUIRED). Recorded in the audit log; the owner is told by mail.',
        params: z.object({ id: IdParam }),
        response: { 200: SuccessMessage, ...errors },
      },
    },
    async (request) => {
      const result = await removeOwnPasskey({
        db: db.kysely,
        session: completeSessionOf(request),
        passkeyId: request.params.id,
        address: request.ip,
      });
      app.mail.wake();
      return result;
    },
  );

  app.post(
    '/api/passkeys/step-up/options/',
    {
      config: perClient,
      schema: {
        tags,
        summary: 'Start proving a passkey again before changing how you sign in',
        response: { 200: PasskeyOptions, ...errors },
      },
    },
    async (request) => {
      const options = await stepUpOptions({
        db: db.kysely,
        rp,
        session: completeSessionOf(request),
      });
      return { success: true as const, options: { ...options } };
    },
  );

  app.post(
    '/api/passkeys/step-up/',
    {
      config: perClient,
      preValidation: signedInFully,
      schema: {
        tags,
        summary: 'Prove a passkey again with its answer: the next 5 minutes may change how you sign in',
        body: PasskeyAuthentication,
        response: { 200: SuccessMessage, ...errors },
      },
    },
    async (request) =>
      stepUpWithPasskey({
        db: db.kysely,
        rp,
        session: completeSessionOf(request),
        response: request.body.credential as unknown as AuthenticationResponseJSON,
        address: request.ip,
      }),
  );
};
