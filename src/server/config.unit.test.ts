import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, loadConfig } from './config';

describe('loadConfig', () => {
  it('needs no environment at all', () => {
    expect(loadConfig({})).toEqual({
      port: 8000,
      host: '0.0.0.0',
      dataDir: 'data',
      webRoot: null,
      database: { kind: 'sqlite', file: path.join('data', 'wellness.sqlite') },
      sqliteWalLimitBytes: 64 * 2 ** 20,
      seedDemo: true,
      demoPassword: null,
      sessionSecret: null,
      trustProxy: 0,
      logLevel: 'info',
      limits: DEFAULT_LIMITS,
      mail: {
        linkBase: 'http://localhost:8000',
        smtpUrl: null,
        smtpConnections: 10,
        from: 'Wellspring Health <no-reply@localhost>',
      },
      retention: { outboxMs: 30 * 24 * 60 * 60_000, expiredCodesMs: 24 * 60 * 60_000 },
      web: {
        brandName: 'Wellspring',
        demoVideoUrl: null,
        contactFormUrl: '/api/contact/',
        analyticsScriptUrl: null,
        publicUrl: null,
      },
      sso: { allowLoopbackIssuer: false },
    });
  });

  it('reads how long spent mail rows and codes are kept, in days and hours', () => {
    expect(loadConfig({ OUTBOX_RETENTION_DAYS: '7', EXPIRED_CODE_RETENTION_HOURS: '2' }).retention).toEqual({
      outboxMs: 7 * 24 * 60 * 60_000,
      expiredCodesMs: 2 * 60 * 60_000,
    });
    expect(() => loadConfig({ OUTBOX_RETENTION_DAYS: '0' })).toThrow(/OUTBOX_RETENTION_DAYS/);
  });

  it('reads TRUST_PROXY as a number of proxy hops, never as "trust every hop"', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'yes' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(0);
    for (const wrong of ['-1', '1.5', 'all', '11'])
      expect(() => loadConfig({ TRUST_PROXY: wrong }), wrong).toThrow(
        /TRUST_PROXY: must be the number of reverse proxies/,
      );
  });

  it('reads the mail settings, and refuses an SMTP_URL that is not SMTP', () => {
    expect(
      loadConfig({ SMTP_URL: 'smtp://mail.north.edu:2525', MAIL_FROM: 'Care <care@north.edu>' }).mail,
    ).toEqual({
      linkBase: 'http://localhost:8000',
      smtpUrl: 'smtp://mail.north.edu:2525',
      smtpConnections: 10,
      from: 'Care <care@north.edu>',
    });
    expect(loadConfig({ SMTP_CONNECTIONS: '3' }).mail.smtpConnections).toBe(3);
    expect(() => loadConfig({ SMTP_CONNECTIONS: '0' })).toThrow(/SMTP_CONNECTIONS/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail.north.edu' })).toThrow(/SMTP_URL/);
  });

  it('reads the values it is given', () => {
    const config = loadConfig({
      PORT: '9123',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/wellness',
      SESSION_SECRET: 's'.repeat(40),
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      BRAND_NAME: ' Northwind ',
      PUBLIC_URL: 'https://wellness.example.edu',
    });
    expect(config).toMatchObject({
      port: 9123,
      host: '127.0.0.1',
      dataDir: '/var/lib/wellness',
      database: { kind: 'sqlite', file: path.join('/var/lib/wellness', 'wellness.sqlite') },
      sessionSecret: 's'.repeat(40),
      trustProxy: 1,
      logLevel: 'warn',
      web: { brandName: 'Northwind', publicUrl: 'https://wellness.example.edu' },
      mail: { linkBase: 'https://wellness.example.edu' },
    });
    // Without PUBLIC_URL, links in mail point at the server itself.
    expect(loadConfig({ PORT: '9123', HOST: '127.0.0.1' }).mail.linkBase).toBe('http://127.0.0.1:9123');
    expect(loadConfig({ PORT: '9123', HOST: '::' }).mail.linkBase).toBe('http://localhost:9123');
  });

  it('treats a blank PORT as unset rather than as a random port', () => {
    expect(loadConfig({ PORT: '' }).port).toBe(8000);
    expect(loadConfig({ PORT: '  ' }).port).toBe(8000);
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
  });

  it.each(['abc', '80.5', '-1', '65536', '8000abc'])('refuses PORT=%s with a clear message', (port) => {
    expect(() => loadConfig({ PORT: port })).toThrow(
      'Invalid configuration:\n  PORT: must be a whole number from 0 to 65535',
    );
  });

  it('raises the per-address login limit when LOGIN_RATE_LIMIT_PER_MINUTE says so, and refuses nonsense', () => {
    expect(loadConfig({ LOGIN_RATE_LIMIT_PER_MINUTE: '600' }).limits).toEqual({
      ...DEFAULT_LIMITS,
      loginPerIpPerMinute: 600,
    });
    expect(loadConfig({ LOGIN_RATE_LIMIT_PER_MINUTE: ' ' }).limits).toEqual(DEFAULT_LIMITS);
    for (const bad of ['0', '-5', '2.5', 'many']) {
      expect(() => loadConfig({ LOGIN_RATE_LIMIT_PER_MINUTE: bad }), bad).toThrow(
        'LOGIN_RATE_LIMIT_PER_MINUTE: must be a whole number from 1 to 1000000',
      );
    }
  });

  it('lists every invalid setting at once', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'x', SESSION_SECRET: 'short', SEED_DEMO: 'maybe', PUBLIC_URL: 'not a url' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('PORT:');
    expect(message).toContain('SESSION_SECRET: SESSION_SECRET must be at least 32 characters');
    expect(message).toContain('SEED_DEMO:');
    expect(message).toContain('PUBLIC_URL:');
  });

  it('sizes the PostgreSQL pool from DATABASE_POOL_SIZE, and refuses nonsense', () => {
    const url = 'postgres://db.internal/wellness';
    expect(loadConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: '4' }).database).toMatchObject({
      kind: 'postgres',
      url,
      poolSize: 4,
    });
    for (const bad of ['0', '-1', '2.5', 'many', '1001']) {
      expect(() => loadConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: bad })).toThrow(/DATABASE_POOL_SIZE/);
    }
  });

  it('bounds PostgreSQL sessions with the timeouts given, and refuses nonsense', () => {
    const url = 'postgres://db.internal/wellness';
    const config = loadConfig({
      DATABASE_URL: url,
      DATABASE_LOCK_TIMEOUT_MS: '1000',
      DATABASE_IDLE_TRANSACTION_TIMEOUT_MS: '2000',
      DATABASE_STATEMENT_TIMEOUT_MS: '3000',
      DATABASE_QUERY_TIMEOUT_MS: '4000',
      DATABASE_KEEPALIVE_MS: '5000',
    });
    expect(config.database).toMatchObject({
      timeouts: {
        lockMs: 1000,
        idleInTransactionMs: 2000,
        statementMs: 3000,
        queryMs: 4000,
        keepAliveMs: 5000,
      },
    });
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_LOCK_TIMEOUT_MS: 'soon' })).toThrow(
      /DATABASE_LOCK_TIMEOUT_MS/,
    );
  });

  describe('DATABASE_URL', () => {
    it.each(['postgres://app:pw@db.internal:5432/wellness', 'postgresql://db.internal/wellness'])(
      'selects PostgreSQL for %s',
      (url) => {
        const config = loadConfig({ DATABASE_URL: url });
        expect(config.database).toEqual({
          kind: 'postgres',
          url,
          poolSize: 10,
          timeouts: {
            statementMs: 15_000,
            lockMs: 3_000,
            idleInTransactionMs: 5_000,
            queryMs: 20_000,
            keepAliveMs: 10_000,
          },
        });
        // The demo data is for the embedded database only.
        expect(config.seedDemo).toBe(false);
        expect(loadConfig({ DATABASE_URL: url, SEED_DEMO: '1' }).seedDemo).toBe(true);
      },
    );

    it('selects a SQLite file with sqlite:', () => {
      expect(loadConfig({ DATABASE_URL: 'sqlite:/srv/wellness/main.sqlite' }).database).toEqual({
        kind: 'sqlite',
        file: '/srv/wellness/main.sqlite',
      });
      expect(loadConfig({ DATABASE_URL: 'sqlite:relative.db' }).database).toEqual({
        kind: 'sqlite',
        file: 'relative.db',
      });
      expect(loadConfig({ DATABASE_URL: 'sqlite:/srv/x.sqlite' }).seedDemo).toBe(true);
      expect(loadConfig({ DATABASE_URL: 'sqlite:/srv/x.sqlite', SEED_DEMO: '0' }).seedDemo).toBe(false);
    });

    it('treats a blank DATABASE_URL as unset', () => {
      expect(loadConfig({ DATABASE_URL: '  ' }).database).toEqual({
        kind: 'sqlite',
        file: path.join('data', 'wellness.sqlite'),
      });
    });

    it('refuses sqlite: without a file, which would be a throwaway database', () => {
      expect(() => loadConfig({ DATABASE_URL: 'sqlite:' })).toThrow('DATABASE_URL=sqlite: needs a file path');
    });

    it.each(['mysql://db/wellness', 'postgres:/db/wellness', 'db.internal:5432', 'http://db'])(
      'refuses %s',
      (url) => {
        expect(() => loadConfig({ DATABASE_URL: url })).toThrow(
          'DATABASE_URL must start with postgres://, postgresql:// or sqlite:',
        );
      },
    );
  });

  it.each([
    ['1', true],
    ['true', true],
    ['yes', true],
    ['0', false],
    ['false', false],
    ['no', false],
  ])('reads SEED_DEMO=%s as %s', (value, expected) => {
    expect(loadConfig({ SEED_DEMO: value }).seedDemo).toBe(expected);
  });

  it('lets single sign-on call a provider on this machine only in development, when asked', () => {
    expect(loadConfig({}).sso.allowLoopbackIssuer).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).sso.allowLoopbackIssuer).toBe(false);
    expect(loadConfig({ SSO_ALLOW_INSECURE_ISSUER: '1' }).sso.allowLoopbackIssuer).toBe(true);
    expect(() => loadConfig({ NODE_ENV: 'production', SSO_ALLOW_INSECURE_ISSUER: '1' })).toThrow(
      'SSO_ALLOW_INSECURE_ISSUER: is for development only',
    );
    expect(
      loadConfig({ NODE_ENV: 'production', SSO_ALLOW_INSECURE_ISSUER: '0' }).sso.allowLoopbackIssuer,
    ).toBe(false);
  });
});
