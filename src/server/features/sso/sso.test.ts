import http from 'node:http';
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { makeTwoInstitutions, makeUser, TEST_PASSWORD } from '../../../../test/helpers/factories';
import {
  CLIENT_SECRET,
  CLIENTS,
  startTestProvider,
  type TestProvider,
} from '../../../../test/helpers/oidc-provider';
import { passedConnectionTest } from '../../../../test/helpers/sso';
import { SIGN_IN_CHANGE_SUBJECT } from '../../../common/schemas/second-factor';
import { SSO_ERROR_MESSAGES } from '../../../common/schemas/sso';
import { STEP_UP_WINDOW } from '../../lib/step-up';
import { MINUTE } from '../../lib/time';
import { TEST_OUTDATED, TEST_VALID_FOR, TESTED_OTHER, UNTESTED } from './tested-provider';

/**
 * Who may set up single sign-on, that the client secret never comes back out, and how every
 * sign-in that cannot work ends on the login page with a reason. Signing in through a real
 * provider runs in the browser tests (test/e2e/sso.spec.ts).
 */

/** A loopback port nothing listens on: a provider that is down. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** A refusal in the API's shape; the wording is checked where it matters to the person reading it. */
function expectError(response: { status: number; body: unknown }, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ success: false, code, message: expect.any(String) });
}

const SECRET = 'provider-client-secret-that-must-stay-here';

/**
 * The test providers listen on this machine over plain http: development's setting
 * (SSO_ALLOW_INSECURE_ISSUER), which production refuses.
 */
const DEVELOPMENT = { sso: { allowLoopbackIssuer: true } };

