import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { makeTwoInstitutions, TEST_PASSWORD } from '../../../../test/helpers/factories';

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

describe.each(TEST_DIALECTS)('single sign-on on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let adminA: TestAgent;
  let downIssuer: string;

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    adminA = new TestAgent(ctx.app);
    await adminA.login(cast.adminA.email, TEST_PASSWORD);
    downIssuer = `http://127.0.0.1:${await closedPort()}`;
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
      },
    });
    const read = await adminA.get('/api/institution/sso/');
    expect(read.text).not.toContain(SECRET);
    expect(read.body).toEqual(saved.body);
    const row = await ctx.db.kysely.selectFrom('sso_settings').selectAll().executeTakeFirstOrThrow();
    expect(row.client_secret_sealed).not.toContain(SECRET);

    // Saved again without a secret: the stored one stays.
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
    expect(down.headers.location).toBe('/login/?sso_error=unreachable');
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
    // A wrong password is told what any wrong password is: nothing about the institution.
    expectError(
      await student.post('/api/login/', { email: cast.studentA.email, password: 'wrong-password-1' }),
      401,
      'UNAUTHENTICATED',
    );
    // South's students are not concerned, and North's admin still signs in with a password.
    expect(
      (await student.post('/api/login/', { email: cast.studentB.email, password: TEST_PASSWORD })).status,
    ).toBe(200);
    await new TestAgent(ctx.app).login(cast.adminA.email, TEST_PASSWORD);
  });
});
