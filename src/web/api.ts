import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { z } from 'zod/mini';
import { getCsrfToken } from '../common/endpoints/auth';
import { endpointUrl, type JsonEndpoint, type Method, type Schema } from '../common/endpoints/endpoint';
import { DEFAULT_LANGUAGE } from '../common/languages';
import type { ErrorCode } from '../common/schemas/common';
import { ERROR_CODES } from '../common/schemas/values';
import { i18n } from './app/i18n';

/**
 * The one HTTP client of the web app. Every response is parsed with the shared zod schema of
 * its endpoint, so a screen never works with a shape the server did not promise. The answers a
 * page's first paint was rendered from are the exception: the server's render parsed them with
 * the same schemas (firstPaint.ts), and so a public page needs no zod to take its paint over.
 */

/**
 * An entry's response schema, or, in the browser's build, a function that loads it: the schemas
 * load with zod the first time an answer is parsed (scripts/vite-endpoint-entries.ts).
 */
type SchemaOrLoader<S extends z.ZodMiniType> = S | (() => Promise<S>);

/** The schema; a failure to load it (the network went away) is a server out of reach. */
async function loadSchema<S extends z.ZodMiniType>(schema: SchemaOrLoader<S>): Promise<S> {
  if (typeof schema !== 'function') return schema;
  try {
    return await schema();
  } catch (error) {
    console.error('Could not load the schemas of an answer', error);
    throw new ApiError(0);
  }
}

/** Answers the server's render of the first paint received and parsed (firstPaint.ts). */
const parsedByTheServer = new WeakSet<Response>();

/** Marks `response` as one the server's render received and parsed: it is not parsed again. */
export function parsedOnTheServer(response: Response): Response {
  parsedByTheServer.add(response);
  return response;
}

const CSRF_COOKIE = 'csrftoken';
const CSRF_HEADER = 'X-CSRFToken';

/** What a failure body says, each field read on its own. */
interface Failure {
  code: ErrorCode | null;
  message: string | null;
}

const NO_FAILURE_BODY: Failure = { code: null, message: null };

/**
 * Reads a failure body with the shared schemas. Each field is read on its own, so a body that
 * names no code (an older server instance during a rolling update, a proxy) still gives people
 * its message; without a code, nothing branches on it.
 */
function failureOf(json: unknown): Failure {
  if (typeof json !== 'object' || json === null) return NO_FAILURE_BODY;
  const { code, message } = json as Record<string, unknown>;
  return {
    code: ERROR_CODES.find((known) => known === code) ?? null,
    message: typeof message === 'string' ? message : null,
  };
}

/** A failed call: an HTTP error status, or status 0 when the server could not be reached. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** What went wrong, for the screens to branch on; null when the answer named no code. */
  readonly code: ErrorCode | null;
  /** The server's own `message`, when it sent one; screens show it in place of their fallback. */
  readonly serverMessage: string | null;

  constructor(
    readonly status: number,
    failure: Failure = NO_FAILURE_BODY,
  ) {
    super(
      failure.message ?? (status === 0 ? 'The server could not be reached' : `Request failed (${status})`),
    );
    this.code = failure.code;
    this.serverMessage = failure.message;
  }
}

/** True when `error` is a failure of the API carrying one of `codes`. */
export function hasErrorCode(error: unknown, ...codes: readonly ErrorCode[]): boolean {
  return error instanceof ApiError && error.code !== null && codes.includes(error.code);
}

/**
 * Whether trying the same call again soon may succeed: the server could not be reached, failed
 * on its side, its database was briefly away, or the instance was restarting. A throttled call (`TOO_MANY_REQUESTS`) is not:
 * the limit holds for a while, and the server's message tells the person to wait.
 */
export function mayPassOnRetry(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  if (error.code !== null)
    return (['INTERNAL', 'DATABASE_UNAVAILABLE', 'SHUTTING_DOWN'] as const).some(
      (code) => code === error.code,
    );
  // No failure body of ours (a proxy's error page, a lost connection): the status is all there is.
  return error.status === 0 || error.status >= 500;
}

/** Whether the page speaks the language the server writes its messages in. */
function speaksServerLanguage(): boolean {
  return !i18n.locale || i18n.locale === DEFAULT_LANGUAGE;
}

