import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse } from '../../../common/schemas/common';
import {
  PasskeyAuthentication,
  PasskeyOptions,
  PasskeyRegistration,
  PasskeySignedIn,
} from '../../../common/schemas/passkeys';
import type { Config } from '../../config';
import { requireSession } from '../../lib/guards';
import type { Session, SessionUser } from '../../lib/sessions';
import { issueCsrfToken, setDisplayCookies, setSessionCookie } from '../auth/cookies';
import { toCurrentUser } from '../auth/service';
import {
  authenticateWithPasskey,
  authenticationOptions,
  type RelyingParty,
  registerPasskey,
  registrationOptions,
  requireStaffAccount,
} from './service';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
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
export const passkeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  const perClient = { rateLimit: { max: config.limits.loginPerIpPerMinute, timeWindow: 60_000 } };

  const sessionOf = (request: FastifyRequest) => {
    requireSession(request);
    return request.session as Session;
  };
  // Before body validation: a visitor or a student learns nothing from a 400.
  const signedIn = async (request: FastifyRequest) => {
    requireStaffAccount(sessionOf(request));
  };

  const rp = relyingPartyOf(config);

  app.post(
    '/api/passkeys/registration/options/',
    {
      schema: {
        tags,
        summary: 'Start adding a passkey (staff)',
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
        description: 'As the first second factor of a password sign-in, it also completes that sign-in.',
        body: PasskeyRegistration,
        response: { 200: PasskeySignedIn, ...errors },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const stronger = await registerPasskey({
        db: db.kysely,
        rp,
        session,
        response: request.body.credential as unknown as RegistrationResponseJSON,
      });
      if (stronger) giveSession(request, reply, stronger);
      return {
        success: true as const,
        message: 'Your passkey is added.',
        user: toCurrentUser(stronger?.user ?? session.user),
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
      });
      giveSession(request, reply, opened);
      return { success: true as const, message: 'Signed in', user: toCurrentUser(opened.user) };
    },
  );
};
