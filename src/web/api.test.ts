// @vitest-environment happy-dom
import { msg } from '@lingui/core/macro';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { endpoint, type Method } from '../common/endpoints/endpoint';
import { SuccessMessage } from '../common/schemas/common';
import {
  ApiError,
  api,
  createApi,
  errorMessage,
  fetchTransport,
  hasErrorCode,
  mayPassOnRetry,
  parsedOnTheServer,
  successMessage,
} from './api';
import { i18n } from './app/i18n';

/** An endpoint that answers a success message, for the client's own behaviour. */
const answering = <M extends Method>(method: M, path: string) =>
  endpoint({
    method,
    path,
    summary: path,
    tags: [],
    body: z.optional(z.unknown()),
    response: { status: 200, schema: SuccessMessage },
    errors: [],
    access: 'public',
  });
const deleteTemplate = answering('DELETE', '/api/survey-templates/');
const createTemplate = answering('POST', '/api/survey-templates/');
const logOut = answering('POST', '/api/logout/');
const submitSurvey = answering('POST', '/api/survey/');
const getCurrentUser = answering('GET', '/api/user/');
const getDashboard = answering('GET', '/api/dashboard/');

/** What the server's Set-Cookie does to the token; max-age 0 removes it. */
function setCsrfCookie(value: string, maxAge = 3600) {
  // biome-ignore lint/suspicious/noDocumentCookie: the client under test reads document.cookie.
  document.cookie = `csrftoken=${value}; max-age=${maxAge}; path=/`;
}

interface Sent {
  method: string;
  path: string;
  csrfToken: string | null;
}

/** The server's side of the conversation: each call answers with the next reply for its path. */
function serve(replies: Record<string, Array<{ status: number; body: unknown }>>) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      sent.push({ method: init.method ?? 'GET', path, csrfToken: headers.get('X-CSRFToken') });
      const reply = replies[path]?.shift();
      if (!reply) throw new TypeError('Failed to fetch');
      if (path === '/api/csrf/') setCsrfCookie('fresh');
      return new Response(JSON.stringify(reply.body), { status: reply.status });
    }),
  );
  return sent;
}

const CSRF_REPLY = { status: 200, body: { success: true, csrftoken: 'fresh' } };
const DONE = { status: 200, body: { success: true, message: 'Template deleted!' } };

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ApiError)) throw new Error(`Expected an ApiError, got ${String(error)}`);
  return error;
}

beforeEach(() => {
  setCsrfCookie('stale');
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  setCsrfCookie('', 0);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a refused CSRF token', () => {
  it('is replaced by a fresh one, and the call is sent once more with it', async () => {
    const sent = serve({
      '/api/survey-templates/': [
        {
          status: 403,
          body: { success: false, code: 'CSRF_FAILED', message: 'CSRF token missing or incorrect.' },
        },
        DONE,
      ],
      '/api/csrf/': [CSRF_REPLY],
    });
    await expect(api.call(deleteTemplate, { body: { template_id: 3 } })).resolves.toEqual(DONE.body);
    expect(sent).toEqual([
      { method: 'DELETE', path: '/api/survey-templates/', csrfToken: 'stale' },
      { method: 'GET', path: '/api/csrf/', csrfToken: null },
      { method: 'DELETE', path: '/api/survey-templates/', csrfToken: 'fresh' },
    ]);
  });

  it('is retried once only: a second refusal reaches the screen with its message', async () => {
    const refusal = {
      status: 403,
      body: { success: false, code: 'CSRF_FAILED', message: 'Reload the page.' },
    };
    const sent = serve({ '/api/logout/': [refusal, refusal], '/api/csrf/': [CSRF_REPLY] });
    const error = await failureOf(api.call(logOut));
    expect(error.code).toBe('CSRF_FAILED');
    expect(errorMessage(error, 'fallback')).toBe('Reload the page.');
    expect(sent.filter(({ path }) => path === '/api/logout/')).toHaveLength(2);
  });

  it('is recognised by its code, not by words: another 403 that mentions CSRF is not retried', async () => {
    const sent = serve({
      '/api/logout/': [
        { status: 403, body: { success: false, code: 'FORBIDDEN', message: 'No CSRF for you' } },
      ],
    });
    const error = await failureOf(api.call(logOut));
    expect(error.code).toBe('FORBIDDEN');
    expect(sent).toHaveLength(1);
  });

  it('is not retried for a read, which carries no token to refuse', async () => {
    const sent = serve({
      '/api/user/': [{ status: 403, body: { success: false, code: 'CSRF_FAILED', message: 'Refused' } }],
    });
    await failureOf(api.call(getCurrentUser));
    expect(sent).toHaveLength(1);
  });
});

