import type { z } from 'zod/mini';
import type { Ability } from '../roles';

/**
 * The API's contract, one entry per endpoint: the server registers its routes from these entries
 * (src/server/lib/route.ts), the web app calls them by name (src/web/api.ts), and the OpenAPI
 * document is generated from the routes. Each feature's endpoints are one module here; the web
 * app imports single entries from them, never an index, so a page's script carries only the
 * entries it calls (each entry is built by a call marked pure, dropped when nothing uses it).
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A schema of the contract: zod's small build (common/schemas), or the full one (server only). */
export type Schema = z.core.$ZodType;

/**
 * Who may call an endpoint:
 * - `public`: anyone, signed in or not;
 * - `session`: a signed-in user whose sign-in may still wait for its second factor;
 * - `user`: a signed-in user who completed their sign-in;
 * - `student`: a signed-in student;
 * - `{ staff }`: staff of an institution whose role has that ability (common/roles.ts).
 */
export type Access = 'public' | 'session' | 'user' | 'student' | { staff: Ability };

/**
 * What a success answers: a JSON body (`json`, the default), a file (`text/csv`) or an event
 * stream (`text/event-stream`), each described by `schema`; a page or style sheet for the
 * browser, with no schema; or a redirect of the browser, with no body.
 */
export type Success =
  | { status: number; schema: Schema; type?: 'json' | 'text/csv' | 'text/event-stream' }
  | { status: number; type: 'text/html' | 'text/css' }
  | { status: 301 | 302 | 303 | 307; redirect: true };

/** The failure statuses an endpoint answers, each with the API's one failure body. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 429 | 503;

export interface Endpoint {
  method: Method;
  /** Fastify's path: `:name` for a parameter, `*` for the rest of the path. */
  path: string;
  summary: string;
  /** More than the summary says, when there is more to say. */
  description?: string;
  tags: readonly string[];
  params?: Schema;
  query?: Schema;
  body?: Schema;
  response: Success;
  /** The failure statuses it answers with the API's failure body (`ErrorResponse`). */
  errors: readonly ErrorStatus[];
  /** Answers of other statuses with bodies of their own (a probe's 503). */
  alternatives?: Readonly<Record<number, Schema>>;
  access: Access;
  /** Left out of the OpenAPI document: not part of the API (a style sheet of a page). */
  hidden?: true;
}

/** Declares an endpoint: the entry itself, its schemas' types kept for server and web. */
export function endpoint<const E extends Endpoint>(entry: E): E {
  return entry;
}

/** An endpoint that answers JSON: what the web app calls. */
export type JsonEndpoint = Endpoint & { response: { schema: Schema; type?: 'json' } };

/** The staff ability an endpoint requires, or null when it is not a staff endpoint. */
export function staffAbility(access: Access): Ability | null {
  return typeof access === 'object' ? access.staff : null;
}

/**
 * An endpoint's address: its `:name` parameters filled in (each encoded), then a query string of
 * the query's values that are set, e.g. `/api/cases/:id/` with `{ id: 3 }` is `/api/cases/3/`.
 * What the web app calls, links to and downloads.
 */
export function endpointUrl(
  entry: Pick<Endpoint, 'path'>,
  params: Readonly<Record<string, string | number>> = {},
  query: Readonly<Record<string, unknown>> = {},
): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value != null && value !== '') search.set(key, `${value}`);
  }
  const path = entry.path.replace(/:(\w+)/g, (_match, name: string) =>
    encodeURIComponent(params[name] ?? ''),
  );
  return search.size ? `${path}?${search}` : path;
}
