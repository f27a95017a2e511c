import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/sso';
import { can, roleName } from '../../../common/roles';
import { safeNextPath } from '../../../common/safe-next';
import { SSO_ERROR_MESSAGES } from '../../../common/schemas/sso';
import { writeTransaction } from '../../db/transaction-runner';
import { auditActor } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { needsSecondFactor, requireUser } from '../../lib/guards';
import { clearHostCookie, readHostCookie, setHostCookie } from '../../lib/host-cookie';
import { route } from '../../lib/route';
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

/** What providers send back; every value is checked by the sign-in, not here. */

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

  route(app, endpoints.getSsoSettings, async (request, _reply, admin) => {
    return getSsoSettings({
      db: db.kysely,
      institutionId: admin.institutionId,
      actor: auditActor(request, admin),
    });
  });

  route(app, endpoints.updateSsoSettings, async (request, _reply, admin) => {
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
  });

  route(
    app,
    endpoints.testSsoConnection,
    async (request, _reply, admin) => {
      return testSsoConnection({
        db: db.kysely,
        institutionId: admin.institutionId,
        actor: auditActor(request, admin),
        request: request.body,
        network,
      });
    },
    {
      // Each test calls out to the address typed: plenty for an admin, no scanner for anyone.
      config: { rateLimit: routeLimit(LIMITS.ssoDiscoveriesPerClient) },
    },
  );

  route(app, endpoints.disableSso, async (request, _reply, admin) => {
    requireFreshFactor(request.session as Session);
    const disabled = await writeTransaction(db.kysely, (trx) =>
      disableSso({ db: trx, institutionId: admin.institutionId, actor: auditActor(request, admin) }),
    );
    app.mail.wake();
    return disabled;
  });
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

  route(app, endpoints.discoverSso, async (request) => discoverSso(db.kysely, request.body.email), {
    config: { rateLimit: routeLimit(LIMITS.ssoDiscoveriesPerClient) },
  });

  route(
    app,
    endpoints.startSso,
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
    { config: { rateLimit: routeLimit(LIMITS.ssoSignInsPerClient) } },
  );

  route(
    app,
    endpoints.linkSsoAccount,
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
    { config: { rateLimit: routeLimit(LIMITS.ssoSignInsPerClient) } },
  );

  route(
    app,
    endpoints.completeSso,
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
    {
      // The code and state work once, but until the callback has used them they sign someone in.
      config: {
        secretParams: ['code', 'state'],
        rateLimit: routeLimit(LIMITS.ssoSignInsPerClient),
      },
    },
  );
};

export const ssoRoutes: FastifyPluginAsyncZod<SsoContext> = async (app, options) => {
  await app.register(settingsRoutes, options);
  await app.register(signInRoutes, options);
};