describe('a failure', () => {
  it('carries the code to branch on and the message to show', async () => {
    serve({
      '/api/survey/': [
        {
          status: 401,
          body: {
            success: false,
            code: 'REQUIRES_AUTH',
            message: 'Please log in to submit',
            requires_auth: true,
          },
        },
      ],
    });
    const error = await failureOf(api.call(submitSurvey, { body: {} }));
    expect(error.status).toBe(401);
    expect(hasErrorCode(error, 'REQUIRES_AUTH')).toBe(true);
    expect(hasErrorCode(error, 'UNAUTHENTICATED', 'FORBIDDEN')).toBe(false);
    expect(errorMessage(error, 'Survey submission failed')).toBe('Please log in to submit');
  });

  it('without a code still shows its message, and nothing branches on it', async () => {
    serve({
      '/api/survey-templates/': [{ status: 409, body: { success: false, message: 'Busy, try later' } }],
    });
    const error = await failureOf(api.call(createTemplate));
    expect(error.code).toBeNull();
    expect(hasErrorCode(error, 'CONFLICT')).toBe(false);
    expect(errorMessage(error, 'Failed to create template.')).toBe('Busy, try later');
  });

  it('with a code this client does not know keeps the message and names no code', async () => {
    serve({
      '/api/user/': [{ status: 418, body: { success: false, code: 'TEAPOT', message: 'Short and stout' } }],
    });
    const error = await failureOf(api.call(getCurrentUser));
    expect(error.code).toBeNull();
    expect(error.serverMessage).toBe('Short and stout');
  });

  it('without a body of ours falls back to the screen’s words', async () => {
    serve({ '/api/user/': [{ status: 502, body: '<html>Bad gateway</html>' }] });
    const error = await failureOf(api.call(getCurrentUser));
    expect(error.serverMessage).toBeNull();
    expect(errorMessage(error, 'Login failed')).toBe('Login failed');
  });

  it('is an answer that breaks the contract, even with a success status', async () => {
    serve({ '/api/user/': [{ status: 200, body: { success: true } }] });
    const error = await failureOf(api.call(getCurrentUser));
    expect(error.status).toBe(200);
    expect(error.code).toBeNull();
  });
});

describe('trying again soon', () => {
  const failure = (status: number, code: string | undefined) => {
    serve({ '/api/dashboard/': [{ status, body: { success: false, code, message: 'Said by the server' } }] });
    return failureOf(api.call(getDashboard));
  };

  it('may help after a database outage, a restart, a failure on the server or a lost connection', async () => {
    expect(mayPassOnRetry(await failure(503, 'DATABASE_UNAVAILABLE'))).toBe(true);
    expect(mayPassOnRetry(await failure(503, 'SHUTTING_DOWN'))).toBe(true);
    expect(mayPassOnRetry(await failure(500, 'INTERNAL'))).toBe(true);
    serve({});
    const unreachable = await failureOf(api.call(getDashboard));
    expect(unreachable.status).toBe(0);
    expect(mayPassOnRetry(unreachable)).toBe(true);
  });

  it('does not help when throttled or refused', async () => {
    expect(mayPassOnRetry(await failure(429, 'TOO_MANY_REQUESTS'))).toBe(false);
    expect(mayPassOnRetry(await failure(404, 'NOT_FOUND'))).toBe(false);
    expect(mayPassOnRetry(await failure(401, 'UNAUTHENTICATED'))).toBe(false);
  });

  it('goes by the status only when the answer names no code', async () => {
    expect(mayPassOnRetry(await failure(502, undefined))).toBe(true);
    expect(mayPassOnRetry(await failure(400, undefined))).toBe(false);
  });
});