/** A server that could not be reached: nothing was said, and this is all there is to say. */
const UNREACHABLE = msg`The server could not be reached. Please check your connection and try again.`;

/**
 * The failures whose code says all a person needs to know, whatever the call was: in another
 * language than the server's, each is told in these words rather than a screen's general one.
 */
const SELF_EXPLANATORY: Partial<Record<ErrorCode, MessageDescriptor>> = {
  TOO_MANY_REQUESTS: msg`Too many attempts. Please wait a little and try again.`,
  CSRF_FAILED: msg`Your session has changed. Reload the page and try again.`,
  PAYLOAD_TOO_LARGE: msg`What you sent is too large.`,
  REQUEST_TIMEOUT: msg`The request took too long to arrive. Please try again.`,
  HEADERS_TOO_LARGE: msg`The request headers are too large.`,
  URI_TOO_LONG: msg`The address is too long.`,
  INTERNAL: msg`Something went wrong on our side. Please try again.`,
  DATABASE_UNAVAILABLE: msg`The service is briefly unavailable. Please try again in a few seconds.`,
  SHUTTING_DOWN: msg`The service is restarting. Please try again in a few seconds.`,
};

/**
 * The message to show for a failed call. In the server's language: its words when it gave
 * some, else `fallback`. In any other, never its words: the failure's own message when its code
 * says it all (or the server could not be reached), else `fallback`, which screens pass translated.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (speaksServerLanguage()) {
    return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
  }
  if (!(error instanceof ApiError)) return fallback;
  const own = error.status === 0 ? UNREACHABLE : error.code && SELF_EXPLANATORY[error.code];
  return own ? i18n._(own) : fallback;
}

/**
 * The message to show for a call that worked: the server's words in its language, else the
 * screen's own (translated) words for the same outcome.
 */
export function successMessage(serverMessage: string, translated: string): string {
  return speaksServerLanguage() ? serverMessage : translated;
}

export function readCookie(name: string): string | null {
  // The server renders pages without a document: no cookie of the browser's to read there.
  if (typeof document === 'undefined') return null;
  for (const pair of document.cookie.split(';')) {
    const separator = pair.indexOf('=');
    if (separator === -1) continue;
    if (pair.slice(0, separator).trim() === name) {
      try {
        return decodeURIComponent(pair.slice(separator + 1).trim());
      } catch {
        return pair.slice(separator + 1).trim();
      }
    }
  }
  return null;
}

let pendingCsrfFetch: Promise<void> | null = null;

/** Asks the server for a fresh CSRF token (set as the cookie). Concurrent callers share one request. */
function fetchCsrfCookie(): Promise<void> {
  pendingCsrfFetch ??= fetch(getCsrfToken.path, {
    credentials: 'include',
    headers: { Accept: 'application/json' },
  })
    .then(async (response) => {
      if (!response.ok) throw new Error(`CSRF token request failed (${response.status})`);
      const json: unknown = await response.json();
      (await loadSchema(getCsrfToken.response.schema)).parse(json);
    })
    .catch((error: unknown) => console.error('Could not fetch a CSRF token', error))
    .finally(() => {
      pendingCsrfFetch = null;
    });
  return pendingCsrfFetch;
}

/**
 * Makes sure the CSRF cookie exists before a state-changing call. A failure is only logged:
 * the call goes ahead and the server gives the verdict.
 */
async function ensureCsrfCookie(): Promise<void> {
  if (!readCookie(CSRF_COOKIE)) await fetchCsrfCookie();
}

