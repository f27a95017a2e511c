import type { Writable } from 'node:stream';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Config } from '../config';

/**
 * A shared-link hash or a personal invitation token is a password to answer as anyone (or as one
 * named student): whoever reads the log could use it. Both sit in the path after `/link/` or
 * `/invite/` (the page `/survey/link/<hash>` and the API `/api/survey/link/<hash>/` alike), in
 * their raw or percent-encoded form, so the segment is replaced before a URL reaches a log line.
 */
const TOKEN_SEGMENT = /(\/(?:link|invite)\/)[^/?#]+/gi;
/**
 * The authorization code and state a sign-in provider sends back (`/api/sso/callback/?code=&state=`)
 * are one-time credentials too, until the callback has used them.
 */
const TOKEN_PARAMETER = /([?&](?:code|state)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(TOKEN_SEGMENT, '$1[redacted]').replace(TOKEN_PARAMETER, '$1[redacted]');
}

/** Fastify's own request serializer, with the URL redacted. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The server's logger settings. Logs go to standard output only (the process manager keeps them);
 * the server writes no log file of its own. `stream` lets tests read the lines.
 */
export function loggerOptions(level: Config['logLevel'], stream?: Writable): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return { level, serializers: { req: serializeRequest }, ...(stream ? { stream } : {}) };
}
