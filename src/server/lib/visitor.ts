import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The browser, signed in or not: an opaque random id in an HttpOnly cookie that lasts as long as
 * the browser session. Addresses proven with a code are proven for this browser only, and a
 * submission or registration it sent can be completed only from it. Only the id's hash is stored.
 */
const VISITOR_COOKIE = 'visitorid';

function hashVisitorId(id: string): string {
  return crypto.createHash('sha256').update(`visitor:${id}`).digest('hex');
}

/** The hash of this browser's visitor id; a browser without one (or with a malformed one) gets one. */
export function visitorHash(request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[VISITOR_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return hashVisitorId(existing);
  const id = crypto.randomBytes(32).toString('base64url');
  reply.setCookie(VISITOR_COOKIE, id, {
    path: '/',
    sameSite: 'lax',
    httpOnly: true,
    secure: request.protocol === 'https',
  });
  return hashVisitorId(id);
}