describe("an answer's schema", () => {
  /** getCurrentUser as the browser's build has it: a function that loads the schema. */
  const loadingItsSchema = (load: () => Promise<typeof SuccessMessage>) =>
    ({
      ...getCurrentUser,
      response: { ...getCurrentUser.response, schema: load },
    }) as unknown as typeof getCurrentUser;

  it('is loaded when the entry has a function in its place, and parses the answer', async () => {
    serve({ '/api/user/': [DONE, { status: 200, body: { success: true } }] });
    const load = vi.fn(async () => SuccessMessage);
    const entry = loadingItsSchema(load);
    expect(await api.call(entry)).toEqual(DONE.body);
    expect((await failureOf(api.call(entry))).status).toBe(200);
    expect(load).toHaveBeenCalled();
  });

  it('that cannot be loaded makes the call fail as a server out of reach', async () => {
    serve({ '/api/user/': [DONE] });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = await failureOf(api.call(loadingItsSchema(() => Promise.reject(new TypeError('offline')))));
    expect(error.status).toBe(0);
  });

  it("is not loaded for an answer the server's render parsed, which is taken as it is", async () => {
    serve({});
    const load = vi.fn(async () => SuccessMessage);
    const recorded = { success: true, message: 'Recorded' };
    const replaying = createApi(async (path, init) =>
      path === '/api/user/'
        ? parsedOnTheServer(new Response(JSON.stringify(recorded), { status: 200 }))
        : fetchTransport(path, init),
    );
    expect(await replaying.call(loadingItsSchema(load))).toEqual(recorded);
    expect(load).not.toHaveBeenCalled();
  });
});

describe('a failure shown in another language than the server’s', () => {
  const throttled = msg`Too many attempts. Please wait a little and try again.`;
  const unreachable = msg`The server could not be reached. Please check your connection and try again.`;

  beforeEach(() => {
    i18n.load('es', {
      [throttled.id]: 'Demasiados intentos. Espera un poco e inténtalo de nuevo.',
      [unreachable.id]: 'No se pudo conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.',
    });
    i18n.activate('es');
  });

  afterEach(() => {
    i18n.load('en', {});
    i18n.activate('en');
  });

  const failing = async (status: number, body: unknown) => {
    serve({ '/api/dashboard/': [{ status, body }] });
    return failureOf(api.call(getDashboard));
  };

  it('shows the screen’s own words, never the server’s English', async () => {
    const error = await failing(401, {
      success: false,
      code: 'UNAUTHENTICATED',
      message: 'Invalid email or password',
    });
    expect(error.serverMessage).toBe('Invalid email or password');
    expect(errorMessage(error, 'No se pudo iniciar sesión')).toBe('No se pudo iniciar sesión');
  });

  it('without a code shows the screen’s words too', async () => {
    const error = await failing(409, { success: false, message: 'Busy, try later' });
    expect(errorMessage(error, 'No se pudo guardar')).toBe('No se pudo guardar');
  });

  it('tells a throttled call in its own words', async () => {
    const error = await failing(429, {
      success: false,
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many requests. Please wait a minute and try again.',
    });
    expect(errorMessage(error, 'No se pudo iniciar sesión')).toBe(
      'Demasiados intentos. Espera un poco e inténtalo de nuevo.',
    );
  });

  it('tells a server out of reach in its own words', async () => {
    serve({});
    const error = await failureOf(api.call(getDashboard));
    expect(error.status).toBe(0);
    expect(errorMessage(error, 'No se pudo cargar el panel')).toBe(
      'No se pudo conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.',
    );
  });

  it('with a self-explanatory code not yet translated, shows its own message, not the server’s', async () => {
    const error = await failing(413, {
      success: false,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'Request body is too large',
    });
    expect(errorMessage(error, 'No se pudo guardar')).toBe('What you sent is too large.');
  });

  it('that is not the API’s shows the screen’s words', () => {
    expect(errorMessage(new Error('boom'), 'Algo salió mal')).toBe('Algo salió mal');
  });

  it('and a success is told in the screen’s words', () => {
    expect(successMessage('Login successful', 'Sesión iniciada')).toBe('Sesión iniciada');
  });
});

describe('in the server’s language', () => {
  it('a success is told in the server’s words', () => {
    expect(successMessage('Login successful', 'Signed in')).toBe('Login successful');
  });
});
