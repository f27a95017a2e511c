import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/passkeys';
import type { Config } from '../../config';
import { requireSession, requireUser } from '../../lib/guards';
import { route } from '../../lib/route';
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

  route(app, endpoints.startPasskeyRegistration, async (request) => {
    const options = await registrationOptions({
      db: db.kysely,
      rp,
      session: sessionOf(request),
    });
    return { success: true as const, options: { ...options } };
  });

  route(
    app,
    endpoints.addPasskey,
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
    { preValidation: signedIn },
  );

  route(
    app,
    endpoints.startPasskeySignIn,
    async (request) => {
      const options = await authenticationOptions({
        db: db.kysely,
        rp,
        session: request.session ?? null,
      });
      return { success: true as const, options: { ...options } };
    },
    { config: perClient },
  );

  route(
    app,
    endpoints.signInWithPasskey,
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
    { config: perClient },
  );

  route(app, endpoints.listPasskeys, async (request) =>
    listOwnPasskeys({ db: db.kysely, session: completeSessionOf(request) }),
  );

  route(
    app,
    endpoints.removePasskey,
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
    { preValidation: signedInFully },
  );

  route(
    app,
    endpoints.startPasskeyStepUp,
    async (request) => {
      const options = await stepUpOptions({
        db: db.kysely,
        rp,
        session: completeSessionOf(request),
      });
      return { success: true as const, options: { ...options } };
    },
    { config: perClient },
  );

  route(
    app,
    endpoints.stepUpWithPasskey,
    async (request) =>
      stepUpWithPasskey({
        db: db.kysely,
        rp,
        session: completeSessionOf(request),
        response: request.body.credential as unknown as AuthenticationResponseJSON,
        address: request.ip,
      }),
    { config: perClient, preValidation: signedInFully },
  );
};
