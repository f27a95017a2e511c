import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TEST_SECRET, TestAgent } from '../../../test/helpers/app';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/helpers/databases';
import { type ErrorCode, ErrorResponse } from '../../common/schemas/common';
import { buildApp } from '../app';
import { DEFAULT_LIMITS, loadConfig } from '../config';
import { AppError } from './errors';

const INTERNAL = 'connection to db-7.internal:5432 failed for user wellness_owner password=hunter2';
const SERVER_FAULT = 'Something went wrong on our side. Please try again.';

/** The real app plus a few routes that fail the ways server code can, registered before it is ready. */
async function buildFailingApp(
  database: TestDatabase,
  bodyBytes = DEFAULT_LIMITS.bodyBytes,
): Promise<FastifyInstance> {
  const base = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: '0' });
  const app = await buildApp({
    db: database.db,
    config: { ...base, limits: { ...DEFAULT_LIMITS, bodyBytes } },
    secret: TEST_SECRET,
    webRoot: '/nonexistent-web-root',
  });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/api/test/throws/', async () => {
    throw new Error(INTERNAL);
  });
  typed.post('/api/test/throws/', async () => {
    throw new Error(INTERNAL);
  });
  typed.get('/api/test/corrupt-json/', async () => JSON.parse('{"answers": [1, 2'));
  typed.get('/api/test/rejects/', () =>
    Promise.reject(Object.assign(new Error(INTERNAL), { code: 'ECONNREFUSED' })),
  );
  typed.get('/api/test/client-error/', async () => {
    throw Object.assign(new Error(INTERNAL), { statusCode: 400 });
  });
  typed.get('/api/test/app-error/', async () => {
    throw new AppError('NOT_FOUND', 'Template not found');
  });
  typed.get(
    '/api/test/bad-output/',
    { schema: { response: { 200: z.object({ count: z.number() }) } } },
    async () => ({ count: INTERNAL }) as unknown as { count: number },
  );
  typed.post('/api/test/echo/', { schema: { body: z.object({ text: z.string() }) } }, async (request) => ({
    success: true,
    length: request.body.text.length,
  }));
  await app.ready();
  return app;
}

function expectErrorBody(
  response: { status: number; body: unknown; headers: Record<string, unknown> },
  status: number,
  message?: string,
  code?: ErrorCode,
) {
  expect(response.status).toBe(status);
  expect(String(response.headers['content-type'])).toContain('application/json');
  const body = response.body as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'success']);
  expect(ErrorResponse.safeParse(body).success, 'matches the shared ErrorResponse').toBe(true);
  expect(body.success).toBe(false);
  expect(typeof body.message).toBe('string');
  expect(String(body.message).length).toBeGreaterThan(0);
  if (message !== undefined) expect(body.message).toBe(message);
  if (code !== undefined) expect(body.code).toBe(code);
}

