import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentResponse, createTestApp, TestAgent, type TestContext } from '../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../test/helpers/databases';
import { expectError } from '../../../test/helpers/errors';
import { makeTwoInstitutions, TEST_PASSWORD } from '../../../test/helpers/factories';
import { DISPLAY_COOKIES } from '../../common/displayCookies';
import { ABSOLUTE_TIMEOUT, IDLE_TIMEOUT, SESSION_COOKIE } from './sessions';
import { MINUTE } from './time';

type Cast = Awaited<ReturnType<typeof makeTwoInstitutions>>;

const CSRF_REFUSED = 'CSRF token missing or incorrect. Reload the page and try again.';

const registration = {
  institution_name: 'North University',
  name: 'Nora New',
  email: 'nora@north.edu',
  password: 'a-long-enough-passphrase',
  confirm_password: 'a-long-enough-passphrase',
};

function cookie(response: AgentResponse, name: string) {
  return response.cookies.find((c) => c.name === name);
}

describe.each(TEST_DIALECTS)('request guard on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Cast;
  let agent: TestAgent;

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    agent = new TestAgent(ctx.app);
  });

  afterEach(async () => {
    await ctx.close();
  });

  /** Whether Nora's registration went through (it then waits for her code). */
  async function noraExists() {
    const row = await ctx.db.kysely
      .selectFrom('pending_registrations')
      .select('id')
      .where('email', '=', registration.email)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A register call that must be refused with 403 and must not create the account. */
  async function expectRegisterRefused(
    options: { headers?: Record<string, string>; csrf?: boolean },
    message: string,
  ) {
    // A foreign Origin is refused before the CSRF token is looked at.
    const code = message === CSRF_REFUSED ? 'CSRF_FAILED' : 'FORBIDDEN';
    const response = await agent.request({
      method: 'POST',
      url: '/api/register/',
      payload: registration,
      ...options,
    });
    expectError(response, 403, code, message);
    expect(await noraExists()).toBe(false);
  }

  describe('CSRF', () => {
    it('refuses an unsafe request from a client that never fetched a token', async () => {
      await expectRegisterRefused({ csrf: false }, CSRF_REFUSED);
    });

    it('refuses an unsafe request without the X-CSRFToken header', async () => {
      await agent.get('/api/csrf/');
      await expectRegisterRefused({ csrf: false }, CSRF_REFUSED);
    });

    it('refuses a wrong token', async () => {
      await agent.get('/api/csrf/');
      await expectRegisterRefused({ headers: { 'x-csrftoken': 'not-a-real-token' } }, CSRF_REFUSED);
      const token = agent.jar.get('csrftoken') as string;
      await expectRegisterRefused({ headers: { 'x-csrftoken': `${token.slice(0, -2)}xx` } }, CSRF_REFUSED);
    });

    it("refuses another visitor's token", async () => {
      const other = new TestAgent(ctx.app);
      const { body } = await other.get<{ csrftoken: string }>('/api/csrf/');
      await agent.get('/api/csrf/');
      await expectRegisterRefused({ headers: { 'x-csrftoken': body.csrftoken } }, CSRF_REFUSED);
    });

    it("refuses another session's token even with the same CSRF secret cookie", async () => {
      await agent.login(cast.studentA.email, TEST_PASSWORD);
      const studentToken = agent.jar.get('csrftoken') as string;
      const other = new TestAgent(ctx.app);
      other.jar.set('_csrf', agent.jar.get('_csrf') as string);
      await other.login(cast.adminA.email, TEST_PASSWORD);

      const response = await other.request({
        method: 'POST',
        url: '/api/logout/',
        headers: { 'x-csrftoken': studentToken },
      });
      expectError(response, 403, 'CSRF_FAILED', CSRF_REFUSED);
      expect((await other.get('/api/user/')).status).toBe(200);
    });

    it('refuses a token issued before login once logged in, and accepts the new one', async () => {
      const { body } = await agent.get<{ csrftoken: string }>('/api/csrf/');
      await agent.login(cast.studentA.email, TEST_PASSWORD);
      expect(agent.jar.get('csrftoken')).not.toBe(body.csrftoken);

      const stale = await agent.request({
        method: 'POST',
        url: '/api/logout/',
        headers: { 'x-csrftoken': body.csrftoken },
      });
      expectError(stale, 403, 'CSRF_FAILED', CSRF_REFUSED);
      expect((await agent.get('/api/user/')).status).toBe(200);

      expect((await agent.post('/api/logout/')).status).toBe(200);
      expect((await agent.get('/api/user/')).status).toBe(401);
    });

    it('refuses a token from a session that has been logged out', async () => {
      await agent.login(cast.studentA.email, TEST_PASSWORD);
      const sessionToken = agent.jar.get('csrftoken') as string;
      await agent.post('/api/logout/');
      await expectRegisterRefused({ headers: { 'x-csrftoken': sessionToken } }, CSRF_REFUSED);
    });

    it('guards login itself', async () => {
      const response = await agent.request({
        method: 'POST',
        url: '/api/login/',
        payload: { email: cast.studentA.email, password: TEST_PASSWORD },
        csrf: false,
      });
      expectError(response, 403, 'CSRF_FAILED', CSRF_REFUSED);
      expect(cookie(response, SESSION_COOKIE)).toBeUndefined();
    });

    it('guards a route reached through a percent-encoded path', async () => {
      // The router decodes "/%61pi/" to "/api/": the guard must not judge by the raw URL.
      const response = await agent.request({
        method: 'POST',
        url: '/%61pi/login/',
        payload: { email: cast.studentA.email, password: TEST_PASSWORD },
        csrf: false,
      });
      expectError(response, 403, 'CSRF_FAILED', CSRF_REFUSED);
      expect(cookie(response, SESSION_COOKIE)).toBeUndefined();

      const foreign = await agent.request({
        method: 'POST',
        url: '/%61pi/register/',
        payload: registration,
        headers: { origin: 'https://evil.example' },
      });
      expectError(foreign, 403, 'FORBIDDEN', 'Cross-origin request refused');
      expect(await noraExists()).toBe(false);
    });

    it('knows the session on a route reached through a percent-encoded path', async () => {
      await agent.login(cast.studentA.email, TEST_PASSWORD);
      expect((await agent.get('/%61pi/user/')).status).toBe(200);
    });
  });

  describe('Origin', () => {
    it('refuses a foreign origin even with a valid token', async () => {
      await expectRegisterRefused(
        { headers: { origin: 'https://evil.example' } },
        'Cross-origin request refused',
      );
      await expectRegisterRefused({ headers: { origin: 'null' } }, 'Cross-origin request refused');
      await expectRegisterRefused(
        { headers: { origin: 'http://localhost:8080' } },
        'Cross-origin request refused',
      );
    });

    it('accepts its own origin', async () => {
      const response = await agent.request({
        method: 'POST',
        url: '/api/register/',
        payload: registration,
        headers: { origin: 'http://localhost:80' },
      });
      expect(response.status).toBe(201);
    });

    it('accepts the configured public URL', async () => {
      await ctx.close();
      ctx = await createTestApp(dialect, { web: { publicUrl: 'https://wellness.example.edu/app' } });
      cast = await makeTwoInstitutions(ctx.db.kysely);
      agent = new TestAgent(ctx.app);
      const response = await agent.request({
        method: 'POST',
        url: '/api/register/',
        payload: registration,
        headers: { origin: 'https://wellness.example.edu' },
      });
      expect(response.status).toBe(201);
    });
  });

  describe('session cookie', () => {
    async function loggedInSessionId() {
      const response = await agent.login(cast.studentA.email, TEST_PASSWORD);
      return cookie(response, SESSION_COOKIE)?.value as string;
    }

    async function setSessionTimes(times: { created_at?: number; last_seen_at?: number }) {
      await ctx.db.kysely.updateTable('sessions').set(times).execute();
    }

    it('treats a forged session cookie as anonymous and clears it', async () => {
      agent.jar.set(SESSION_COOKIE, 'A'.repeat(43));
      const response = await agent.get('/api/user/');
      expectError(response, 401, 'UNAUTHENTICATED', 'Not authenticated');
      expect(agent.jar.has(SESSION_COOKIE)).toBe(false);

      agent.jar.set(SESSION_COOKIE, 'x'.repeat(5000));
      expect((await agent.get('/api/user/')).status).toBe(401);
    });

    it('stores only a hash of the session id', async () => {
      const sessionId = await loggedInSessionId();
      expect(Buffer.from(sessionId, 'base64url').length).toBeGreaterThanOrEqual(32);
      const rows = await ctx.db.kysely.selectFrom('sessions').select('id_hash').execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.id_hash).not.toContain(sessionId);
    });

    it('keeps a session that was used within the idle timeout, and refreshes it', async () => {
      await loggedInSessionId();
      const lastSeen = Date.now() - IDLE_TIMEOUT + 5 * MINUTE;
      await setSessionTimes({ last_seen_at: lastSeen });
      expect((await agent.get('/api/user/')).status).toBe(200);
      const row = await ctx.db.kysely.selectFrom('sessions').select('last_seen_at').executeTakeFirstOrThrow();
      expect(Number(row.last_seen_at)).toBeGreaterThan(lastSeen);
    });

    it('ends a session idle for more than 30 minutes', async () => {
      const sessionId = await loggedInSessionId();
      await setSessionTimes({ last_seen_at: Date.now() - IDLE_TIMEOUT - MINUTE });
      expectError(await agent.get('/api/user/'), 401, 'UNAUTHENTICATED', 'Not authenticated');
      expect(await ctx.db.kysely.selectFrom('sessions').selectAll().execute()).toEqual([]);

      const replay = new TestAgent(ctx.app);
      replay.jar.set(SESSION_COOKIE, sessionId);
      expect((await replay.get('/api/user/')).status).toBe(401);
    });

    it('ends a session older than 12 hours even if it was just used', async () => {
      await loggedInSessionId();
      await setSessionTimes({ created_at: Date.now() - ABSOLUTE_TIMEOUT - MINUTE, last_seen_at: Date.now() });
      expectError(await agent.get('/api/user/'), 401, 'UNAUTHENTICATED', 'Not authenticated');
      expect(await ctx.db.kysely.selectFrom('sessions').selectAll().execute()).toEqual([]);
    });

    it('is HttpOnly and SameSite=Lax, with script-readable display and CSRF cookies that do not hold it', async () => {
      const response = await agent.login(cast.adminA.email, TEST_PASSWORD);
      const session = cookie(response, SESSION_COOKIE);
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(session?.secure).not.toBe(true);
      const sessionId = session?.value as string;

      for (const name of DISPLAY_COOKIES) {
        const display = cookie(response, name);
        expect(display, name).toBeDefined();
        expect(display?.httpOnly, name).not.toBe(true);
        expect(display?.value, name).not.toBe(sessionId);
        expect(display?.value, name).not.toContain(sessionId);
      }
      expect(cookie(response, 'user_email')?.value).toBe('admin@north.edu');
      expect(cookie(response, 'is_institution_admin')?.value).toBe('true');
      expect(cookie(response, 'is_superuser')?.value).toBe('false');

      const csrf = cookie(response, 'csrftoken');
      expect(csrf?.httpOnly).not.toBe(true);
      expect(csrf?.value).not.toBe(sessionId);
    });

    it('is Secure when served over HTTPS behind a trusted proxy', async () => {
      await ctx.close();
      ctx = await createTestApp(dialect, { trustProxy: 1 });
      cast = await makeTwoInstitutions(ctx.db.kysely);
      agent = new TestAgent(ctx.app);
      const response = await agent.request({
        method: 'POST',
        url: '/api/login/',
        payload: { email: cast.studentA.email, password: TEST_PASSWORD },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(response.status).toBe(200);
      expect(cookie(response, SESSION_COOKIE)).toMatchObject({
        httpOnly: true,
        secure: true,
        sameSite: 'Lax',
      });
      for (const name of DISPLAY_COOKIES) expect(cookie(response, name)?.secure, name).toBe(true);
    });
  });

  describe('a session cookie the server does not know', () => {
    /** The agent's session, logged in and then made dead in one of three ways. */
    const DEATHS: Record<string, () => Promise<unknown>> = {
      expired: () =>
        ctx.db.kysely
          .updateTable('sessions')
          .set({ last_seen_at: Date.now() - IDLE_TIMEOUT - MINUTE })
          .execute(),
      deleted: () => ctx.db.kysely.deleteFrom('sessions').execute(),
      forged: async () => agent.jar.set(SESSION_COOKIE, 'F'.repeat(43)),
    };

    async function deadSession(death: string) {
      await agent.login(cast.studentA.email, TEST_PASSWORD);
      await DEATHS[death]?.();
      return agent.jar.get('csrftoken') as string;
    }

    function expectOnlyVisitorCookies() {
      expect(agent.jar.has(SESSION_COOKIE)).toBe(false);
      for (const name of DISPLAY_COOKIES) expect(agent.jar.has(name), name).toBe(false);
    }

    it.each(Object.keys(DEATHS))(
      '%s: GET /api/csrf/ answers as to a visitor, with a token login and registration accept at once',
      async (death) => {
        const oldToken = await deadSession(death);
        const response = await agent.get<{ csrftoken: string }>('/api/csrf/');
        expect(response.status).toBe(200);
        expect(response.body.csrftoken).not.toBe(oldToken);
        expect(agent.jar.get('csrftoken')).toBe(response.body.csrftoken);
        expectOnlyVisitorCookies();

        expect((await agent.post('/api/register/', registration)).status).toBe(201);
        expect(await noraExists()).toBe(true);
        const login = await agent.post('/api/login/', {
          email: cast.studentA.email,
          password: TEST_PASSWORD,
        });
        expect(login.status).toBe(200);
        expect((await agent.get('/api/user/')).body).toMatchObject({ email: cast.studentA.email });
      },
    );

    it.each(Object.keys(DEATHS))(
      '%s: any answer replaces the dead session token, so the next login needs no new one',
      async (death) => {
        const oldToken = await deadSession(death);
        expectError(await agent.get('/api/user/'), 401, 'UNAUTHENTICATED', 'Not authenticated');
        expect(agent.jar.get('csrftoken')).not.toBe(oldToken);
        expectOnlyVisitorCookies();

        const login = await agent.post('/api/login/', {
          email: cast.studentA.email,
          password: TEST_PASSWORD,
        });
        expect(login.status).toBe(200);
      },
    );

    it('refuses the dead session token itself, and the refusal carries a token that works', async () => {
      await deadSession('expired');
      await expectRegisterRefused({}, CSRF_REFUSED);
      expectOnlyVisitorCookies();

      expect((await agent.post('/api/register/', registration)).status).toBe(201);
      expect(await noraExists()).toBe(true);
    });
  });

  describe('security headers', () => {
    function csp(response: AgentResponse) {
      return String(response.headers['content-security-policy']);
    }

    it.each(['/api/user/', '/', '/login/', '/api/nope/'])('are sent on %s', async (url) => {
      const response = await agent.get(url);
      expect(csp(response)).toContain("frame-ancestors 'none'");
      expect(csp(response)).toContain("default-src 'self'");
      expect(csp(response)).toMatch(/script-src 'self'/);
      expect(csp(response)).not.toContain('unsafe-inline');
      expect(csp(response)).not.toContain('unsafe-eval');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['strict-transport-security']).toBeUndefined();
    });

    it('keep API answers out of every cache, failures included', async () => {
      await agent.login(cast.studentA.email, TEST_PASSWORD);
      for (const url of [
        '/api/user/',
        '/api/institutions/',
        '/api/get-user-survey-questions/',
        '/api/nope/',
      ]) {
        expect((await agent.get(url)).headers['cache-control'], url).toBe('no-store');
      }
      expect((await agent.post('/api/logout/')).headers['cache-control']).toBe('no-store');
      expect((await agent.get('/api/contact/page.css')).headers['cache-control']).toMatch(/^public/);
    });

    it('send HSTS over HTTPS behind a trusted proxy only', async () => {
      const spoofed = await agent.request({ url: '/api/user/', headers: { 'x-forwarded-proto': 'https' } });
      expect(spoofed.headers['strict-transport-security']).toBeUndefined();

      await ctx.close();
      ctx = await createTestApp(dialect, { trustProxy: 1 });
      agent = new TestAgent(ctx.app);
      const https = await agent.request({ url: '/api/user/', headers: { 'x-forwarded-proto': 'https' } });
      expect(https.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
      const http = await agent.get('/api/user/');
      expect(http.headers['strict-transport-security']).toBeUndefined();
    });
  });
});