describe.each(TEST_DIALECTS)('single sign-on on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let adminA: TestAgent;
  let downIssuer: string;

  beforeEach(async () => {
    ctx = await createTestApp(dialect, DEVELOPMENT);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    adminA = new TestAgent(ctx.app);
    await adminA.login(cast.adminA.email, TEST_PASSWORD);
    downIssuer = `http://127.0.0.1:${await closedPort()}`;
    await passedConnectionTest(ctx.db.kysely, cast.a.id, { issuer: downIssuer, clientId: 'wellspring' });
  });
  afterEach(async () => {
    await ctx.close();
  });

  const settings = (overrides: Record<string, unknown> = {}) => ({
    issuer: downIssuer,
    client_id: 'wellspring',
    client_secret: SECRET,
    domains: ['north.edu'],
    student_password_sign_in: true,
    ...overrides,
  });

  it('keeps the client secret sealed and never returns it', async () => {
    expect((await adminA.get('/api/institution/sso/')).body).toEqual({ success: true, sso: null });
    const saved = await adminA.request({ method: 'PUT', url: '/api/institution/sso/', payload: settings() });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      success: true,
      sso: {
        issuer: downIssuer,
        client_id: 'wellspring',
        has_client_secret: true,
        domains: ['north.edu'],
        student_password_sign_in: true,
        email_authoritative: false,
        provider_mfa_counts: true,
      },
    });
    const read = await adminA.get('/api/institution/sso/');
    expect(read.text).not.toContain(SECRET);
    expect(read.body).toEqual(saved.body);
    const row = await ctx.db.kysely.selectFrom('sso_settings').selectAll().executeTakeFirstOrThrow();
    expect(row.client_secret_sealed).not.toContain(SECRET);

    // Saved again without a secret: the stored one stays.
    await passedConnectionTest(ctx.db.kysely, cast.a.id, { issuer: downIssuer, clientId: 'renamed' });
    const { client_secret: _omitted, ...withoutSecret } = settings({ client_id: 'renamed' });
    const kept = await adminA.request({
      method: 'PUT',
      url: '/api/institution/sso/',
      payload: withoutSecret,
    });
    expect(kept.body).toMatchObject({ sso: { client_id: 'renamed', has_client_secret: true } });
    const after = await ctx.db.kysely.selectFrom('sso_settings').selectAll().executeTakeFirstOrThrow();
    expect(after.client_secret_sealed).toBe(row.client_secret_sealed);

    const audit = await ctx.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('action', 'like', 'sso.%')
      .orderBy('id')
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual(['sso.read', 'sso.update', 'sso.read', 'sso.update']);
    expect(JSON.stringify(audit)).not.toContain(SECRET);

    const off = await adminA.delete('/api/institution/sso/');
    expect(off.body).toEqual({ success: true, sso: null });
    expectError(await adminA.delete('/api/institution/sso/'), 404, 'NOT_FOUND');
  });

  it('is for admins of the institution only, and only for its own domains', async () => {
    const student = new TestAgent(ctx.app);
    await student.login(cast.studentA.email, TEST_PASSWORD);
    expectError(await student.get('/api/institution/sso/'), 403, 'FORBIDDEN');
    expectError(
      await student.request({ method: 'PUT', url: '/api/institution/sso/', payload: settings() }),
      403,
      'FORBIDDEN',
    );
    expectError(await new TestAgent(ctx.app).get('/api/institution/sso/'), 401, 'UNAUTHENTICATED');

    // Another institution's domain cannot be claimed.
    const foreign = await adminA.request({
      method: 'PUT',
      url: '/api/institution/sso/',
      payload: settings({ domains: ['south.edu'] }),
    });
    expectError(foreign, 400, 'BAD_REQUEST');
    expect(foreign.body).toMatchObject({ message: expect.stringContaining('south.edu') });

    // The other institution's admin sees and changes only their own.
    await adminA.request({ method: 'PUT', url: '/api/institution/sso/', payload: settings() });
    const adminB = new TestAgent(ctx.app);
    await adminB.login(cast.adminB.email, TEST_PASSWORD);
    expect((await adminB.get('/api/institution/sso/')).body).toEqual({ success: true, sso: null });
    expectError(await adminB.delete('/api/institution/sso/'), 404, 'NOT_FOUND');
  });

  it.each([
    ['an issuer that is not https', { issuer: 'http://login.north.edu' }, 'issuer must be an https URL'],
    ['an issuer that is not a URL', { issuer: 'north' }, 'issuer must be a URL'],
    ['no client id', { client_id: ' ' }, 'client_id is required'],
    ['no domain', { domains: [] }, 'At least one email domain is required'],
    ['a malformed domain', { domains: ['north edu'] }, 'Each domain must look like example.edu'],
    ['a flag that is not a boolean', { student_password_sign_in: 'yes' }, 'student_password_sign_in'],
  ])('refuses %s with a 400', async (_what, change, message) => {
    const response = await adminA.request({
      method: 'PUT',
      url: '/api/institution/sso/',
      payload: settings(change),
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, message: expect.stringContaining(message) });
  });

  it('finds the institution from an address, only where single sign-on is on', async () => {
    const anonymous = new TestAgent(ctx.app);
    const discover = (email: string) => anonymous.post('/api/sso/discover/', { email });
    expect((await discover('someone@north.edu')).body).toEqual({ success: true, sso: null });
    await adminA.request({ method: 'PUT', url: '/api/institution/sso/', payload: settings() });
    expect((await discover('Someone@North.edu')).body).toEqual({
      success: true,
      sso: { institution_name: 'North University', start_url: `/api/sso/start/?institution=${cast.a.id}` },
    });
    expect((await discover('someone@south.edu')).body).toEqual({ success: true, sso: null });
    expect((await discover('someone@elsewhere.example')).body).toEqual({ success: true, sso: null });
    expectError(await discover('not an address'), 400, 'VALIDATION_FAILED');
  });

  it('sends a sign-in that cannot start back to the login page with a reason', async () => {
    const browser = new TestAgent(ctx.app);
    const noSso = await browser.get(`/api/sso/start/?institution=${cast.a.id}`);
    expect(noSso.status).toBe(302);
    expect(noSso.headers.location).toBe('/login/?sso_error=failed');

    await adminA.request({ method: 'PUT', url: '/api/institution/sso/', payload: settings() });
    const down = await browser.get(`/api/sso/start/?institution=${cast.a.id}&next=/dashboard/`);
    expect(down.status).toBe(302);
    // Still on its way: the login screen keeps where the sign-in was going.
    expect(down.headers.location).toBe('/login/?sso_error=unreachable&next=%2Fdashboard%2F');
    const unsafe = await browser.get(`/api/sso/start/?institution=${cast.a.id}&next=//evil.example/`);
    expect(unsafe.headers.location).toBe('/login/?sso_error=unreachable');
    expect(await ctx.db.kysely.selectFrom('sso_attempts').selectAll().execute()).toEqual([]);

    expectError(await browser.get('/api/sso/start/?institution=abc'), 400, 'VALIDATION_FAILED');
  });

  it('refuses a callback whose state it never issued, without signing anyone in', async () => {
    const browser = new TestAgent(ctx.app);
    for (const query of ['', '?state=forged&code=abc', '?error=access_denied&state=forged']) {
      const response = await browser.get(`/api/sso/callback/${query}`);
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe('/login/?sso_error=expired');
    }
    expect(browser.jar.has('sessionid')).toBe(false);
  });

  it('refuses a student password sign-in once the institution switches it off; staff keep theirs', async () => {
    await adminA.request({
      method: 'PUT',
      url: '/api/institution/sso/',
      payload: settings({ student_password_sign_in: false }),
    });
    const student = new TestAgent(ctx.app);
    const refused = await student.post('/api/login/', {
      email: cast.studentA.email,
      password: TEST_PASSWORD,
    });
    expectError(refused, 403, 'FORBIDDEN');
    expect(refused.body).toMatchObject({ message: expect.stringContaining('Sign in with North University') });
    // A wrong password, an unknown address and a wrong staff password are told the same: the
    // answer says nothing about whether the password was right.
    for (const [email, password] of [
      [cast.studentA.email, 'wrong-password-1'],
      ['nobody@north.edu', TEST_PASSWORD],
      [cast.adminA.email, 'wrong-password-1'],
    ]) {
      const other = await new TestAgent(ctx.app).post('/api/login/', { email, password });
      expect(other.status).toBe(403);
      expect(other.body).toEqual(refused.body);
    }
    // South's students are not concerned, and North's admin still signs in with a password.
    expect(
      (await student.post('/api/login/', { email: cast.studentB.email, password: TEST_PASSWORD })).status,
    ).toBe(200);
    await new TestAgent(ctx.app).login(cast.adminA.email, TEST_PASSWORD);
  });
});

