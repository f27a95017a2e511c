import type { z } from 'zod';
import { CsrfResponse } from '../common/schemas/auth';
import { ErrorResponse } from '../common/schemas/common';

/**
 * The one HTTP client of the web app. Every response is parsed with the shared zod schema of
 * its endpoint, so a screen never works with a shape the server did not promise.
 */

const CSRF_COOKIE = 'csrftoken';
const CSRF_HEADER = 'X-CSRFToken';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A failed call: an HTTP error status, or status 0 when the server could not be reached. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    /** The server's own `message`, when it sent one; screens show it in place of their fallback. */
    readonly serverMessage: string | null,
    /** The parsed JSON body (or null), so callers can read fields such as `requires_auth`. */
    readonly body: unknown,
  ) {
    super(serverMessage ?? (status === 0 ? 'The server could not be reached' : `Request failed (${status})`));
  }

  get requiresAuth(): boolean {
    return ErrorResponse.safeParse(this.body).data?.requires_auth === true;
  }
}

/** The message to show for a failed call: the server's words when it gave some, else `fallback`. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

export function readCookie(name: string): string | null {
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
  pendingCsrfFetch ??= fetch('/api/csrf/', {
    credentials: 'include',
    headers: { Accept: 'application/json' },
  })
    .then(async (response) => {
      if (!response.ok) throw new Error(`CSRF token request failed (${response.status})`);
      CsrfResponse.parse(await response.json());
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
 * still carries the old token and is refused; so is one after the server's secret changed. Such
 * a refusal is answered by fetching a fresh token and sending the call once more.
 */
function isCsrfRefusal(status: number, message: string | null): boolean {
  return status === 403 && message !== null && /csrf/i.test(message);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
}

async function send(method: HttpMethod, path: string, { body, signal }: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  // Read right before sending: the server rotates the token at login and logout.
  const csrfToken = readCookie(CSRF_COOKIE);
  if (csrfToken) headers[CSRF_HEADER] = csrfToken;
  try {
    return await fetch(path, {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, null, null);
  }
}

interface Reply {
  response: Response;
  json: unknown;
  /** The server's `message` on a failure. */
  message: string | null;
}

async function sendAndRead(method: HttpMethod, path: string, options: RequestOptions): Promise<Reply> {
  const response = await send(method, path, options);
  const json = await readJson(response);
  const message = response.ok ? null : (ErrorResponse.safeParse(json).data?.message ?? null);
  return { response, json, message };
}

export async function apiRequest<Schema extends z.ZodType>(
  method: HttpMethod,
  path: string,
  schema: Schema,
  options: RequestOptions = {},
): Promise<z.output<Schema>> {
  const unsafe = UNSAFE_METHODS.has(method);
  if (unsafe) await ensureCsrfCookie();

  let reply = await sendAndRead(method, path, options);
  if (unsafe && isCsrfRefusal(reply.response.status, reply.message)) {
    await fetchCsrfCookie();
    reply = await sendAndRead(method, path, options);
  }

  const { response, json, message } = reply;
  if (!response.ok) throw new ApiError(response.status, message, json);
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    console.error(`Unexpected response from ${method} ${path}`, parsed.error);
    throw new ApiError(response.status, null, json);
  }
  return parsed.data;
}

export const api = {
  get: <S extends z.ZodType>(path: string, schema: S, options?: Omit<RequestOptions, 'body'>) =>
    apiRequest('GET', path, schema, options),
  post: <S extends z.ZodType>(path: string, schema: S, body?: unknown, options?: RequestOptions) =>
    apiRequest('POST', path, schema, { ...options, body }),
  put: <S extends z.ZodType>(path: string, schema: S, body?: unknown, options?: RequestOptions) =>
    apiRequest('PUT', path, schema, { ...options, body }),
  patch: <S extends z.ZodType>(path: string, schema: S, body?: unknown, options?: RequestOptions) =>
    apiRequest('PATCH', path, schema, { ...options, body }),
  delete: <S extends z.ZodType>(path: string, schema: S, body?: unknown, options?: RequestOptions) =>
    apiRequest('DELETE', path, schema, { ...options, body }),
};
