import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { can, roleName } from '../../../common/roles';
import { safeNextPath } from '../../../common/safe-next';
import { ErrorResponse, IdParam } from '../../../common/schemas/common';
import {
  SSO_ERROR_MESSAGES,
  SsoConnectionTestRequest,
  SsoConnectionTestResponse,
  SsoDiscoverRequest,
  SsoDiscoverResponse,
  SsoSettingsRequest,
  SsoSettingsResponse,
} from '../../../common/schemas/sso';
import { writeTransaction } from '../../db/transaction-runner';
import { auditActor } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { guardRoutes, needsSecondFactor, requireUser } from '../../lib/guards';
import { clearHostCookie, readHostCookie, setHostCookie } from '../../lib/host-cookie';
import type { Session } from '../../lib/sessions';
import { requireFreshFactor } from '../../lib/step-up';
import { provingVisitor } from '../../lib/visitor';
import { LIMITS, routeLimit } from '../../limit-table';
import { auditSignIn, issueCsrfToken, setDisplayCookies, setSessionCookie } from '../auth';
import { disableSso, getSsoSettings, saveSsoSettings, testSsoConnection } from './settings';
import {
  ATTEMPT_LIFETIME,
  completeSsoSignIn,
  discoverSso,
  newBrowserBinding,
  SsoFailure,
  SsoNotSetUp,
  startSsoSignIn,
} from './sign-in';

const NO_INSTITUTION_SSO = 'Your institution does not sign in through its own provider here.';
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const tags = ['single sign-on'];

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
const LinkResponse = z.object({ success: z.literal(true), authorization_url: z.string() });

/** The cookie that binds a sign-in under way to the browser that started it. */
const BINDING_COOKIE = 'sso_attempt';

interface SsoContext {
  /** Seals the institutions' client secrets (lib/sealed.ts). */
  sealKey: Buffer;
}

