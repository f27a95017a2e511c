import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { safeNextPath } from '../../../common/safe-next';
import { ErrorResponse, IdParam } from '../../../common/schemas/common';
import {
  SsoDiscoverRequest,
  SsoDiscoverResponse,
  SsoSettingsRequest,
  SsoSettingsResponse,
} from '../../../common/schemas/sso';
import { runInTransaction } from '../../db/transaction-runner';
import { auditActor } from '../../lib/audit';
import { guardRoutes } from '../../lib/guards';
import { visitorHash } from '../../lib/visitor';
import { issueCsrfToken, setDisplayCookies, setSessionCookie } from '../auth/cookies';
import { disableSso, getSsoSettings, saveSsoSettings } from './settings';
import { completeSsoSignIn, discoverSso, SsoFailure, startSsoSignIn } from './sign-in';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const tags = ['single sign-on'];
/** Discovery is one call per address typed on the login page; plenty for people, a wall for listing domains. */
const DISCOVERIES_PER_MINUTE = 30;
/** Each start and callback calls the provider: a person needs a few, a script gets no relay out of it. */
const SIGN_INS_PER_MINUTE = 20;

const StartQuery = z.object({
  institution: IdParam,
  next: z.optional(z.string().check(z.maxLength(2000, 'next is too long'))),
});
/** What providers send back; every value is checked by the sign-in, not here. */
const CallbackQuery = z.object({
  state: z.optional(z.string().check(z.maxLength(500))),
  code: z.optional(z.string().check(z.maxLength(4000))),
  error: z.optional(z.string().check(z.maxLength(500))),
});
const Redirect = { 302: z.null() };

interface SsoContext {
  /** Seals the institutions' client secrets (lib/sealed.ts). */
  sealKey: Buffer;
}

/** Admins set up their institution's OpenID Connect provider (design section 11). */
const settingsRoutes: FastifyPluginAsyncZod<SsoContext> = async (app, { sealKey }) => {
  const { db } = app;
  const requireSettingsAdmin = guardRoutes(app, 'settings');

  app.get(
    '/api/institution/sso/',
    {
      schema: {
        tags,
        summary: "The institution's single sign-on; the client secret is never returned",
        response: { 200: SsoSettingsResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return getSsoSettings({
        db: db.kysely,
        institutionId: admin.institutionId,
        actor: auditActor(request, admin),
      });
    },
  );

  app.put(
    '/api/institution/sso/',
    {
      schema: {
        tags,
        summary: 'Set up or change single sign-on',
        description: 'Without client_secret (or with an empty one), the stored secret is kept.',
        body: SsoSettingsRequest,
        response: { 200: SsoSettingsResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return runInTransaction(db.kysely, (trx) =>
        saveSsoSettings({
          db: trx,
          institutionId: admin.institutionId,
          actor: auditActor(request, admin),
          sealKey,
          settings: request.body,
        }),
      );
    },
  );

  app.delete(
    '/api/institution/sso/',
    {
      schema: {
        tags,
        summary: 'Switch single sign-on off: everyone signs in with a password again',
        response: { 200: SsoSettingsResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return runInTransaction(db.kysely, (trx) =>
        disableSso({ db: trx, institutionId: admin.institutionId, actor: auditActor(request, admin) }),
      );
    },
  );
};

/** Signing in through the institution's provider: public, as the login page is. */
const signInRoutes: FastifyPluginAsyncZod<SsoContext> = async (app, { sealKey }) => {
  const { db, config } = app;
  const redirectUri = new URL('/api/sso/callback/', config.mail.linkBase).href;
  /** The login screen with the reason a sign-in failed, still on its way to `next` if there was one. */
  const loginWithError = (failure: SsoFailure, next: string | null | undefined) =>
    `/login/?sso_error=${encodeURIComponent(failure.reason)}${next ? `&next=${encodeURIComponent(next)}` : ''}`;

  app.post(
    '/api/sso/discover/',
    {
      schema: {
        tags,
        summary: "Whether an address signs in through its institution's provider, and where to start",
        body: SsoDiscoverRequest,
        response: { 200: SsoDiscoverResponse, 400: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse },
      },
      config: { rateLimit: { max: DISCOVERIES_PER_MINUTE, timeWindow: 60_000 } },
    },
    async (request) => discoverSso(db.kysely, request.body.email),
  );

  app.get(
    '/api/sso/start/',
    {
      schema: {
        tags,
        summary: "Redirect to the institution's provider to sign in",
        description:
          'Answers 302 to the provider, or to /login/?sso_error=<reason>&next=<next> when the sign-in cannot start. `next` is kept when it stays on this site.',
        querystring: StartQuery,
        response: { ...Redirect, 400: ErrorResponse, 429: ErrorResponse },
      },
      config: { rateLimit: { max: SIGN_INS_PER_MINUTE, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const next = safeNextPath(request.query.next, new URL(config.mail.linkBase).origin);
      try {
        const url = await startSsoSignIn({
          db: db.kysely,
          sealKey,
          institutionId: request.query.institution,
          next,
          redirectUri,
        });
        return reply.redirect(url.href, 302);
      } catch (error) {
        if (!(error instanceof SsoFailure)) throw error;
        request.log.warn({ reason: error.reason, detail: error.detail }, 'single sign-on could not start');
        return reply.redirect(loginWithError(error, next), 302);
      }
    },
  );

  app.get(
    '/api/sso/callback/',
    {
      schema: {
        tags,
        summary: 'Where the provider sends the browser back; signs in and redirects',
        description:
          'Answers 302 to where the sign-in was going (or the home of the role), or to /login/?sso_error=<reason>, with that `next` kept. Each state works once.',
        querystring: CallbackQuery,
        response: { ...Redirect, 400: ErrorResponse, 429: ErrorResponse },
      },
      config: { rateLimit: { max: SIGN_INS_PER_MINUTE, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      try {
        const signedIn = await completeSsoSignIn({
          db: db.kysely,
          sealKey,
          // The address the provider sent the browser to: the registered redirect with its query.
          callbackUrl: new URL(request.url, redirectUri),
          state: request.query.state,
          visitorHash: visitorHash(request, reply),
          previousSessionIdHash: request.session?.idHash,
        });
        setSessionCookie(request, reply, signedIn.sessionId);
        setDisplayCookies(request, reply, signedIn.user);
        issueCsrfToken(request, reply, signedIn.sessionIdHash);
        return reply.redirect(signedIn.destination, 302);
      } catch (error) {
        if (!(error instanceof SsoFailure)) throw error;
        request.log.warn({ reason: error.reason, detail: error.detail }, 'single sign-on refused');
        return reply.redirect(loginWithError(error, error.next), 302);
      }
    },
  );
};

export const ssoRoutes: FastifyPluginAsyncZod<SsoContext> = async (app, options) => {
  await app.register(settingsRoutes, options);
  await app.register(signInRoutes, options);
};
