import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DISPLAY_COOKIES } from '../../../common/displayCookies';
import { roleName } from '../../../common/roles';
import { ABSOLUTE_TIMEOUT, SESSION_COOKIE, type SessionUser } from '../../lib/sessions';

const CSRF_COOKIE = 'csrftoken';

function baseOptions(request: FastifyRequest) {
  return { path: '/', sameSite: 'lax' as const, secure: request.protocol === 'https' };
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, sessionId: string) {
  reply.setCookie(SESSION_COOKIE, sessionId, {
    ...baseOptions(request),
    httpOnly: true,
    maxAge: ABSOLUTE_TIMEOUT / 1000,
  });
}

const displayOptions = (request: FastifyRequest) => ({
  ...baseOptions(request),
  httpOnly: false,
  maxAge: ABSOLUTE_TIMEOUT / 1000,
});

function setRoleCookies(request: FastifyRequest, reply: FastifyReply, user: SessionUser) {
  const options = displayOptions(request);
  reply.setCookie('is_superuser', String(user.role === 'superuser'), options);
  reply.setCookie('is_institution_admin', String(user.role === 'institution_admin'), options);
  reply.setCookie('user_role', roleName(user.role), options);
}

/** The display cookies of DISPLAY_COOKIES, for the signed-in user. */
export function setDisplayCookies(request: FastifyRequest, reply: FastifyReply, user: SessionUser) {
  const options = displayOptions(request);
  // A random marker, deliberately unrelated to the session id, so scripts never hold the session.
  reply.setCookie('auth_token', crypto.randomBytes(16).toString('hex'), options);
  reply.setCookie('user_email', user.email, options);
  setRoleCookies(request, reply, user);
}

/**
 * Sets the role's display cookies again when they no longer say the user's role (an admin
 * changed it since sign-in), so the next page's header is drawn for the role the user has now.
 */
export function refreshRoleCookies(request: FastifyRequest, reply: FastifyReply, user: SessionUser) {
  if (request.cookies.user_role !== roleName(user.role)) setRoleCookies(request, reply, user);
}

export function clearAuthCookies(request: FastifyRequest, reply: FastifyReply) {
  for (const name of [SESSION_COOKIE, ...DISPLAY_COOKIES]) reply.clearCookie(name, baseOptions(request));
}

/** Issues a CSRF token bound to the given session (or to "anonymous") and puts it in the cookie. */
export function issueCsrfToken(
  request: FastifyRequest,
  reply: FastifyReply,
  sessionHash: string | null,
): string {
  const token = reply.generateCsrf({ userInfo: sessionHash ?? 'anonymous' });
  reply.setCookie(CSRF_COOKIE, token, { ...baseOptions(request), httpOnly: false });
  return token;
}

/**
 * A session cookie the server no longer knows makes the visitor anonymous. Besides the session
 * and display cookies, the CSRF token goes: it was bound to the dead session, so every unsafe
 * call, login and registration included, would be refused with it. The anonymous token that
 * replaces it lets the visitor's next call through the first time.
 */
export function forgetDeadSession(request: FastifyRequest, reply: FastifyReply) {
  clearAuthCookies(request, reply);
  issueCsrfToken(request, reply, null);
}

/**
 * Marks a browser that has signed in to an account before. Failed logins are counted per account
 * and client, and this cookie is how the owner's usual browser is told apart from a stranger at
 * the same address: a stranger's failures never lock it. Signed (it cannot be forged), HttpOnly,
 * and sent to the login endpoint only.
 */
const KNOWN_DEVICE_COOKIE = 'known_device';
const KNOWN_DEVICE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** Ties the cookie to one account without putting the address in it. */
function accountTag(email: string): string {
  return crypto.createHash('sha256').update(email).digest('base64url').slice(0, 16);
}

/** This browser's id when it has signed in to this account before, else null. */
export function knownDeviceFor(request: FastifyRequest, email: string): string | null {
  const raw = request.cookies[KNOWN_DEVICE_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  const [tag, id] = unsigned.value.split('.');
  return tag === accountTag(email) && id ? id : null;
}

export function setKnownDevice(
  request: FastifyRequest,
  reply: FastifyReply,
  email: string,
  id: string | null,
) {
  const deviceId = id ?? crypto.randomBytes(16).toString('base64url');
  reply.setCookie(KNOWN_DEVICE_COOKIE, `${accountTag(email)}.${deviceId}`, {
    ...baseOptions(request),
    path: '/api/login/',
    httpOnly: true,
    signed: true,
    maxAge: KNOWN_DEVICE_MAX_AGE_S,
  });
}
