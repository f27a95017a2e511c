import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers/app';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/databases';
import { redactUrl } from './logging';

describe('redactUrl', () => {
  it("replaces the values of the route's secret parameters and keeps the rest of the address", () => {
    const link = '/api/get-user-survey-questions/:hashLink/';
    expect(redactUrl('/api/get-user-survey-questions/abc123def/?x=1', link, ['hashLink'])).toBe(
      '/api/get-user-survey-questions/[redacted]/?x=1',
    );
    expect(redactUrl('/survey/invite/tok_EN-1', '/survey/invite/:token', ['token'])).toBe(
      '/survey/invite/[redacted]',
    );
    expect(redactUrl('/api/cases/12/', '/api/cases/:id/', [])).toBe('/api/cases/12/');
    expect(redactUrl('/files/a/b/c', '/files/*', ['*'])).toBe('/files/[redacted]');
    expect(
      redactUrl('/api/sso/callback/?code=abc-123&state=xyz&iss=http%3A%2F%2Fidp', '/api/sso/callback/', [
        'code',
        'state',
      ]),
    ).toBe('/api/sso/callback/?code=[redacted]&state=[redacted]&iss=http%3A%2F%2Fidp');
    expect(redactUrl('/api/sso/callback/?%63ode=abc', '/api/sso/callback/', ['code'])).toBe(
      '/api/sso/callback/?%63ode=[redacted]',
    );
  });
});

describe('request logs', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => database?.drop());

  it('never hold a link token, an invitation token or a sign-in code', async () => {
    database = await createTestDatabase('sqlite');
    const stream = new PassThrough();
    let logged = '';
    stream.on('data', (chunk) => {
      logged += chunk;
    });
    const app = await buildTestApp(database.db, { logLevel: 'info' }, { logStream: stream });
    const token = 'f3a9c2secrettoken0e1d';
    const urls = [
      `/api/get-user-survey-questions/${token}/`,
      `/api/survey/invite/${token}/`,
      `/api/staff/invite/${token}/`,
      `/survey/link/${token}`,
      `/survey/invite/${token}/`,
      `/staff/invite/${token}`,
      `/api/sso/callback/?code=${token}&state=${token}`,
    ];
    for (const url of urls) await app.inject({ url });
    await app.close();
    expect(logged).toContain('/api/get-user-survey-questions/[redacted]/');
    expect(logged).toContain('/survey/invite/[redacted]/');
    expect(logged).toContain('code=[redacted]&state=[redacted]');
    expect(logged.match(/incoming request/g)).toHaveLength(urls.length);
    expect(logged).not.toContain(token);
  });
});

describe('request logs of answers that may be anonymous', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => database?.drop());

  it('never hold the address they came from', async () => {
    database = await createTestDatabase('sqlite');
    const stream = new PassThrough();
    let logged = '';
    stream.on('data', (chunk) => {
      logged += chunk;
    });
    const app = await buildTestApp(database.db, { logLevel: 'info' }, { logStream: stream });
    const client = '203.0.113.77';
    for (const url of ['/api/survey/invite/f3a9c2secrettoken0e1d/', '/api/survey/contact/'])
      await app.inject({ method: 'POST', url, remoteAddress: client, payload: {} });
    // A route that keeps it, for contrast: the address does reach its lines.
    await app.inject({ url: '/api/cases/', remoteAddress: client });
    await app.close();
    const lines = logged.split('\n').filter((line) => line.includes('"req"'));
    const anonymous = lines.filter((line) => line.includes('/api/survey/'));
    expect(anonymous.length).toBeGreaterThan(0);
    for (const line of anonymous) expect(line).not.toContain(client);
    expect(lines.some((line) => line.includes('/api/cases/') && line.includes(client))).toBe(true);
  });
});
