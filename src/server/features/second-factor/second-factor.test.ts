import { generate } from 'otplib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createTestApp,
  enrolAuthenticatorApp,
  TestAgent,
  type TestContext,
} from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, makeUser, TEST_PASSWORD } from '../../../../test/helpers/factories';
import { SECOND_FACTOR_REQUIRED_MESSAGE } from '../../lib/guards';
import { SESSION_COOKIE } from '../../lib/sessions';
import {
  ALREADY_SET_UP,
  CANNOT_RESET_OWN,
  CODE_FAILURES_ALLOWED,
  STAFF_NOT_FOUND,
  STAFF_ONLY,
  TOO_MANY_CODES,
  WRONG_CODE,
  WRONG_SETUP_CODE,
} from './service';

/** Half-way through a 30-second step, so one step either side is a whole step away. */
const START = 1_800_000_015_000;
const STEP = 30_000;

type Cast = Awaited<ReturnType<typeof makeTwoInstitutions>>;

describe.each(TEST_DIALECTS)('second factor for staff on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Cast;

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START);
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await ctx.close();
  });

  /** Signs in with the password alone, as the login form does, and returns the agent. */
  async function passwordOnly(email: string, expectedStep: 'enrol' | 'verify') {
    const agent = new TestAgent(ctx.app);
    const response = await agent.post<{ user: { second_factor?: string } }>('/api/login/', {
      email,
      password: TEST_PASSWORD,
    });
    expect(response.status).toBe(200);
    expect(response.body.user.second_factor).toBe(expectedStep);
    return agent;
  }

  const codeAt = (secret: string, at: number) => generate({ secret, epoch: Math.floor(at / 1000) });

  it('refuses every staff call to an admin signed in with a password alone, and says what to do', async () => {
    const agent = await passwordOnly(cast.adminA.email, 'enrol');
    for (const url of ['/api/dashboard/', '/api/survey-templates/', '/api/get-user-survey-questions/']) {
      expectError(await agent.get(url), 403, 'SECOND_FACTOR_REQUIRED', SECOND_FACTOR_REQUIRED_MESSAGE.enrol, {
        second_factor: 'enrol',
      });
    }
    const user = await agent.get<{ second_factor?: string; email: string }>('/api/user/');
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({ email: cast.adminA.email, second_factor: 'enrol' });
    expect((await agent.post('/api/logout/')).status).toBe(200);
  });

  it('sets up an authenticator app with a QR code, keeps its secret sealed, and completes the sign-in', async () => {
    const agent = await passwordOnly(cast.adminA.email, 'enrol');
    const setup = await agent.post<{ secret: string; otpauth_uri: string; qr_code: string }>(
      '/api/second-factor/totp/setup/',
    );
    expect(setup.status).toBe(200);
    const { secret } = setup.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Wellspring%20Health:admin%40north\.edu\?/);
    expect(setup.body.otpauth_uri).toContain(`secret=${secret}`);
    const svg = Buffer.from(
      setup.body.qr_code.replace('data:image/svg+xml;base64,', ''),
      'base64',
    ).toString();
    expect(svg).toMatch(/^<svg[^>]*>/);
    const stored = await ctx.db.kysely.selectFrom('totp_credentials').selectAll().executeTakeFirstOrThrow();
    expect(stored.secret_sealed).not.toContain(secret);
    expect(stored.confirmed_at).toBeNull();

    expectError(
      await agent.post('/api/second-factor/totp/confirm/', { code: await codeAt(secret, START + 2 * STEP) }),
      400,
      'BAD_REQUEST',
      WRONG_SETUP_CODE,
    );
    const oldSession = agent.jar.get(SESSION_COOKIE);
    const confirm = await agent.post<{ recovery_codes: string[]; user: Record<string, unknown> }>(
      '/api/second-factor/totp/confirm/',
      { code: await codeAt(secret, START) },
    );
    expect(confirm.status).toBe(200);
    expect(confirm.body.user).not.toHaveProperty('second_factor');
    expect(new Set(confirm.body.recovery_codes).size).toBe(10);
    for (const code of confirm.body.recovery_codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const hashes = await ctx.db.kysely.selectFrom('recovery_codes').select('code_hash').execute();
    expect(hashes).toHaveLength(10);
    for (const { code_hash } of hashes) expect(confirm.body.recovery_codes.join()).not.toContain(code_hash);

    // A new session id once the second factor is proven; the old one is worth nothing.
    expect(agent.jar.get(SESSION_COOKIE)).not.toBe(oldSession);
    expect((await agent.get('/api/dashboard/')).status).toBe(200);
    const stale = new TestAgent(ctx.app);
    stale.jar.set(SESSION_COOKIE, oldSession as string);
    expect((await stale.get('/api/user/')).status).toBe(401);

    // Set up once; a lost app is reset by another admin.
    expectError(await agent.post('/api/second-factor/totp/setup/'), 409, 'CONFLICT', ALREADY_SET_UP);
    const status = await agent.get('/api/second-factor/');
    expect(status.body).toEqual({ success: true, totp: true, recovery_codes_left: 10 });
  });

  it('accepts a code one step either side of the clock, never two, and never the same code twice', async () => {
    const enrolling = await passwordOnly(cast.adminA.email, 'enrol');
    const { secret } = await enrolAuthenticatorApp(enrolling, cast.adminA.email);
    // Enrolment used the current step: later sign-ins need newer codes.
    vi.setSystemTime(START + 10 * STEP);
    const now = START + 10 * STEP;

    const first = await passwordOnly(cast.adminA.email, 'verify');
    expectError(
      await first.post('/api/second-factor/verify/', { code: await codeAt(secret, now - 2 * STEP) }),
      400,
      'BAD_REQUEST',
      WRONG_CODE,
    );
    const behind = await codeAt(secret, now - STEP);
    expect((await first.post('/api/second-factor/verify/', { code: behind })).status).toBe(200);
    expect((await first.get('/api/dashboard/')).status).toBe(200);

    const second = await passwordOnly(cast.adminA.email, 'verify');
    expectError(
      await second.post('/api/second-factor/verify/', { code: behind }),
      400,
      'BAD_REQUEST',
      WRONG_CODE,
    );
    expect(
      (await second.post('/api/second-factor/verify/', { code: await codeAt(secret, now) })).status,
    ).toBe(200);

    const third = await passwordOnly(cast.adminA.email, 'verify');
    expectError(
      await third.post('/api/second-factor/verify/', { code: await codeAt(secret, now + 2 * STEP) }),
      400,
      'BAD_REQUEST',
      WRONG_CODE,
    );
    expect(
      (await third.post('/api/second-factor/verify/', { code: await codeAt(secret, now + STEP) })).status,
    ).toBe(200);
    // The step ahead is spent: the current step's code, older than it, no longer works either.
    const fourth = await passwordOnly(cast.adminA.email, 'verify');
    expectError(
      await fourth.post('/api/second-factor/verify/', { code: await codeAt(secret, now) }),
      400,
      'BAD_REQUEST',
      WRONG_CODE,
    );
    vi.setSystemTime(now + 2 * STEP);
    expect(
      (await fourth.post('/api/second-factor/verify/', { code: await codeAt(secret, now + 2 * STEP) }))
        .status,
    ).toBe(200);
  });

  it('spends each recovery code once, however it is typed', async () => {
    const enrolling = await passwordOnly(cast.adminA.email, 'enrol');
    await enrolling.post('/api/second-factor/totp/setup/');
    const setup = await ctx.db.kysely
      .selectFrom('totp_credentials')
      .select('user_id')
      .executeTakeFirstOrThrow();
    expect(setup.user_id).toBe(cast.adminA.id);
    const { secret } = (await enrolling.post<{ secret: string }>('/api/second-factor/totp/setup/')).body;
    const codes = (
      await enrolling.post<{ recovery_codes: string[] }>('/api/second-factor/totp/confirm/', {
        code: await codeAt(secret, START),
      })
    ).body.recovery_codes;
    const [one = '', two = ''] = codes;

    const first = await passwordOnly(cast.adminA.email, 'verify');
    expect((await first.post('/api/second-factor/verify/', { code: one })).status).toBe(200);
    const again = await passwordOnly(cast.adminA.email, 'verify');
    expectError(
      await again.post('/api/second-factor/verify/', { code: one }),
      400,
      'BAD_REQUEST',
      WRONG_CODE,
    );
    expect(
      (await again.post('/api/second-factor/verify/', { code: ` ${two.toUpperCase().replace('-', ' ')} ` }))
        .status,
    ).toBe(200);
    expect((await again.get('/api/second-factor/')).body).toMatchObject({ recovery_codes_left: 8 });

    // New codes replace every old one, used or not.
    const fresh = await again.post<{ recovery_codes: string[] }>('/api/second-factor/recovery-codes/');
    expect(fresh.status).toBe(200);
    const later = await passwordOnly(cast.adminA.email, 'verify');
    expectError(
      await later.post('/api/second-factor/verify/', { code: codes[2] }),
      400,
      'BAD_REQUEST',
      WRONG_CODE,
    );
    expect(
      (await later.post('/api/second-factor/verify/', { code: fresh.body.recovery_codes[0] })).status,
    ).toBe(200);
  });

  it('makes the account wait after five wrong codes, even for the right one', async () => {
    const enrolling = await passwordOnly(cast.adminA.email, 'enrol');
    const { secret } = await enrolAuthenticatorApp(enrolling, cast.adminA.email);
    vi.setSystemTime(START + 4 * STEP);
    const agent = await passwordOnly(cast.adminA.email, 'verify');
    for (let attempt = 0; attempt < CODE_FAILURES_ALLOWED; attempt += 1) {
      expect((await agent.post('/api/second-factor/verify/', { code: '000000' })).status).toBe(400);
    }
    expectError(
      await agent.post('/api/second-factor/verify/', { code: await codeAt(secret, START + 4 * STEP) }),
      429,
      'TOO_MANY_REQUESTS',
      TOO_MANY_CODES,
    );
    expect((await agent.get('/api/dashboard/')).status).toBe(403);
  });

  it('is for staff: students sign in with a password and cannot set one up', async () => {
    const student = new TestAgent(ctx.app);
    const login = await student.login(cast.studentA.email, TEST_PASSWORD);
    expect(login.body).not.toHaveProperty('user.second_factor');
    expect((await student.get('/api/get-user-survey-questions/')).status).toBe(200);
    expectError(await student.post('/api/second-factor/totp/setup/'), 403, 'FORBIDDEN', STAFF_ONLY);
    expectError(await student.get('/api/second-factor/'), 403, 'FORBIDDEN', STAFF_ONLY);
    expectError(
      await new TestAgent(ctx.app).post('/api/second-factor/verify/', { code: '123456' }),
      401,
      'UNAUTHENTICATED',
      'Authentication required',
    );
  });

  it('lets another admin of the institution reset a lost second factor, signing the owner out', async () => {
    const colleague = await makeUser(ctx.db.kysely, {
      email: 'colleague@north.edu',
      role: 'institution_admin',
      institutionId: cast.a.id,
    });
    const owner = new TestAgent(ctx.app);
    await owner.login(cast.adminA.email, TEST_PASSWORD);
    expect((await owner.get('/api/dashboard/')).status).toBe(200);
    const other = new TestAgent(ctx.app);
    await other.login(colleague.email, TEST_PASSWORD);

    expectError(
      await other.post(`/api/staff/${colleague.id}/second-factor/reset/`),
      400,
      'BAD_REQUEST',
      CANNOT_RESET_OWN,
    );
    for (const stranger of [cast.adminB.id, cast.studentA.id, 999_999]) {
      expectError(
        await other.post(`/api/staff/${stranger}/second-factor/reset/`),
        404,
        'NOT_FOUND',
        STAFF_NOT_FOUND,
      );
    }
    const southAdmin = new TestAgent(ctx.app);
    await southAdmin.login(cast.adminB.email, TEST_PASSWORD);
    expectError(
      await southAdmin.post(`/api/staff/${cast.adminA.id}/second-factor/reset/`),
      404,
      'NOT_FOUND',
      STAFF_NOT_FOUND,
    );
    expect(await ctx.db.kysely.selectFrom('totp_credentials').select('user_id').execute()).toHaveLength(3);

    const reset = await other.post(`/api/staff/${cast.adminA.id}/second-factor/reset/`);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ success: true, message: expect.stringContaining(cast.adminA.email) });
    expect((await owner.get('/api/user/')).status).toBe(401);
    const rows = await ctx.db.kysely
      .selectFrom('recovery_codes')
      .select('id')
      .where('user_id', '=', cast.adminA.id)
      .execute();
    expect(rows).toHaveLength(0);
    const audit = await ctx.db.kysely
      .selectFrom('audit_log')
      .select(['actor_user_id', 'subject_id', 'institution_id'])
      .where('action', '=', 'staff.second_factor_reset')
      .execute();
    expect(audit).toEqual([
      { actor_user_id: colleague.id, subject_id: String(cast.adminA.id), institution_id: cast.a.id },
    ]);
    // The owner sets up a new app at their next sign-in.
    await passwordOnly(cast.adminA.email, 'enrol');
  });
});
