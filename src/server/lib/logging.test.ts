import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers/app';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/databases';
import { redactUrl } from './logging';

describe('redactUrl', () => {
  it('replaces link and invitation tokens and keeps the rest of the address', () => {
    expect(redactUrl('/survey/link/abc123def')).toBe('/survey/link/[redacted]');
    expect(redactUrl('/api/survey/link/abc123def/?x=1')).toBe('/api/survey/link/[redacted]/?x=1');
    expect(redactUrl('/survey/invite/tok_EN-1#top')).toBe('/survey/invite/[redacted]#top');
    expect(redactUrl('/api/survey/LINK/abc%2F123/')).toBe('/api/survey/LINK/[redacted]/');
    expect(redactUrl('/dashboard/?q=1')).toBe('/dashboard/?q=1');
    expect(redactUrl('/api/sso/callback/?code=abc-123&state=xyz&iss=http%3A%2F%2Fidp')).toBe(
      '/api/sso/callback/?code=[redacted]&state=[redacted]&iss=http%3A%2F%2Fidp',
    );
  });
});

describe('request logs', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => database?.drop());

  it('never hold a shared-link token', async () => {
    database = await createTestDatabase('sqlite');
    const stream = new PassThrough();
    let logged = '';
    stream.on('data', (chunk) => {
      logged += chunk;
    });
    const app = await buildTestApp(database.db, { logLevel: 'info' }, { logStream: stream });
    const token = 'f3a9c2secrettoken0e1d';
    await app.inject({ url: `/api/survey/link/${token}/` });
    await app.inject({ url: `/survey/link/${token}` });
    await app.inject({ url: `/survey/invite/${token}` });
    await app.close();
    expect(logged).toContain('/survey/link/[redacted]');
    expect(logged).toContain('incoming request');
    expect(logged).not.toContain(token);
  });
});