/** Loopback stand-ins for what an issuer address may lead to besides a provider. */
async function notProviders() {
  const servers: (http.Server | net.Server)[] = [];
  const sockets = new Set<net.Socket>();
  const listen = async (server: http.Server | net.Server) => {
    servers.push(server);
    server.on('connection', (socket: net.Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  };
  const issuers = {
    'a closed port': `http://127.0.0.1:${await closedPort()}`,
    // A database, a cache: a port that is open but speaks no HTTP.
    'an open port that is no web server': await listen(net.createServer((socket) => socket.end('+OK\r\n'))),
    'a web server with no provider': await listen(
      http.createServer((_request, response) => {
        response.statusCode = 404;
        response.end('not found');
      }),
    ),
    'a bad discovery document': await listen(
      http.createServer((_request, response) => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ issuer: 'https://somewhere.else.example' }));
      }),
    ),
  };
  return {
    issuers,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
      );
    },
  };
}

describe.each(TEST_DIALECTS)('an issuer that is no provider, on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let admin: TestAgent;

  afterEach(async () => {
    await ctx.close();
  });

  async function setUp(overrides: Parameters<typeof createTestApp>[1]) {
    ctx = await createTestApp(dialect, overrides);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    admin = new TestAgent(ctx.app);
    await admin.login(cast.adminA.email, TEST_PASSWORD);
  }
  const save = (issuer: string) =>
    admin.request({
      method: 'PUT',
      url: '/api/institution/sso/',
      payload: { issuer, client_id: 'wellspring', domains: ['north.edu'], student_password_sign_in: true },
    });

  it('gets one answer whatever it is: closed, open, not a provider, a bad document', async () => {
    await setUp(DEVELOPMENT);
    const stand = await notProviders();
    try {
      const answers = new Map<string, unknown>();
      for (const [what, issuer] of Object.entries(stand.issuers)) {
        await passedConnectionTest(ctx.db.kysely, cast.a.id, { issuer, clientId: 'wellspring' });
        expect((await save(issuer)).status, what).toBe(200);
        const start = await new TestAgent(ctx.app).get(`/api/sso/start/?institution=${cast.a.id}`);
        const link = await admin.post('/api/sso/link/');
        answers.set(what, { start: start.headers.location, link: [link.status, link.body] });
      }
      expect(new Set([...answers.values()].map((answer) => JSON.stringify(answer))).size).toBe(1);
      expect(answers.get('a closed port')).toEqual({
        start: '/login/?sso_error=unreachable',
        link: [400, { success: false, code: 'BAD_REQUEST', message: SSO_ERROR_MESSAGES.unreachable }],
      });
    } finally {
      await stand.close();
    }
  });

  it('tests the connection before switching on: says why each stand-in is no provider, and changes nothing', async () => {
    await setUp(DEVELOPMENT);
    const stand = await notProviders();
    const test = (issuer: string) =>
      admin.post('/api/institution/sso/test/', { issuer, client_id: 'wellspring' });
    try {
      const unreachable = await test(stand.issuers['a closed port']);
      expect(unreachable.status).toBe(400);
      expect(unreachable.body).toMatchObject({ message: expect.stringMatching(/could not be reached/) });
      for (const what of ['a web server with no provider', 'a bad discovery document'] as const) {
        const answer = await test(stand.issuers[what]);
        expect(answer.status, what).toBe(400);
        expect(answer.body, what).toMatchObject({
          message: expect.stringMatching(/did not answer as an OpenID Connect provider/),
        });
      }
      expect(await ctx.db.kysely.selectFrom('sso_settings').selectAll().execute()).toEqual([]);
    } finally {
      await stand.close();
    }
    const provider = await startTestProvider('http://localhost:8000/api/sso/callback/');
    try {
      const connected = await test(provider.issuer);
      expect(connected.status, connected.text).toBe(200);
      expect(connected.body).toEqual({
        success: true,
        issuer: provider.issuer,
        message: `Connected: ${provider.issuer} answers as an OpenID Connect provider. Single sign-on can be switched on with these settings for the next hour.`,
      });
    } finally {
      await provider.stop();
    }
    // Only the institution's admins may make the server call out.
    const student = new TestAgent(ctx.app);
    await student.login(cast.studentA.email, TEST_PASSWORD);
    expect(
      (
        await student.post('/api/institution/sso/test/', {
          issuer: 'https://login.north.edu',
          client_id: 'x',
        })
      ).status,
    ).toBe(403);
  });

  it('switches single sign-on on only with the issuer and client that passed a test in the last hour', async () => {
    await setUp(DEVELOPMENT);
    const provider = await startTestProvider('http://localhost:8000/api/sso/callback/');
    const test = (clientId = 'wellspring') =>
      admin.post('/api/institution/sso/test/', { issuer: provider.issuer, client_id: clientId });
    const put = (overrides: Record<string, unknown> = {}) =>
      admin.request({
        method: 'PUT',
        url: '/api/institution/sso/',
        payload: {
          issuer: provider.issuer,
          client_id: 'wellspring',
          domains: ['north.edu'],
          student_password_sign_in: true,
          ...overrides,
        },
      });
    const refused = async (overrides: Record<string, unknown>, message: string) => {
      const answer = await put(overrides);
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ success: false, code: 'CONNECTION_UNTESTED', message });
    };
    try {
      // Never tested: refused, and nothing is switched on.
      await refused({}, UNTESTED);
      expect(await ctx.db.kysely.selectFrom('sso_settings').selectAll().execute()).toEqual([]);

      expect((await test()).status).toBe(200);
      // Another client than the one tested, or an issuer typed otherwise, is not what passed.
      await refused({ client_id: 'another-client' }, TESTED_OTHER);
      await refused({ issuer: `${provider.issuer}/` }, TESTED_OTHER);
      expect((await put()).status).toBe(200);

      // The provider that is on may be saved with other domains or flags without a new test...
      expect((await put({ student_password_sign_in: false })).status).toBe(200);
      // ...but moving it to another client needs that client tested.
      await refused({ client_id: 'renamed' }, TESTED_OTHER);
      expect((await test('renamed')).status).toBe(200);
      expect((await put({ client_id: 'renamed' })).status).toBe(200);

      // A pass from more than an hour ago no longer counts.
      await passedConnectionTest(
        ctx.db.kysely,
        cast.a.id,
        { issuer: provider.issuer, clientId: 'older' },
        Date.now() - TEST_VALID_FOR - MINUTE,
      );
      await refused({ client_id: 'older' }, TEST_OUTDATED);
      expect((await test('renamed')).status).toBe(200);
    } finally {
      await provider.stop();
    }
    // A failed test of the same settings withdraws their pass: the provider is down now.
    expect((await test('renamed')).status).toBe(400);
    await ctx.db.kysely.deleteFrom('sso_settings').execute();
    await refused({ client_id: 'renamed' }, UNTESTED);

    // Each test is in the institution's activity log with its outcome; the other institution has no pass.
    const tests = await ctx.db.kysely
      .selectFrom('audit_log')
      .select(['institution_id', 'detail'])
      .where('action', '=', 'sso.test')
      .orderBy('id')
      .execute();
    expect(tests.map((row) => [row.institution_id, JSON.parse(row.detail ?? '{}').passed])).toEqual([
      [cast.a.id, true],
      [cast.a.id, true],
      [cast.a.id, true],
      [cast.a.id, false],
    ]);
    expect(
      await ctx.db.kysely
        .selectFrom('sso_connection_tests')
        .where('institution_id', '=', cast.b.id)
        .selectAll()
        .execute(),
    ).toEqual([]);
  });

  it('outside development, test connection refuses addresses that are not public without calling them', async () => {
    await setUp({ sso: { allowLoopbackIssuer: false } });
    const answer = await admin.post('/api/institution/sso/test/', {
      issuer: 'https://169.254.169.254',
      client_id: 'wellspring',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      message: expect.stringMatching(/not a private, loopback or link-local/),
    });
  });

  it('outside development, refuses plain http and addresses that are not public, and calls none', async () => {
    await setUp({ sso: { allowLoopbackIssuer: false } });
    let connections = 0;
    const listener = net.createServer((socket) => socket.destroy());
    listener.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as net.AddressInfo).port;
    try {
      const refused: Record<string, string> = {
        [`http://127.0.0.1:${port}`]: 'issuer must be an https URL',
        [`https://127.0.0.1:${port}`]: 'not a private, loopback or link-local',
        [`https://[::1]:${port}`]: 'not a private, loopback or link-local',
        [`https://localhost:${port}`]: 'not a private, loopback or link-local',
        'https://169.254.169.254': 'not a private, loopback or link-local',
        'https://10.20.30.40': 'not a private, loopback or link-local',
        'https://[fd00::1]': 'not a private, loopback or link-local',
      };
      for (const [issuer, message] of Object.entries(refused)) {
        const response = await save(issuer);
        expect(response.status, issuer).toBe(400);
        expect(response.body, issuer).toMatchObject({ message: expect.stringContaining(message) });
      }
      // An issuer saved before (in development, or whose name now points inside): the name is
      // resolved when the server calls it, and a loopback answer is refused like any failure.
      await ctx.db.kysely
        .insertInto('sso_settings')
        .values({
          institution_id: cast.a.id,
          issuer: `https://localhost:${port}`,
          client_id: 'wellspring',
          client_secret_sealed: null,
          domains: JSON.stringify(['north.edu']),
          student_password_sign_in: 1,
          email_authoritative: 0,
          provider_mfa_counts: 1,
          updated_at: Date.now(),
        })
        .execute();
      const start = await new TestAgent(ctx.app).get(`/api/sso/start/?institution=${cast.a.id}`);
      expect(start.headers.location).toBe('/login/?sso_error=unreachable');
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });
});

