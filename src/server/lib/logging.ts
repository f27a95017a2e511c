import type { Writable } from 'node:stream';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Config } from '../config';

/**
 * A route whose path or query carries a secret says so: `config: { secretParams: ['hashLink'] }`
 * names the path parameters (`:hashLink`, or `*`) and query parameters (`code`, `state`) that are
 * credentials (a shared-link hash answers as anyone, an invitation token as one named person, a
 * provider's code signs someone in). Their values never reach a log line. Declared on the route
 * rather than matched by a pattern over addresses, so a new route cannot slip past a pattern that
 * does not know it: test/hardening/secret-params.test.ts refuses a route whose parameter is named
 * like a secret and not declared.
 */
export interface SecretParamsConfig {
  secretParams?: readonly string[];
  /**
   * The route takes answers that must not be traced to their sender (an anonymous campaign's):
   * its log lines leave out the client's network address and port.
   */
  clientUnlogged?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig extends SecretParamsConfig {}
}

export const REDACTED = '[redacted]';

/**
 * The address with the values of `secret` parameters replaced: path segments found by the
 * position of `:name` in the route's pattern (a `*` takes the rest of the path), query values by
 * their name.
 */
export function redactUrl(url: string, pattern: string | undefined, secret: readonly string[]): string {
  if (secret.length === 0) return url;
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? null : url.slice(queryAt + 1);
  return `${redactPath(path, pattern, secret)}${query === null ? '' : `?${redactQuery(query, secret)}`}`;
}

function redactPath(path: string, pattern: string | undefined, secret: readonly string[]): string {
  if (!pattern) return path;
  const segments = path.split('/');
  const parts = pattern.split('/');
  for (const [index, part] of parts.entries()) {
    if (index >= segments.length) break;
    if (part === '*' && secret.includes('*')) return [...segments.slice(0, index), REDACTED].join('/');
    if (part.startsWith(':') && secret.includes(part.slice(1))) segments[index] = REDACTED;
  }
  return segments.join('/');
}

function redactQuery(query: string, secret: readonly string[]): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals === -1 ? pair : pair.slice(0, equals);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A malformed escape is logged as sent, and matched as sent.
      }
      return secret.includes(name) ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
}

/** Fastify's own request serializer, with the route's secret parameters redacted. */
function serializeRequest(request: FastifyRequest) {
  const route = request.routeOptions;
  const line = {
    method: request.method,
    url: redactUrl(request.url, route?.url, route?.config?.secretParams ?? []),
    host: request.host,
  };
  if (route?.config?.clientUnlogged) return line;
  return { ...line, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
}

/**
 * The server's logger settings. Logs go to standard output only (the process manager keeps them);
 * the server writes no log file of its own. `stream` lets tests read the lines.
 */
export function loggerOptions(level: Config['logLevel'], stream?: Writable): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return { level, serializers: { req: serializeRequest }, ...(stream ? { stream } : {}) };
}
