import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AgentResponse, createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, TEST_PASSWORD } from '../../../../test/helpers/factories';
import { latestCodeFor, proveAddress } from '../../../../test/helpers/verify';
import type { ErrorCode } from '../../../common/schemas/common';
import { DEFAULT_LIMITS } from '../../config';
import { createSession, SESSION_COOKIE } from '../../lib/sessions';
import { HOUR } from '../../lib/time';
import { ADDRESS_UNCONFIRMED_MESSAGE } from '../unconfirmed-address';
import { accountThrottledMessage } from './lockout';
import { INVALID_LOGIN, REGISTRATION_STARTED } from './service';

type Cast = Awaited<ReturnType<typeof makeTwoInstitutions>>;

const REQUIRED = 'Please fill in all required fields';

function cookie(response: AgentResponse, name: string) {
  return response.cookies.find((c) => c.name === name);
}

async function userCount(ctx: TestContext) {
  const row = await ctx.db.kysely
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

describe.each(TEST_DIALECTS)('auth endpoints on %s', (dialect) => {
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

  describe('GET /api/csrf/', () => {
    it('returns a token and sets it as a script-readable csrftoken cookie', async () => {
      const response = await agent.get<{ success: boolean; csrftoken: string }>('/api/csrf/');
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      expect(response.body.csrftoken.length).toBeGreaterThan(20);
      const csrfCookie = cookie(response, 'csrftoken');
      expect(csrfCookie?.value).toBe(response.body.csrftoken);
      expect(csrfCookie?.httpOnly).not.toBe(true);
      expect(csrfCookie).toMatchObject({ path: '/' });
    });

    it('issues a token that unsafe requests are accepted with', async () => {
      const { body } = await agent.get<{ csrftoken: string }>('/api/csrf/');
      const response = await agent.request({
        method: 'POST',
        url: '/api/logout/',
        headers: { 'x-csrftoken': body.csrftoken },
      });
      expect(response.status).toBe(200);
    });
  });

  describe('GET /api/user/', () => {
    it('answers 401 to an anonymous visitor', async () => {
      expectError(await agent.get('/api/user/'), 401, 'UNAUTHENTICATED', 'Not authenticated');
    });

    it('clears stale display cookies for an anonymous visitor', async () => {
      agent.jar.set('user_email', 'student@north.edu');
      agent.jar.set('auth_token', 'stale');
      const response = await agent.get('/api/user/');
      expect(response.status).toBe(401);
      expect(agent.jar.has('user_email')).toBe(false);
      expect(agent.jar.has('auth_token')).toBe(false);
    });

    it('describes a student', async () => {
      await agent.login(cast.studentA.email, TEST_PASSWORD);
      const response = await agent.get('/api/user/');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        is_authenticated: true,
        is_superuser: false,
        is_institution_admin: false,
        email: 'student@north.edu',
        name: 'Sam North',
        institution_name: 'North University',
        time_zone: 'UTC',
        language: null,
        role: 'student',
      });
    });

    it("describes an institution admin, with the institution's time zone that staff read times in", async () => {
      await ctx.db.kysely
        .updateTable('institutions')
        .set({ time_zone: 'Europe/Madrid' })
        .where('id', '=', cast.b.id)
        .execute();
      await agent.login(cast.adminB.email, TEST_PASSWORD);
      const response = await agent.get('/api/user/');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        is_authenticated: true,
        is_superuser: false,
        is_institution_admin: true,
        email: 'admin@south.edu',
        name: 'admin',
        institution_name: 'South College',
        time_zone: 'Europe/Madrid',
        language: null,
        role: 'admin',
      });
    });

    it("leaves a test's direct sign-in of a staff member as a whole sign-in leaves the browser", async () => {
      await agent.login(cast.adminA.email, TEST_PASSWORD);
      const direct = new TestAgent(ctx.app);
      await direct.signInDirectly(ctx.db, cast.adminA.email);
      // The known-device mark is the one cookie left out: only the login endpoint reads it.
      const names = (client: TestAgent) => [...client.jar.keys()].filter((n) => n !== 'known_device').sort();
      expect(names(direct)).toEqual(names(agent));
      for (const name of ['user_email', 'is_superuser', 'is_institution_admin', 'user_role'])
        expect(direct.jar.get(name), name).toBe(agent.jar.get(name));
      const [whole, directly] = await Promise.all([agent.get('/api/user/'), direct.get('/api/user/')]);
      expect(directly.status).toBe(200);
      expect(directly.body).toEqual(whole.body);
      expect(directly.body).not.toHaveProperty('second_factor');
      // Its CSRF token is bound to its session: an unsafe request passes.
      expect((await direct.post('/api/logout/')).status).toBe(200);
    });

    it('describes a superuser whose session exists (the header shows a badge)', async () => {
      const { sessionId } = await createSession(ctx.db.kysely, cast.superuser.id);
      agent.jar.set(SESSION_COOKIE, sessionId);
      const response = await agent.get('/api/user/');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        is_authenticated: true,
        is_superuser: true,
        is_institution_admin: false,
        email: 'root@north.edu',
        name: 'root',
        institution_name: null,
        time_zone: null,
        language: null,
        role: 'superuser',
      });
    });
  });

  describe('POST /api/login/', () => {
    it('logs a student in', async () => {
      const response = await agent.post('/api/login/', {
        email: cast.studentA.email,
        password: TEST_PASSWORD,
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        success: true,
        message: 'Login successful',
        user: { email: 'student@north.edu', is_institution_admin: false, is_superuser: false },
      });
      expect(cookie(response, SESSION_COOKIE)?.value).toBeTruthy();
      expect(cookie(response, 'user_role')?.value).toBe('student');
      expect((await agent.get('/api/user/')).status).toBe(200);
    });

    it('logs an institution admin in', async () => {
      const response = await agent.post('/api/login/', { email: cast.adminA.email, password: TEST_PASSWORD });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        success: true,
        user: { email: 'admin@north.edu', is_institution_admin: true },
      });
      expect(cookie(response, 'is_institution_admin')?.value).toBe('true');
      // The role for the header's first paint, as the API names it.
      expect(cookie(response, 'user_role')?.value).toBe('admin');
    });

    it('sets the role cookie again when it no longer says the role', async () => {
      await agent.post('/api/login/', { email: cast.studentA.email, password: TEST_PASSWORD });
      expect(cookie(await agent.get('/api/user/'), 'user_role')).toBeUndefined();
      agent.jar.set('user_role', 'admin');
      const user = await agent.get('/api/user/');
      expect(user.status).toBe(200);
      expect(cookie(user, 'user_role')?.value).toBe('student');
      expect(cookie(user, 'is_institution_admin')?.value).toBe('false');
    });

    it('treats the email case-insensitively', async () => {
      const response = await agent.post('/api/login/', {
        email: '  Student@NORTH.edu ',
        password: TEST_PASSWORD,
      });
      expect(response.status).toBe(200);
      expect((await agent.get('/api/user/')).body).toMatchObject({ email: 'student@north.edu' });
    });

    it('gives the same answer for an unknown email and a wrong password', async () => {
      const unknown = await agent.post('/api/login/', { email: 'nobody@north.edu', password: TEST_PASSWORD });
      const wrong = await agent.post('/api/login/', {
        email: cast.studentA.email,
        password: 'not-the-password',
      });
      expectError(unknown, 401, 'UNAUTHENTICATED', INVALID_LOGIN);
      expectError(wrong, 401, 'UNAUTHENTICATED', INVALID_LOGIN);
      expect(cookie(wrong, SESSION_COOKIE)).toBeUndefined();
      expect((await agent.get('/api/user/')).status).toBe(401);
    });

    it('refuses a superuser with the right password as with a wrong one, and sets no session', async () => {
      const response = await agent.post('/api/login/', {
        email: cast.superuser.email,
        password: TEST_PASSWORD,
      });
      expectError(response, 401, 'UNAUTHENTICATED', INVALID_LOGIN);
      expect(cookie(response, SESSION_COOKIE)).toBeUndefined();
      expect((await agent.get('/api/user/')).status).toBe(401);
    });

    it('does not reveal a superuser account to someone without its password', async () => {
      const response = await agent.post('/api/login/', {
        email: cast.superuser.email,
        password: 'not-the-password',
      });
      expectError(response, 401, 'UNAUTHENTICATED', INVALID_LOGIN);
    });

    it('validates its input', async () => {
      expectError(
        await agent.post('/api/login/', { password: TEST_PASSWORD }),
        400,
        'VALIDATION_FAILED',
        'Email is required',
      );
      expectError(
        await agent.post('/api/login/', { email: 'not-an-email', password: TEST_PASSWORD }),
        400,
        'VALIDATION_FAILED',
        'Enter a valid email address',
      );
      expectError(
        await agent.post('/api/login/', { email: cast.studentA.email }),
        400,
        'VALIDATION_FAILED',
        'Password is required',
      );
      expectError(
        await agent.post('/api/login/', { email: cast.studentA.email, password: '' }),
        400,
        'VALIDATION_FAILED',
        'Password is required',
      );
      expectError(
        await agent.post('/api/login/', { email: cast.studentA.email, password: 'x'.repeat(5000) }),
        400,
        'VALIDATION_FAILED',
        'Password is too long',
      );
    });

    it('issues a new session id at login; the old one stops working', async () => {
      const first = await agent.login(cast.studentA.email, TEST_PASSWORD);
      const firstId = cookie(first, SESSION_COOKIE)?.value as string;
      const second = await agent.login(cast.adminA.email, TEST_PASSWORD);
      const secondId = cookie(second, SESSION_COOKIE)?.value as string;
      expect(secondId).toBeTruthy();
      expect(secondId).not.toBe(firstId);

      const replay = new TestAgent(ctx.app);
      replay.jar.set(SESSION_COOKIE, firstId);
      expect((await replay.get('/api/user/')).status).toBe(401);
      expect((await agent.get('/api/user/')).body).toMatchObject({ email: 'admin@north.edu' });
      const sessions = await ctx.db.kysely.selectFrom('sessions').select('user_id').execute();
      expect(sessions.map((s) => s.user_id)).toEqual([cast.adminA.id]);
    });

    it('gives an anonymous session cookie planted before login no power after it', async () => {
      agent.jar.set(SESSION_COOKIE, 'planted-by-an-attacker');
      const response = await agent.login(cast.studentA.email, TEST_PASSWORD);
      expect(cookie(response, SESSION_COOKIE)?.value).not.toBe('planted-by-an-attacker');
      const attacker = new TestAgent(ctx.app);
      attacker.jar.set(SESSION_COOKIE, 'planted-by-an-attacker');
      expect((await attacker.get('/api/user/')).status).toBe(401);
    });
  });

  describe('POST /api/login/ per-account throttle', () => {
    const WINDOW_MS = 60_000;
    const ACCOUNT_THROTTLED =
      'Too many failed login attempts for this account. Please wait 1 minute and try again.';

    beforeEach(async () => {
      await ctx.close();
      ctx = await createTestApp(dialect, {
        limits: {
          login: { ...DEFAULT_LIMITS.login, failuresPerAccount: 3, windowMs: WINDOW_MS },
        },
      });
      cast = await makeTwoInstitutions(ctx.db.kysely);
      agent = new TestAgent(ctx.app);
    });

    async function fail(email: string, times: number) {
      for (let i = 0; i < times; i++) {
        expectError(
          await agent.post('/api/login/', { email, password: 'wrong-password' }),
          401,
          'UNAUTHENTICATED',
          INVALID_LOGIN,
        );
      }
    }

    /** Moves the account's failure window into the past, as if the window had gone by. */
    async function expireWindow() {
      await ctx.db.kysely
        .updateTable('limit_counters')
        .set({ window_started_at: Date.now() - WINDOW_MS - 1_000, expires_at: Date.now() - 1_000 })
        .execute();
    }

    it('locks the account after N failures, even against the right password, then recovers', async () => {
      await fail(cast.studentA.email, 3);
      const locked = await agent.post('/api/login/', { email: cast.studentA.email, password: TEST_PASSWORD });
      expectError(locked, 429, 'TOO_MANY_REQUESTS', ACCOUNT_THROTTLED);
      expect(cookie(locked, SESSION_COOKIE)).toBeUndefined();

      // Another account, from the same client, is not affected.
      expect(
        (await agent.post('/api/login/', { email: cast.adminA.email, password: TEST_PASSWORD })).status,
      ).toBe(200);

      await expireWindow();
      const after = await agent.post('/api/login/', { email: cast.studentA.email, password: TEST_PASSWORD });
      expect(after.status).toBe(200);
    });

    it('cannot be outrun by guesses sent all at once', async () => {
      await agent.get('/api/csrf/');
      const guesses = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          agent.post('/api/login/', { email: cast.studentA.email, password: `guess-${i}` }),
        ),
      );
      const statuses = guesses.map((guess) => guess.status).sort();
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
      expectError(
        await agent.post('/api/login/', { email: cast.studentA.email, password: TEST_PASSWORD }),
        429,
        'TOO_MANY_REQUESTS',
        ACCOUNT_THROTTLED,
      );
    });

    it('counts failures whatever the case of the email', async () => {
      await fail('STUDENT@north.edu', 2);
      await fail('student@NORTH.EDU', 1);
      expectError(
        await agent.post('/api/login/', { email: cast.studentA.email, password: TEST_PASSWORD }),
        429,
        'TOO_MANY_REQUESTS',
        ACCOUNT_THROTTLED,
      );
    });

    it('throttles guesses at unknown emails too', async () => {
      await fail('ghost@north.edu', 3);
      expectError(
        await agent.post('/api/login/', { email: 'ghost@north.edu', password: 'anything-else' }),
        429,
        'TOO_MANY_REQUESTS',
        ACCOUNT_THROTTLED,
      );
    });

    it('forgets failures after a successful login', async () => {
      await fail(cast.studentA.email, 2);
      await agent.login(cast.studentA.email, TEST_PASSWORD);
      await fail(cast.studentA.email, 2);
      expect(
        (await agent.post('/api/login/', { email: cast.studentA.email, password: TEST_PASSWORD })).status,
      ).toBe(200);
    });

    it('starts a fresh count once the window has passed', async () => {
      await fail(cast.studentA.email, 2);
      await expireWindow();
      await fail(cast.studentA.email, 2);
      expect(
        (await agent.post('/api/login/', { email: cast.studentA.email, password: TEST_PASSWORD })).status,
      ).toBe(200);
    });
  });

  describe('the per-account lockout message', () => {
    it('names the configured 15-minute window by default', async () => {
      for (let i = 0; i < 5; i++) {
        expect(
          (await agent.post('/api/login/', { email: cast.studentA.email, password: 'wrong' })).status,
        ).toBe(401);
      }
      expectError(
        await agent.post('/api/login/', { email: cast.studentA.email, password: TEST_PASSWORD }),
        429,
        'TOO_MANY_REQUESTS',
        'Too many failed login attempts for this account. Please wait 15 minutes and try again.',
      );
    });

    it.each([
      [15 * 60_000, 'Please wait 15 minutes and try again.'],
      [60_000, 'Please wait 1 minute and try again.'],
      [90_000, 'Please wait 2 minutes and try again.'],
      [20_000, 'Please wait 1 minute and try again.'],
      [2 * 60 * 60_000, 'Please wait 120 minutes and try again.'],
    ])('for a %d ms window says "%s"', (windowMs, wait) => {
      expect(accountThrottledMessage(windowMs)).toBe(
        `Too many failed login attempts for this account. ${wait}`,
      );
    });
  });

  describe('POST /api/login/ per-IP rate limit', () => {
    beforeEach(async () => {
      await ctx.close();
      ctx = await createTestApp(dialect, { limits: { loginPerIpPerMinute: 3 } });
      cast = await makeTwoInstitutions(ctx.db.kysely);
      agent = new TestAgent(ctx.app);
    });

    it('answers 429 with a message once one address has used up its attempts', async () => {
      const emails = [cast.studentA.email, cast.adminA.email, cast.studentB.email];
      for (const email of emails) {
        expect((await agent.post('/api/login/', { email, password: TEST_PASSWORD })).status).toBe(200);
      }
      const limited = await agent.post('/api/login/', { email: cast.adminB.email, password: TEST_PASSWORD });
      expectError(
        limited,
        429,
        'TOO_MANY_REQUESTS',
        'Too many requests. Please wait a minute and try again.',
      );

      const elsewhere = new TestAgent(ctx.app);
      const other = await elsewhere.request({
        method: 'POST',
        url: '/api/login/',
        payload: { email: cast.adminB.email, password: TEST_PASSWORD },
        remoteAddress: '192.0.2.7',
      });
      expect(other.status).toBe(200);
    });
  });

  describe('POST /api/logout/', () => {
    it('deletes the session server-side, so a replayed cookie is anonymous', async () => {
      const login = await agent.login(cast.studentA.email, TEST_PASSWORD);
      const sessionId = cookie(login, SESSION_COOKIE)?.value as string;

      const response = await agent.post('/api/logout/');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, message: 'Logged out' });
      for (const name of [
        SESSION_COOKIE,
        'auth_token',
        'user_email',
        'is_superuser',
        'is_institution_admin',
        'user_role',
      ]) {
        expect(agent.jar.has(name), name).toBe(false);
      }
      expect(await ctx.db.kysely.selectFrom('sessions').selectAll().execute()).toEqual([]);

      const replay = new TestAgent(ctx.app);
      replay.jar.set(SESSION_COOKIE, sessionId);
      expectError(await replay.get('/api/user/'), 401, 'UNAUTHENTICATED', 'Not authenticated');
    });

    it('leaves other sessions of the same user alone', async () => {
      const other = new TestAgent(ctx.app);
      await other.login(cast.studentA.email, TEST_PASSWORD);
      await agent.login(cast.studentA.email, TEST_PASSWORD);
      expect((await agent.post('/api/logout/')).status).toBe(200);
      expect((await other.get('/api/user/')).status).toBe(200);
    });

    it('succeeds for an anonymous visitor', async () => {
      const response = await agent.post('/api/logout/');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, message: 'Logged out' });
    });
  });

  describe('POST /api/register/', () => {
    const valid = {
      institution_name: 'North University',
      name: 'Nora New',
      email: 'nora@north.edu',
      password: 'a-long-enough-passphrase',
      confirm_password: 'a-long-enough-passphrase',
    };

    async function expectRefused(payload: unknown, status: number, code: ErrorCode, message: string) {
      const before = await userCount(ctx);
      expectError(await agent.post('/api/register/', payload), status, code, message);
      expect(await userCount(ctx)).toBe(before);
    }

    const confirm = async (as: TestAgent, email: string) =>
      as.post('/api/verify/check/', { email, code: await latestCodeFor(ctx.db.kysely, email) });

    it('registers a student who can log in once the address is proven with the mailed code', async () => {
      const before = await userCount(ctx);
      const response = await agent.post('/api/register/', valid);
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ success: true, message: REGISTRATION_STARTED('nora@north.edu') });
      expect(cookie(response, SESSION_COOKIE)).toBeUndefined();
      // Attack 3: an unproven registration is not an account (its right password is told to confirm).
      expect(await userCount(ctx)).toBe(before);
      const early = await agent.post('/api/login/', { email: 'nora@north.edu', password: valid.password });
      expectError(early, 403, 'ADDRESS_UNCONFIRMED', ADDRESS_UNCONFIRMED_MESSAGE);
      expect(cookie(early, SESSION_COOKIE)).toBeUndefined();

      const check = await confirm(agent, 'nora@north.edu');
      expect(check.status).toBe(200);
      expect(check.body).toMatchObject({ success: true, account_ready: true });
      await agent.login('nora@north.edu', valid.password);
      expect((await agent.get('/api/user/')).body).toEqual({
        is_authenticated: true,
        is_superuser: false,
        is_institution_admin: false,
        email: 'nora@north.edu',
        name: 'Nora New',
        institution_name: 'North University',
        time_zone: 'UTC',
        language: 'en',
        role: 'student',
      });
    });

    it('stores the email in lower case and accepts the institution name in any case', async () => {
      const response = await agent.post('/api/register/', {
        ...valid,
        institution_name: 'north university',
        email: 'Nora.New@North.EDU',
      });
      expect(response.status).toBe(201);
      expect((await confirm(agent, 'nora.new@north.edu')).status).toBe(200);
      const row = await ctx.db.kysely
        .selectFrom('users')
        .select(['email', 'role', 'institution_id'])
        .where('name', '=', 'Nora New')
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ email: 'nora.new@north.edu', role: 'student', institution_id: cast.a.id });
      expect(
        (await agent.post('/api/login/', { email: 'NORA.new@north.edu', password: valid.password })).status,
      ).toBe(200);
    });

    it('answers a taken email exactly as a new one, and tells only the owner by mail', async () => {
      // Attack 4: registering an account's address used to answer 409 "already exists".
      const taken = await new TestAgent(ctx.app).post('/api/register/', {
        ...valid,
        email: 'Student@North.EDU',
      });
      const fresh = await new TestAgent(ctx.app).post('/api/register/', {
        ...valid,
        email: 'fresh@north.edu',
      });
      expect(taken.status).toBe(201);
      expect(fresh.status).toBe(201);
      expect(taken.body).toEqual({ success: true, message: REGISTRATION_STARTED('student@north.edu') });
      expect(fresh.body).toEqual({ success: true, message: REGISTRATION_STARTED('fresh@north.edu') });
      const mail = await ctx.db.kysely
        .selectFrom('mail_outbox')
        .select(['subject', 'body'])
        .where('to_address', '=', 'student@north.edu')
        .executeTakeFirstOrThrow();
      expect(mail.body).toContain('already has one');
      expect(mail.body).not.toMatch(/\d{6}/);
      // The owner's password still works; nothing else about the account changed.
      await new TestAgent(ctx.app).login(cast.studentA.email, TEST_PASSWORD);
    });

    it("never lets a stranger's earlier or later registration block the owner of the address", async () => {
      // Attack 3: a stranger who registered a student's address first used to lock the student out (409).
      const strangerBefore = new TestAgent(ctx.app);
      const owner = new TestAgent(ctx.app);
      const strangerAfter = new TestAgent(ctx.app);
      const as = (password: string) => ({ ...valid, password, confirm_password: password });
      expect((await strangerBefore.post('/api/register/', as('stranger-first-pass-1'))).status).toBe(201);
      expect((await owner.post('/api/register/', valid)).status).toBe(201);
      const ownerCode = await latestCodeFor(ctx.db.kysely, 'nora@north.edu');
      expect((await strangerAfter.post('/api/register/', as('stranger-later-pass-2'))).status).toBe(201);

      // A code proves the address only for the browser it was sent to.
      expect(
        (await strangerAfter.post('/api/verify/check/', { email: 'nora@north.edu', code: ownerCode })).status,
      ).toBe(400);
      const check = await owner.post('/api/verify/check/', { email: 'nora@north.edu', code: ownerCode });
      expect(check.body).toMatchObject({ account_ready: true });
      await owner.login('nora@north.edu', valid.password);
      for (const password of ['stranger-first-pass-1', 'stranger-later-pass-2']) {
        expectError(
          await new TestAgent(ctx.app).post('/api/login/', { email: 'nora@north.edu', password }),
          401,
          'UNAUTHENTICATED',
          INVALID_LOGIN,
        );
      }
      expect(await ctx.db.kysely.selectFrom('pending_registrations').selectAll().execute()).toEqual([]);
    });

    it('lets an unproven registration lapse after 24 hours', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        const before = await userCount(ctx);
        expect((await agent.post('/api/register/', valid)).status).toBe(201);
        vi.setSystemTime(Date.now() + 24 * HOUR + 60_000);
        const check = await proveAddress(agent, ctx.db.kysely, 'nora@north.edu');
        expect(check.body).toMatchObject({ account_ready: false });
        expect(await userCount(ctx)).toBe(before);
      } finally {
        vi.useRealTimers();
      }
    });

    it.each(['institution_name', 'name', 'email', 'password', 'confirm_password'] as const)(
      'requires %s',
      async (field) => {
        const { [field]: _omitted, ...rest } = valid;
        await expectRefused(rest, 400, 'VALIDATION_FAILED', REQUIRED);
        await expectRefused({ ...valid, [field]: '' }, 400, 'VALIDATION_FAILED', REQUIRED);
      },
    );

    it('treats blank names as missing', async () => {
      await expectRefused({ ...valid, name: '   ' }, 400, 'VALIDATION_FAILED', REQUIRED);
      await expectRefused({ ...valid, institution_name: ' \t ' }, 400, 'VALIDATION_FAILED', REQUIRED);
    });

    it('refuses passwords that do not match', async () => {
      await expectRefused(
        { ...valid, confirm_password: `${valid.password}!` },
        400,
        'BAD_REQUEST',
        'Passwords do not match',
      );
    });

    it("refuses an email outside the institution's domains", async () => {
      await expectRefused(
        { ...valid, email: 'nora@south.edu' },
        400,
        'BAD_REQUEST',
        'Use your North University email address (@north.edu)',
      );
      await expectRefused(
        { ...valid, email: 'nora@mail.north.edu' },
        400,
        'BAD_REQUEST',
        'Use your North University email address (@north.edu)',
      );
      await expectRefused(
        { ...valid, email: 'nora@gmail.com' },
        400,
        'BAD_REQUEST',
        'Use your North University email address (@north.edu)',
      );
    });

    it('refuses an invalid email address', async () => {
      await expectRefused(
        { ...valid, email: 'nora-at-north.edu' },
        400,
        'VALIDATION_FAILED',
        'Enter a valid email address',
      );
    });

    it('refuses an unknown institution', async () => {
      await expectRefused(
        { ...valid, institution_name: 'Nowhere Institute' },
        400,
        'BAD_REQUEST',
        'Institution not found. Choose your institution from the list.',
      );
    });

    it('refuses short, common and overlong passwords', async () => {
      const withPassword = (password: string) => ({ ...valid, password, confirm_password: password });
      await expectRefused(
        withPassword('short1!'),
        400,
        'BAD_REQUEST',
        'Password must be at least 8 characters',
      );
      await expectRefused(
        withPassword('password123'),
        400,
        'BAD_REQUEST',
        'This password is too easy to guess. This is a commonly used password. Add more words that are less common.',
      );
      await expectRefused(
        withPassword('x'.repeat(129)),
        400,
        'BAD_REQUEST',
        'Password must be at most 128 characters',
      );
    });

    it('refuses huge strings with 400', async () => {
      const huge = 'x'.repeat(20_000);
      await expectRefused(
        { ...valid, name: huge },
        400,
        'VALIDATION_FAILED',
        'Full name must be at most 200 characters',
      );
      await expectRefused(
        { ...valid, institution_name: huge },
        400,
        'VALIDATION_FAILED',
        'Institution name must be at most 200 characters',
      );
      await expectRefused(
        { ...valid, email: `${huge}@north.edu` },
        400,
        'VALIDATION_FAILED',
        'Email is too long',
      );
      await expectRefused(
        { ...valid, password: huge, confirm_password: huge },
        400,
        'VALIDATION_FAILED',
        'Password is too long',
      );
    });

    it('refuses values of the wrong type with 400', async () => {
      await expectRefused({ ...valid, name: 42 }, 400, 'VALIDATION_FAILED', REQUIRED);
      await expectRefused({ ...valid, email: ['nora@north.edu'] }, 400, 'VALIDATION_FAILED', REQUIRED);
      await expectRefused({ ...valid, password: { $ne: '' } }, 400, 'VALIDATION_FAILED', REQUIRED);
      await expectRefused({ ...valid, institution_name: null }, 400, 'VALIDATION_FAILED', REQUIRED);
      for (const payload of [[valid], 'just a string', 7]) {
        const before = await userCount(ctx);
        const response = await agent.request<{ success: boolean; message: string }>({
          method: 'POST',
          url: '/api/register/',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        expect(response.status).toBe(400);
        expect(response.body.success).toBe(false);
        expect(await userCount(ctx)).toBe(before);
      }
    });
  });

  describe('GET /api/institutions/', () => {
    it('lists every institution by name, to anyone', async () => {
      const response = await agent.get('/api/institutions/');
      expect(response.status).toBe(200);
      expect(response.body).toEqual([
        { id: cast.a.id, institution_name: 'North University' },
        { id: cast.b.id, institution_name: 'South College' },
      ]);
    });
  });
});