/** Admins set up their institution's OpenID Connect provider (design section 11). */
const settingsRoutes: FastifyPluginAsyncZod<SsoContext> = async (app, { sealKey }) => {
  const { db, config } = app;
  const network = { allowLoopback: config.sso.allowLoopbackIssuer };
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
        description:
          'Without client_secret (or with an empty one), the stored secret is kept. Needs a second factor proven in the last 5 minutes (403 STEP_UP_REQUIRED); every admin is told by mail. Switching on, or changing the issuer or client ID, needs a passed connection test (POST /api/institution/sso/test/) of the same issuer and client ID in the last hour (409 CONNECTION_UNTESTED).',
        body: SsoSettingsRequest,
        response: { 200: SsoSettingsResponse, 409: ErrorResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      requireFreshFactor(request.session as Session);
      const saved = await writeTransaction(db.kysely, (trx) =>
        saveSsoSettings({
          db: trx,
          institutionId: admin.institutionId,
          actor: auditActor(request, admin),
          sealKey,
          network,
          settings: request.body,
        }),
      );
      app.mail.wake();
      return saved;
    },
  );

  app.post(
    '/api/institution/sso/test/',
    {
      schema: {
        tags,
        summary: "Test connection: read the provider's discovery document, changing nothing",
        description:
          'Through the same network guard as a sign-in (public addresses only). 400 with the reason when the provider cannot be reached or does not answer as an OpenID Connect provider. A passed test lets single sign-on be switched on with this issuer and client ID for the next hour; a failed one withdraws that.',
        body: SsoConnectionTestRequest,
        response: { 200: SsoConnectionTestResponse, 429: ErrorResponse, ...errors },
      },
      // Each test calls out to the address typed: plenty for an admin, no scanner for anyone.
      config: { rateLimit: routeLimit(LIMITS.ssoDiscoveriesPerClient) },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return testSsoConnection({
        db: db.kysely,
        institutionId: admin.institutionId,
        actor: auditActor(request, admin),
        request: request.body,
        network,
      });
    },
  );

  app.delete(
    '/api/institution/sso/',
    {
      schema: {
        tags,
        summary: 'Switch single sign-on off: everyone signs in with a password again',
        description:
          'Needs a second factor proven in the last 5 minutes (403 STEP_UP_REQUIRED); every admin is told by mail.',
        response: { 200: SsoSettingsResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      requireFreshFactor(request.session as Session);
      const disabled = await writeTransaction(db.kysely, (trx) =>
        disableSso({ db: trx, institutionId: admin.institutionId, actor: auditActor(request, admin) }),
      );
      app.mail.wake();
      return disabled;
    },
  );
};

/** Signing in through the institution's provider: public, as the login page is. */
const signInRoutes: FastifyPluginAsyncZod<SsoContext> = async (app, { sealKey }) => {
  const { db, config } = app;
  const network = { allowLoopback: config.sso.allowLoopbackIssuer };
  const redirectUri = new URL('/api/sso/callback/', config.mail.linkBase).href;
  /** Gives the browser the secret that only it will hold while it is away at the provider. */
  const bindBrowser = (request: FastifyRequest, reply: FastifyReply) => {
    const binding = newBrowserBinding();
    setHostCookie(request, reply, BINDING_COOKIE, binding.token, ATTEMPT_LIFETIME / 1000);
    return binding.hash;
  };
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
      config: { rateLimit: routeLimit(LIMITS.ssoDiscoveriesPerClient) },
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
      config: { rateLimit: routeLimit(LIMITS.ssoSignInsPerClient) },
    },
    async (request, reply) => {
      const next = safeNextPath(request.query.next, new URL(config.mail.linkBase).origin);
      try {
        const url = await startSsoSignIn({
          db: db.kysely,
          sealKey,
          network,
          institutionId: request.query.institution,
          next,
          redirectUri,
          browserHash: bindBrowser(request, reply),
        });
        return reply.redirect(url.href, 302);
      } catch (error) {
        if (!(error instanceof SsoFailure)) throw error;
        request.log.warn({ reason: error.reason, detail: error.detail }, 'single sign-on could not start');
        return reply.redirect(loginWithError(error, next), 302);
      }
    },
  );

  app.post(
    '/api/sso/link/',
    {
      schema: {
        tags,
        summary: 'Link the signed-in account to its institution account, for signing in with it',
        description:
          "Answers the provider's address to send the browser to; it comes back to the callback, which links the identity the provider proves to this account (staff sign in with their institution only once linked this way).",
        response: { 200: LinkResponse, ...errors, 429: ErrorResponse },
      },
      config: { rateLimit: routeLimit(LIMITS.ssoSignInsPerClient) },
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (user.institutionId === null) throw new AppError('FORBIDDEN', NO_INSTITUTION_SSO);
      // A linked identity is one more way into a staff account: a session taken over without the
      // second factor cannot add one.
      if (needsSecondFactor(user.role)) requireFreshFactor(request.session as Session);
      try {
        const url = await startSsoSignIn({
          db: db.kysely,
          sealKey,
          network,
          institutionId: user.institutionId,
          next: can(roleName(user.role), 'dashboard') ? '/dashboard/' : '/survey/',
          redirectUri,
          browserHash: bindBrowser(request, reply),
          linkUserId: user.id,
        });
        return { success: true as const, authorization_url: url.href };
      } catch (error) {
        if (!(error instanceof SsoFailure)) throw error;
        request.log.warn(
          { reason: error.reason, detail: error.detail },
          'single sign-on link could not start',
        );
        // No provider set up is nothing to link to; a provider that failed is said as the login page says it.
        if (error instanceof SsoNotSetUp) throw new AppError('NOT_FOUND', NO_INSTITUTION_SSO);
        throw new AppError('BAD_REQUEST', SSO_ERROR_MESSAGES[error.reason]);
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
      // The code and state work once, but until the callback has used them they sign someone in.
      config: {
        secretParams: ['code', 'state'],
        rateLimit: routeLimit(LIMITS.ssoSignInsPerClient),
      },
    },
    async (request, reply) => {
      const browserToken = readHostCookie(request, BINDING_COOKIE);
      if (browserToken !== undefined) clearHostCookie(request, reply, BINDING_COOKIE);
      const { session } = request;
      try {
        const completed = await completeSsoSignIn({
          db: db.kysely,
          sealKey,
          network,
          // The address the provider sent the browser to: the registered redirect with its query.
          callbackUrl: new URL(request.url, redirectUri),
          state: request.query.state,
          browserToken,
          visitor: provingVisitor(request, reply),
          current: session ? { idHash: session.idHash, userId: session.user.id } : undefined,
        });
        if (completed.kind === 'signed-in') {
          await auditSignIn(db.kysely, completed.user, 'sso', request.ip);
          setSessionCookie(request, reply, completed.sessionId);
          setDisplayCookies(request, reply, completed.user);
          issueCsrfToken(request, reply, completed.sessionIdHash);
        }
        return reply.redirect(completed.destination, 302);
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