describe.each(TEST_DIALECTS)('error responses on %s', (dialect) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let agent: TestAgent;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildFailingApp(database);
    agent = new TestAgent(app);
  });

  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  function postRaw(url: string, payload: string | Buffer, contentType: string | undefined) {
    return agent.request({
      method: 'POST',
      url,
      payload,
      headers: contentType === undefined ? {} : { 'content-type': contentType },
    });
  }

  it('answers malformed JSON with 400', async () => {
    expectErrorBody(
      await postRaw('/api/login/', '{"email": "a@north.edu", ', 'application/json'),
      400,
      'Request body is not valid JSON',
    );
    expectErrorBody(
      await postRaw('/api/register/', "{'single': 'quotes'}", 'application/json'),
      400,
      'Request body is not valid JSON',
    );
  });

  it('answers an empty JSON body with 400', async () => {
    expectErrorBody(
      await postRaw('/api/login/', '', 'application/json'),
      400,
      'Request body is empty: send a JSON object',
    );
  });

  it('answers JSON that tries to pollute prototypes with 400', async () => {
    const response = await postRaw(
      '/api/login/',
      '{"__proto__": {"admin": true}, "email": "a@north.edu"}',
      'application/json',
    );
    expectErrorBody(response, 400);
  });

  it.each([
    'application/xml',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'text/plain',
  ])('answers a %s body with 415', async (contentType) => {
    const response = await postRaw('/api/login/', 'email=a%40north.edu&password=secret', contentType);
    expectErrorBody(
      response,
      415,
      'Unsupported content type: send application/json',
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('answers an oversized body with 413', async () => {
    const payload = JSON.stringify({ text: 'x'.repeat(DEFAULT_LIMITS.bodyBytes + 1) });
    expectErrorBody(
      await postRaw('/api/test/echo/', payload, 'application/json'),
      413,
      'Request body is too large',
    );
    const fits = await postRaw(
      '/api/test/echo/',
      JSON.stringify({ text: 'x'.repeat(1000) }),
      'application/json',
    );
    expect(fits.status).toBe(200);
  });

  it('answers unknown API routes with a JSON 404, whatever the method', async () => {
    expectErrorBody(await agent.get('/api/nope/'), 404, 'No such endpoint: GET /api/nope/', 'NOT_FOUND');
    expectErrorBody(await agent.get('/api/nope/?secret=1'), 404, 'No such endpoint: GET /api/nope/');
    expectErrorBody(await agent.get('/api/login'), 404);
    const anonymous = new TestAgent(app);
    expectErrorBody(
      await anonymous.request({ method: 'POST', url: '/api/nope/', payload: {}, csrf: false }),
      404,
    );
    expectErrorBody(await anonymous.request({ method: 'DELETE', url: '/api/user/', csrf: false }), 404);
    expectErrorBody(
      await anonymous.request({ method: 'PUT', url: '/api/login/', payload: {}, csrf: false }),
      404,
    );
  });

  it('answers addresses the router refuses in the same format, with the security headers', async () => {
    const malformed = await agent.get('/api/survey-templates/%c0%ae%c0%ae/questions/');
    expectErrorBody(malformed, 400, 'The address is not valid', 'BAD_REQUEST');
    const tooLong = await agent.post(`/api/survey/link/${'a'.repeat(300)}/`, { answers: {} });
    expectErrorBody(tooLong, 414, 'The address is too long', 'URI_TOO_LONG');
    for (const response of [malformed, tooLong]) {
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(String(response.headers['content-security-policy'])).toContain("default-src 'self'");
    }
  });

  it('answers validation failures with 400 and a readable message', async () => {
    expectErrorBody(
      await agent.post('/api/test/echo/', { text: 5 }),
      400,
      'text: Invalid input: expected string, received number',
      'VALIDATION_FAILED',
    );
    expectErrorBody(await agent.post('/api/test/echo/', [1, 2]), 400, undefined, 'VALIDATION_FAILED');
  });

  it('passes on the message of an AppError with its status', async () => {
    expectErrorBody(await agent.get('/api/test/app-error/'), 404, 'Template not found', 'NOT_FOUND');
  });

  it.each(['/api/test/throws/', '/api/test/corrupt-json/', '/api/test/rejects/', '/api/test/bad-output/'])(
    'answers an unexpected failure in %s with a 500 that reveals nothing',
    async (url) => {
      const response = await agent.get(url);
      expectErrorBody(response, 500, SERVER_FAULT, 'INTERNAL');
      expect(JSON.stringify(response.body)).not.toMatch(/hunter2|internal|stack|at .*\.ts/);
    },
  );

  it('answers an unexpected failure of an unsafe request with a 500 that reveals nothing', async () => {
    const response = await agent.post('/api/test/throws/', {});
    expectErrorBody(response, 500, SERVER_FAULT, 'INTERNAL');
  });

  it('does not echo the text of an unexpected client error', async () => {
    const response = await agent.get('/api/test/client-error/');
    expectErrorBody(response, 400, 'Invalid request', 'BAD_REQUEST');
  });
});

describe.each(TEST_DIALECTS)('body limit on %s', (dialect) => {
  it('follows limits.bodyBytes', async () => {
    const database = await createTestDatabase(dialect);
    const app = await buildFailingApp(database, 1024);
    try {
      const agent = new TestAgent(app);
      const post = (text: string) =>
        agent.request({
          method: 'POST',
          url: '/api/test/echo/',
          payload: JSON.stringify({ text }),
          headers: { 'content-type': 'application/json' },
        });
      expect((await post('x'.repeat(900))).status).toBe(200);
      expectErrorBody(await post('x'.repeat(1100)), 413, 'Request body is too large', 'PAYLOAD_TOO_LARGE');
    } finally {
      await app.close();
      await database.drop();
    }
  });
});
