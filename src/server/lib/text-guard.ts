import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';

export const UNSTORABLE_TEXT =
  'Text cannot contain NUL characters or broken Unicode (unpaired surrogates). Remove them and try again.';

/**
 * Characters no column holds faithfully: NUL, which PostgreSQL refuses outright, and unpaired
 * UTF-16 surrogates, which both databases would silently turn into U+FFFD.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this looks for.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Nesting deeper than any request of the API; what lies beyond is never read or stored. */
const MAX_DEPTH = 32;

export function hasUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return false;
  // A streamed body (the roster's CSV) is not data yet: its reader refuses NUL and broken text.
  if (value instanceof Readable) return false;
  if (Array.isArray(value)) return value.some((item) => hasUnstorableText(item, depth + 1));
  return Object.entries(value).some(
    ([key, item]) => UNSTORABLE.test(key) || hasUnstorableText(item, depth + 1),
  );
}

/**
 * Refuses API requests whose path, query or (validated) body carries unstorable text, with a
 * 400 instead of a database error or silently altered data. It runs after the routes' own
 * access checks and validation, so it changes no answer those give.
 */
export function installTextGuard(app: FastifyInstance) {
  app.addHook('preHandler', async (request) => {
    if (!request.routeOptions.url?.startsWith('/api/')) return;
    if (
      hasUnstorableText(request.params) ||
      hasUnstorableText(request.query) ||
      hasUnstorableText(request.body)
    ) {
      throw new AppError('BAD_REQUEST', UNSTORABLE_TEXT);
    }
  });
}