/**
 * Walks the provider's own sign-in as a browser would (its development form takes any login as
 * the address, then asks for consent), and returns the address it sends the browser back to.
 */
async function signInAtProvider(authorizationUrl: string, email: string): Promise<string> {
  const jar = new Map<string, string>();
  const go = async (url: string, form?: Record<string, string>) => {
    const response = await fetch(url, {
      redirect: 'manual',
      method: form ? 'POST' : 'GET',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const pair = cookie.split(';')[0] ?? '';
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return response;
  };
  let url = authorizationUrl;
  for (let step = 0; step < 12; step += 1) {
    const response = await go(url);
    const location = response.headers.get('location');
    if (location?.includes('/api/sso/callback/')) return location;
    if (location) {
      url = new URL(location, url).href;
      continue;
    }
    const page = await response.text();
    const action = page.match(/<form[^>]*action="([^"]+)"/)?.[1];
    if (!action) throw new Error(`the provider showed no form: ${page.slice(0, 200)}`);
    const form: Record<string, string> = page.includes('name="login"')
      ? { prompt: 'login', login: email, password: 'any password' }
      : { prompt: 'consent' };
    const submitted = await go(new URL(action, url).href, form);
    url = new URL(submitted.headers.get('location') ?? '', url).href;
  }
  throw new Error('the provider never sent the browser back');
}

describe.each(TEST_DIALECTS)('signing in through a real provider on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let provider: TestProvider;
  /** What the provider says about a login, where a test decides (else: that address, verified). */
  let claimsOf: Map<string, Record<string, unknown>>;
  /** Claims the provider adds to its next ID tokens. */
  let idTokenClaims: Record<string, unknown>;

  beforeEach(async () => {
    ctx = await createTestApp(dialect, DEVELOPMENT);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    claimsOf = new Map();
    idTokenClaims = {};
    provider = await startTestProvider(callbackUrl(), {
      claimsOf: (login) => claimsOf.get(login),
      idTokenClaims,
    });
    await pointSignInAt(provider.issuer, CLIENT_SECRET);
  });
  afterEach(async () => {
    await provider.stop();
    await ctx.close();
  });

  const callbackUrl = () => new URL('/api/sso/callback/', ctx.app.config.mail.linkBase).href;

  /** Points institution A's single sign-on at `issuer`; without a secret, the stored one stays. */
  async function pointSignInAt(issuer: string, clientSecret?: string, flags: Record<string, boolean> = {}) {
    const admin = new TestAgent(ctx.app);
    await admin.login(cast.adminA.email, TEST_PASSWORD);
    const tested = await admin.post('/api/institution/sso/test/', { issuer, client_id: CLIENTS.ordinary });
    expect(tested.status, tested.text).toBe(200);
    const saved = await admin.request({
      method: 'PUT',
      url: '/api/institution/sso/',
      payload: {
        issuer,
        client_id: CLIENTS.ordinary,
        ...(clientSecret ? { client_secret: clientSecret } : {}),
        domains: ['north.edu'],
        student_password_sign_in: true,
        ...flags,
      },
    });
    expect(saved.status).toBe(200);
  }

  /** Starts at the app, signs in at the provider, and brings the browser back; the callback's answer. */
  async function signIn(browser: TestAgent, email: string, next?: string) {
    const query = next ? `&next=${encodeURIComponent(next)}` : '';
    const started = await browser.get(`/api/sso/start/?institution=${cast.a.id}${query}`);
    expect(started.status).toBe(302);
    const back = new URL(await signInAtProvider(String(started.headers.location), email));
    return {
      path: `${back.pathname}${back.search}`,
      answer: await browser.get(`${back.pathname}${back.search}`),
    };
  }

  const sessionsOf = (email: string) =>
    ctx.db.kysely
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.sign_in_method', 'users.role'])
      .where('users.email', '=', email)
      .execute();

  it('makes an unknown address of the institution a student, proven, with no password', async () => {
    const browser = new TestAgent(ctx.app);
    const { answer } = await signIn(browser, 'new.student@north.edu');
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/survey/');
    expect((await browser.get('/api/user/')).body).toMatchObject({
      email: 'new.student@north.edu',
      role: 'student',
      institution_name: 'North University',
    });
    expect(await sessionsOf('new.student@north.edu')).toEqual([{ sign_in_method: 'sso', role: 'student' }]);
    const proofs = await ctx.db.kysely
      .selectFrom('address_proofs')
      .select('email')
      .where('email', '=', 'new.student@north.edu')
      .execute();
    expect(proofs).toHaveLength(1);
    expect(await ctx.db.kysely.selectFrom('sso_attempts').selectAll().execute()).toEqual([]);
    // The sign-in is in the institution's log, with the way it was made.
    const signIns = await ctx.db.kysely
      .selectFrom('audit_log')
      .select(['institution_id', 'actor_email', 'detail', 'address'])
      .where('action', '=', 'auth.sign_in')
      .where('actor_email', '=', 'new.student@north.edu')
      .execute();
    expect(signIns).toEqual([
      {
        institution_id: cast.a.id,
        actor_email: 'new.student@north.edu',
        detail: JSON.stringify({ method: 'sso' }),
        address: expect.any(String),
      },
    ]);
  });

  it('replays nothing: the same way back a second time signs nobody in', async () => {
    const browser = new TestAgent(ctx.app);
    const { path, answer } = await signIn(browser, 'once@north.edu', '/survey/');
    expect(answer.headers.location).toBe('/survey/');
    const replay = new TestAgent(ctx.app);
    const again = await replay.get(path);
    expect(again.headers.location).toBe('/login/?sso_error=expired');
    expect((await replay.get('/api/user/')).status).toBe(401);
  });

  it('lets only the browser that started a sign-in finish it', async () => {
    // He starts a sign-in as himself and sends the way back, unused, to her.
    const his = new TestAgent(ctx.app);
    const started = await his.get(`/api/sso/start/?institution=${cast.a.id}`);
    const binding = [...his.jar.keys()].find((name) => name.endsWith('sso_attempt'));
    expect(binding).toBe('sso_attempt');
    expect(String(started.headers['set-cookie'])).toMatch(
      /sso_attempt=[^;]+; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax/,
    );
    const back = new URL(await signInAtProvider(String(started.headers.location), 'him@north.edu'));
    const path = `${back.pathname}${back.search}`;

    const hers = new TestAgent(ctx.app);
    const answer = await hers.get(path);
    expect(answer.headers.location).toBe('/login/?sso_error=browser');
    expect((await hers.get('/api/user/')).status).toBe(401);
    // Used up by that try: not even his own browser gets in with it now.
    expect((await his.get(path)).headers.location).toBe('/login/?sso_error=expired');
    expect(await sessionsOf('him@north.edu')).toEqual([]);
  });

  it('never switches a browser signed in as one person to another', async () => {
    const browser = new TestAgent(ctx.app);
    await browser.login(cast.studentA.email, TEST_PASSWORD);
    const { answer } = await signIn(browser, 'someone.else@north.edu');
    expect(answer.headers.location).toBe('/login/?sso_error=signed_in');
    expect((await browser.get('/api/user/')).body).toMatchObject({ email: cast.studentA.email });
    expect(
      await ctx.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'someone.else@north.edu')
        .execute(),
    ).toEqual([]);
    // The same person signing in again through the institution is no switch.
    claimsOf.set('sam', { email: cast.studentA.email, email_verified: true });
    const same = await signIn(browser, 'sam');
    expect(same.answer.headers.location).toBe('/survey/');
    expect((await browser.get('/api/user/')).body).toMatchObject({ email: cast.studentA.email });
  });

  it('takes an address for a first sign-in only when the provider says it is verified', async () => {
    claimsOf.set('careless', { email: 'careless@north.edu' });
    claimsOf.set('admin-claim', { email: cast.adminA.email });
    claimsOf.set('refused', { email: 'refused@north.edu', email_verified: false });
    for (const login of ['careless', 'admin-claim', 'refused']) {
      const browser = new TestAgent(ctx.app);
      const { answer } = await signIn(browser, login);
      expect(answer.headers.location).toBe('/login/?sso_error=unverified');
      expect((await browser.get('/api/user/')).status).toBe(401);
    }
    expect(
      (await sessionsOf(cast.adminA.email)).filter((row) => row.sign_in_method.startsWith('sso')),
    ).toEqual([]);

    // An institution whose provider speaks for its domains says so; a false claim is still refused.
    await pointSignInAt(provider.issuer, undefined, { email_authoritative: true });
    const trusted = new TestAgent(ctx.app);
    expect((await signIn(trusted, 'careless')).answer.headers.location).toBe('/survey/');
    expect((await trusted.get('/api/user/')).body).toMatchObject({ email: 'careless@north.edu' });
    expect((await signIn(new TestAgent(ctx.app), 'refused')).answer.headers.location).toBe(
      '/login/?sso_error=unverified',
    );
  });

  it('finds a linked account by the provider and subject, whatever address is claimed later', async () => {
    claimsOf.set('subject-1', { email: cast.studentA.email, email_verified: true });
    const first = new TestAgent(ctx.app);
    expect((await signIn(first, 'subject-1')).answer.headers.location).toBe('/survey/');
    expect(
      await ctx.db.kysely
        .selectFrom('sso_identities')
        .select(['issuer', 'subject', 'user_id', 'linked_by'])
        .execute(),
    ).toEqual([
      { issuer: provider.issuer, subject: 'subject-1', user_id: cast.studentA.id, linked_by: 'address' },
    ]);

    // The provider now says another address for the same subject: still the same account.
    claimsOf.set('subject-1', { email: 'renamed@north.edu', email_verified: true });
    const later = new TestAgent(ctx.app);
    expect((await signIn(later, 'subject-1')).answer.headers.location).toBe('/survey/');
    expect((await later.get('/api/user/')).body).toMatchObject({ email: cast.studentA.email });

    // Another subject claiming the linked account's address does not get it.
    claimsOf.set('subject-2', { email: cast.studentA.email, email_verified: true });
    const other = new TestAgent(ctx.app);
    expect((await signIn(other, 'subject-2')).answer.headers.location).toBe('/login/?sso_error=account');
    expect((await other.get('/api/user/')).status).toBe(401);
  });

  it("signs staff in only once they linked their account, and asks for the app's second factor", async () => {
    // The provider proves the admin's address, verified: that alone signs nobody in as staff.
    const stranger = new TestAgent(ctx.app);
    const refused = await signIn(stranger, cast.adminA.email, '/admin/settings/');
    expect(refused.answer.headers.location).toBe('/login/?sso_error=unlinked&next=%2Fadmin%2Fsettings%2F');
    expect((await stranger.get('/api/user/')).status).toBe(401);
    expectError(await new TestAgent(ctx.app).post('/api/sso/link/'), 401, 'UNAUTHENTICATED');

    // The admin links it from a complete sign-in of their own.
    const admin = new TestAgent(ctx.app);
    await admin.login(cast.adminA.email, TEST_PASSWORD);
    const link = await admin.post<{ authorization_url: string }>('/api/sso/link/');
    expect(link.status).toBe(200);
    const back = new URL(await signInAtProvider(link.body.authorization_url, cast.adminA.email));
    const linked = await admin.get(`${back.pathname}${back.search}`);
    expect(linked.headers.location).toBe('/dashboard/');
    expect(
      await ctx.db.kysely.selectFrom('sso_identities').select(['user_id', 'linked_by']).execute(),
    ).toEqual([{ user_id: cast.adminA.id, linked_by: 'session' }]);

    // Now the institution signs the admin in, with the app's second factor still to prove.
    const browser = new TestAgent(ctx.app);
    const { answer } = await signIn(browser, cast.adminA.email, '/admin/settings/');
    expect(answer.headers.location).toBe('/admin/settings/');
    expect((await browser.get('/api/user/')).body).toMatchObject({ role: 'admin', second_factor: 'verify' });
    const waiting = await browser.get('/api/institution/sso/');
    expect(waiting.status).toBe(403);
    expect(waiting.body).toMatchObject({ code: 'SECOND_FACTOR_REQUIRED', second_factor: 'verify' });

    // A provider that asserts a multi-factor sign-in stands in for it, while the institution counts it.
    idTokenClaims.amr = ['pwd', 'mfa'];
    const strong = new TestAgent(ctx.app);
    await signIn(strong, cast.adminA.email);
    expect((await strong.get('/api/user/')).body).not.toHaveProperty('second_factor');
    expect((await strong.get('/api/institution/sso/')).status).toBe(200);
    await pointSignInAt(provider.issuer, undefined, { provider_mfa_counts: false });
    const uncounted = new TestAgent(ctx.app);
    await signIn(uncounted, cast.adminA.email);
    expect((await uncounted.get('/api/user/')).body).toMatchObject({ second_factor: 'verify' });
  });

  it('links a staff account only with a second factor proven in the last five minutes, and tells its owner', async () => {
    const admin = new TestAgent(ctx.app);
    await admin.login(cast.adminA.email, TEST_PASSWORD);
    const proofAt = (at: number) =>
      ctx.db.kysely
        .updateTable('sessions')
        .set({ factor_proven_at: at })
        .where('user_id', '=', cast.adminA.id)
        .execute();
    // A session whose second factor was proven long ago (a stolen one, say) adds no way in.
    await proofAt(Date.now() - STEP_UP_WINDOW - MINUTE);
    expectError(await admin.post('/api/sso/link/'), 403, 'STEP_UP_REQUIRED');
    expect(await ctx.db.kysely.selectFrom('sso_attempts').select('link_user_id').execute()).toEqual([]);

    // Sign-in change mails to the admin so far (setting up the provider was one).
    const signInChangeMails = async () =>
      (
        await ctx.db.kysely
          .selectFrom('mail_outbox')
          .select('id')
          .where('subject', '=', SIGN_IN_CHANGE_SUBJECT)
          .where('to_address', '=', cast.adminA.email)
          .execute()
      ).length;
    const mailsBefore = await signInChangeMails();
    await proofAt(Date.now());
    const link = await admin.post<{ authorization_url: string }>('/api/sso/link/');
    expect(link.status).toBe(200);
    const back = new URL(await signInAtProvider(link.body.authorization_url, cast.adminA.email));
    expect((await admin.get(`${back.pathname}${back.search}`)).headers.location).toBe('/dashboard/');
    expect(await signInChangeMails()).toBe(mailsBefore + 1);
    const recorded = await ctx.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id', 'detail'])
      .where('action', '=', 'sso.link')
      .execute();
    expect(recorded).toEqual([
      {
        action: 'sso.link',
        actor_user_id: cast.adminA.id,
        detail: expect.stringContaining('"linked_by":"session"'),
      },
    ]);
  });

  it("links a staff member on the one sign-in an admin allowed, and still asks for the app's second factor", async () => {
    const counsellor = await makeUser(ctx.db.kysely, {
      email: 'casey@north.edu',
      role: 'counsellor',
      institutionId: cast.a.id,
      name: 'Casey North',
    });
    const admin = new TestAgent(ctx.app);
    await admin.login(cast.adminA.email, TEST_PASSWORD);
    // Not linked, not allowed: the provider's word on the address alone signs no staff in.
    expect((await signIn(new TestAgent(ctx.app), counsellor.email)).answer.headers.location).toBe(
      '/login/?sso_error=unlinked',
    );

    const allowed = await admin.post<{ expires_at: string }>(`/api/staff/${counsellor.id}/sso-link/`);
    expect(allowed.status).toBe(200);
    const grant = await ctx.db.kysely.selectFrom('sso_link_grants').selectAll().executeTakeFirstOrThrow();
    expect(Number(grant.expires_at) - Number(grant.granted_at)).toBe(24 * 60 * 60 * 1000);
    expect(new Date(Number(grant.expires_at)).toISOString()).toBe(allowed.body.expires_at);
    const team = await admin.get<{
      members: { id: number; sso_linked: boolean; sso_link_allowed_until: string | null }[];
    }>('/api/staff/');
    expect(team.body).toMatchObject({ single_sign_on: true });
    expect(team.body.members.find((member) => member.id === counsellor.id)).toMatchObject({
      sso_linked: false,
      sso_link_allowed_until: allowed.body.expires_at,
    });

    // Another address's sign-in does not use the member's permission.
    expect((await signIn(new TestAgent(ctx.app), cast.adminA.email)).answer.headers.location).toBe(
      '/login/?sso_error=unlinked',
    );
    const browser = new TestAgent(ctx.app);
    expect((await signIn(browser, counsellor.email, '/cases/')).answer.headers.location).toBe('/cases/');
    expect((await browser.get('/api/user/')).body).toMatchObject({
      email: counsellor.email,
      second_factor: 'enrol',
    });
    expect(
      await ctx.db.kysely.selectFrom('sso_identities').select(['user_id', 'linked_by']).execute(),
    ).toEqual([{ user_id: counsellor.id, linked_by: 'admin_grant' }]);
    expect(await ctx.db.kysely.selectFrom('sso_link_grants').selectAll().execute()).toEqual([]);
    const audit = await ctx.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id'])
      .where('action', 'in', ['staff.sso_link.allow', 'sso.link'])
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'staff.sso_link.allow', actor_user_id: cast.adminA.id },
      { action: 'sso.link', actor_user_id: counsellor.id },
    ]);
    // Used once: linked now, there is nothing more to allow.
    expectError(await admin.post(`/api/staff/${counsellor.id}/sso-link/`), 409, 'CONFLICT');
    expect(
      (await admin.get<{ members: { id: number; sso_linked: boolean }[] }>('/api/staff/')).body.members,
    ).toContainEqual(
      expect.objectContaining({ id: counsellor.id, sso_linked: true, sso_link_allowed_until: null }),
    );
  });

  it('lets a permission lapse after 24 hours, and allows only members of the institution', async () => {
    const viewer = await makeUser(ctx.db.kysely, {
      email: 'vic@north.edu',
      role: 'viewer',
      institutionId: cast.a.id,
    });
    const admin = new TestAgent(ctx.app);
    await admin.login(cast.adminA.email, TEST_PASSWORD);
    expect((await admin.post(`/api/staff/${viewer.id}/sso-link/`)).status).toBe(200);
    // A day later (the permission's clock is the database row's: moved back a day here).
    await ctx.db.kysely
      .updateTable('sso_link_grants')
      .set((eb) => ({ expires_at: eb('expires_at', '-', 24 * 60 * 60 * 1000) }))
      .execute();
    expect((await signIn(new TestAgent(ctx.app), viewer.email)).answer.headers.location).toBe(
      '/login/?sso_error=unlinked',
    );
    expect(await ctx.db.kysely.selectFrom('sso_identities').selectAll().execute()).toEqual([]);

    expectError(await admin.post(`/api/staff/${cast.studentA.id}/sso-link/`), 404, 'NOT_FOUND');
    expectError(await admin.post(`/api/staff/${cast.adminB.id}/sso-link/`), 404, 'NOT_FOUND');
    const adminB = new TestAgent(ctx.app);
    await adminB.login(cast.adminB.email, TEST_PASSWORD);
    // South has no single sign-on: nothing to link with, and its Team screen offers none.
    expectError(await adminB.post(`/api/staff/${cast.adminB.id}/sso-link/`), 409, 'CONFLICT');
    expect((await adminB.get('/api/staff/')).body).toMatchObject({ single_sign_on: false });
  });

  it('refuses an ID token whose signature is not one of the provider keys', async () => {
    const forger = await startTestProvider(callbackUrl(), { forgesIdTokenSignatures: true });
    try {
      await pointSignInAt(forger.issuer);
      const browser = new TestAgent(ctx.app);
      const { answer } = await signIn(browser, 'forged@north.edu');
      expect(answer.headers.location).toBe('/login/?sso_error=failed');
      expect((await browser.get('/api/user/')).status).toBe(401);
      expect(await sessionsOf('forged@north.edu')).toEqual([]);
    } finally {
      await forger.stop();
    }
  });

  // A provider that lists no way at all gets the header too: OpenID Connect Discovery's default.
  it.each([
    ['that lists only that way', true],
    ['that lists no way', false],
  ])(
    'signs in with the client secret in the Authorization header at a provider %s',
    async (_provider, listsSecretMethods) => {
      const basicOnly = await startTestProvider(callbackUrl(), {
        secretMethod: 'client_secret_basic',
        listsSecretMethods,
      });
      try {
        await pointSignInAt(basicOnly.issuer);
        const browser = new TestAgent(ctx.app);
        const { answer } = await signIn(browser, 'header.student@north.edu');
        expect(answer.headers.location).toBe('/survey/');
        expect(await sessionsOf('header.student@north.edu')).toEqual([
          { sign_in_method: 'sso', role: 'student' },
        ]);
      } finally {
        await basicOnly.stop();
      }
    },
  );

  it("refuses an address outside the institution's single sign-on domains", async () => {
    const browser = new TestAgent(ctx.app);
    const { answer } = await signIn(browser, 'someone@south.edu');
    expect(answer.headers.location).toBe('/login/?sso_error=domain');
    // A refused sign-in that was on its way somewhere sends the visitor back to try again from there.
    const withNext = await signIn(new TestAgent(ctx.app), 'someone@south.edu', '/survey/');
    expect(withNext.answer.headers.location).toBe('/login/?sso_error=domain&next=%2Fsurvey%2F');
    expect((await browser.get('/api/user/')).status).toBe(401);
    expect(
      await ctx.db.kysely.selectFrom('users').select('id').where('email', '=', 'someone@south.edu').execute(),
    ).toEqual([]);
  });
});
