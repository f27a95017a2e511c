import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A cookie that only this host may set: over HTTPS its name carries the `__Host-` prefix, which
 * browsers accept only from a secure response, for the whole site, without a Domain. A sibling
 * subdomain (or a network attacker on plain http) then cannot plant one for it. Plain http (local
 * development) keeps the bare name, since browsers refuse the prefix there.
 */
export function hostCookieName(request: FastifyRequest, name: string): string {
  return request.protocol === 'https' ? `__Host-${name}` : name;
}

/** This request's value of a host cookie, read only under the name this scheme uses. */
export function readHostCookie(request: FastifyRequest, name: string): string | undefined {
  return request.cookies[hostCookieName(request, name)];
}

/** Sets an HttpOnly host cookie; `maxAgeSeconds` absent keeps it for the browser session. */
export function setHostCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  maxAgeSeconds?: number,
) {
  reply.setCookie(hostCookieName(request, name), value, {
    path: '/',
    sameSite: 'lax',
    httpOnly: true,
    secure: request.protocol === 'https',
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  });
}

export function clearHostCookie(request: FastifyRequest, reply: FastifyReply, name: string) {
  reply.clearCookie(hostCookieName(request, name), {
    path: '/',
    sameSite: 'lax',
    httpOnly: true,
    secure: request.protocol === 'https',
  });
}