/**
 * The server binds each token to the session it was issued for. Once that session has ended on
 * the server (idle or absolute expiry), its first answer replaces the token with a visitor's, so
 * later calls, login included, go through. Only an unsafe call that comes first after the end
 * still carries the old token and is refused (`CSRF_FAILED`); so is one after the server's
 * secret changed. Such a refusal is answered by fetching a fresh token and sending the call once more.
 */

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * How a request reaches the server: the browser's `fetch`, or, while the server renders a page's
 * first paint, its own router (and, as the browser takes over, that render's recorded answers).
 */
export type Transport = (path: string, init: RequestInit) => Promise<Response>;

export const fetchTransport: Transport = (path, init) => fetch(path, init);

interface RequestOptions {
  body?: unknown;
  /** A body sent as it is, with its own type (a file upload), in place of a JSON `body`. */
  text?: { content: string | Blob; type: string };
  signal?: AbortSignal;
}

async function send(
  transport: Transport,
  method: Method,
  path: string,
  { body, text, signal }: RequestOptions,
): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (text) headers['Content-Type'] = text.type;
  else if (body !== undefined) headers['Content-Type'] = 'application/json';
  // Read right before sending: the server rotates the token at login and logout.
  const csrfToken = readCookie(CSRF_COOKIE);
  if (csrfToken) headers[CSRF_HEADER] = csrfToken;
  try {
    return await transport(path, {
      method,
      headers,
      credentials: 'include',
      body: text ? text.content : body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0);
  }
}

interface Reply {
  response: Response;
  json: unknown;
  /** What the server said on a failure. */
  failure: Failure;
}

async function sendAndRead(
  transport: Transport,
  method: Method,
  path: string,
  options: RequestOptions,
): Promise<Reply> {
  const response = await send(transport, method, path, options);
  const json = await readJson(response);
  const failure = response.ok ? NO_FAILURE_BODY : failureOf(json);
  return { response, json, failure };
}

async function apiRequest<Schema extends z.ZodMiniType>(
  transport: Transport,
  method: Method,
  path: string,
  schema: SchemaOrLoader<Schema>,
  options: RequestOptions = {},
): Promise<z.output<Schema>> {
  // The browser's own calls load the schema while the request is on its way; a call that may be
  // answered from the first paint's recorded answers waits to know whether it must parse at all.
  const schemaLoad = transport === fetchTransport ? loadSchema(schema) : null;
  schemaLoad?.catch(() => {});
  // Every method but GET changes state, and carries the CSRF token.
  const unsafe = method !== 'GET';
  if (unsafe) await ensureCsrfCookie();

  let reply = await sendAndRead(transport, method, path, options);
  if (unsafe && reply.failure.code === 'CSRF_FAILED') {
    await fetchCsrfCookie();
    reply = await sendAndRead(transport, method, path, options);
  }

  const { response, json, failure } = reply;
  if (!response.ok) throw new ApiError(response.status, failure);
  if (parsedByTheServer.has(response)) return json as z.output<Schema>;
  const parsed = (await (schemaLoad ?? loadSchema(schema))).safeParse(json);
  if (!parsed.success) {
    console.error(`Unexpected response from ${method} ${path}`, parsed.error);
    throw new ApiError(response.status);
  }
  return parsed.data;
}

type Values<E, K extends 'params' | 'query'> = E extends { [key in K]: infer S extends Schema }
  ? z.output<S>
  : never;

/**
 * What a call of an endpoint sends: its path's parameters, its query and its body, each typed
 * from the endpoint's schemas and required exactly when the endpoint has them (a query's
 * fields, which have defaults, may each be left out).
 */
export type CallInput<E extends JsonEndpoint> = (E extends { params: Schema }
  ? { params: { [K in keyof Values<E, 'params'>]: string | number } }
  : { params?: never }) &
  (E extends { query: Schema } ? { query?: Partial<Values<E, 'query'>> } : { query?: never }) &
  (E extends { body: infer S extends Schema }
    ? undefined extends z.input<S>
      ? { body?: z.input<S> }
      : { body: z.input<S> }
    : { body?: never }) &
  Pick<RequestOptions, 'signal' | 'text'>;

/** What an endpoint answers on success, parsed with its schema. */
export type CallOutput<E extends JsonEndpoint> = z.output<E['response']['schema']>;

/** A client of the API over `transport`. */
export function createApi(transport: Transport = fetchTransport) {
  return {
    /** Calls an endpoint of the contract (common/endpoints): its path filled, its answer parsed. */
    call: <E extends JsonEndpoint>(
      entry: E,
      ...[input]: object extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>]
    ): Promise<CallOutput<E>> => {
      const { params, query, ...options } = (input ?? {}) as RequestOptions & {
        params?: Record<string, string | number>;
        query?: Record<string, unknown>;
      };
      return apiRequest(
        transport,
        entry.method,
        endpointUrl(entry, params, query),
        entry.response.schema as SchemaOrLoader<z.ZodMiniType<CallOutput<E>>>,
        options,
      );
    },
  };
}

export type Api = ReturnType<typeof createApi>;

/** The browser's client, over `fetch`. */
export const api: Api = createApi();
