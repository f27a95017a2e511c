import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors';
import { findSession, SESSION_COOKIE } from './sessions';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false for the few unsafe routes a plain HTML form posts to (no script can add the header). */
    csrf?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * This site's own origins: the Host the browser addressed (proxies forward it unchanged) and
 * PUBLIC_URL. Not X-Forwarded-Host: a proxy passes on whatever a client wrote there, so trusting
 * it would let a forged header vouch for a foreign Origin. Behind a proxy that rewrites Host,
 * PUBLIC_URL names the public origin.
 */
function allowedOrigins(request: FastifyRequest, publicUrl: string | null): Set<string> {
  const origins = new Set([`${request.protocol}://${request.headers.host ?? ''}`]);
  if (publicUrl) origins.add(new URL(publicUrl).origin);
  return origins;
}

interface RequestGuardOptions {
  /**
   * Called when a request carries a session cookie the server does not know (expired, ended or
   * forged): the visitor is anonymous from here on, and the cookies of the dead session must go.
   */
  forgetSession(request: FastifyRequest, reply: FastifyReply): void;
}

/**
 * Runs before every API handler: resolves the session from its cookie, then refuses unsafe
 * requests from foreign origins or without a CSRF token bound to that session.
 */
export function installRequestGuard(app: FastifyInstance, options: RequestGuardOptions) {
  app.decorateRequest('session', null);

  app.addHook('onRequest', async (request, reply) => {
    // Decided by the route the router matched, not by the raw URL: the router decodes the path,
    // so "/%61pi/login/" reaches the "/api/login/" handler and must meet the same guard.
    const route = request.routeOptions.url;
    if (!(route ?? request.url).startsWith('/api/')) return;
    const sessionId = request.cookies[SESSION_COOKIE];
    if (sessionId) {
      request.session = await findSession(app.db.kysely, sessionId);
      if (!request.session) options.forgetSession(request, reply);
    }

    const isUnknownRoute = !route;
    if (SAFE_METHODS.has(request.method) || isUnknownRoute) return;

    const origin = request.headers.origin;
    if (origin && !allowedOrigins(request, app.config.web.publicUrl).has(origin)) {
      throw new AppError('FORBIDDEN', 'Cross-origin request refused');
    }
    if (request.routeOptions.config.csrf === false) return;
    await new Promise<void>((resolve, reject) => {
      app.csrfProtection(request, reply, (error?: Error) => (error ? reject(error) : resolve()));
    });
  });
}
