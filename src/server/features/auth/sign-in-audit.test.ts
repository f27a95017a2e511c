import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createTestApp,
  enrolAuthenticatorApp,
  TestAgent,
  type TestContext,
} from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { makeTwoInstitutions, TEST_PASSWORD } from '../../../../test/helpers/factories';

const START = 1_800_000_015_000;

describe.each(TEST_DIALECTS)('sign-ins in the audit log on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;

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

  const authEntries = async () =>
    (
      await ctx.db.kysely
        .selectFrom('audit_log')
        .select([
          'institution_id',
          'actor_user_id',
          'actor_email',
          'action',
          'subject_id',
          'detail',
          'address',
        ])
        .where('action', 'like', 'auth.%')
        .orderBy('id')
        .execute()
    ).map((row) => ({ ...row, detail: row.detail === null ? null : JSON.parse(row.detail) }));

  const login = (email: string, password: string) =>
    new TestAgent(ctx.app).request({
      method: 'POST',
      url: '/api/login/',
      payload: { email, password },
      remoteAddress: '198.51.100.7',
    });

  it('records refusals against the account, and for an unknown account only its domain, with the same answer', async () => {
    const wrong = await login(cast.adminA.email, 'not-the-password');
    const unknown = await login('nobody@north.edu', 'not-the-password');
    const elsewhere = await login('nobody@elsewhere.example', 'not-the-password');
    expect(wrong.status).toBe(401);
    // No oracle: an account that does not exist is refused exactly as a wrong password is.
    expect(unknown.body).toEqual(wrong.body);
    expect(elsewhere.body).toEqual(wrong.body);

    expect(await authEntries()).toEqual([
      {
        institution_id: cast.a.id,
        actor_user_id: cast.adminA.id,
        actor_email: cast.adminA.email,
        action: 'auth.sign_in_fail',
        subject_id: String(cast.adminA.id),
        detail: { method: 'password', reason: 'unauthenticated' },
        address: '198.51.100.7',
      },
      {
        institution_id: cast.a.id,
        actor_user_id: null,
        actor_email: null,
        action: 'auth.sign_in_fail',
        subject_id: null,
        detail: { method: 'password', account: 'unknown', email_domain: 'north.edu' },
        address: '198.51.100.7',
      },
    ]);
    expect(JSON.stringify(await authEntries())).not.toContain('not-the-password');
  });

  it('records a lockout once the account waits', async () => {
    const allowed = ctx.app.config.limits.login.failuresPerAccount;
    for (let attempt = 0; attempt < allowed; attempt += 1)
      expect((await login(cast.adminA.email, 'not-the-password')).status).toBe(401);
    expect((await login(cast.adminA.email, TEST_PASSWORD)).status).toBe(429);
    const entries = await authEntries();
    expect(entries.map((entry) => entry.action)).toEqual([
      ...Array.from({ length: allowed }, () => 'auth.sign_in_fail'),
      'auth.lockout',
    ]);
    expect(entries.at(-1)).toMatchObject({ actor_user_id: cast.adminA.id, detail: { method: 'password' } });
  });

  it('records a sign-in, its second factor and the use of a recovery code, never the code', async () => {
    const enrolling = new TestAgent(ctx.app);
    await enrolling.post('/api/login/', { email: cast.adminA.email, password: TEST_PASSWORD });
    await enrolAuthenticatorApp(enrolling, cast.adminA.email);
    const codes = (await enrolling.post<{ recovery_codes: string[] }>('/api/second-factor/recovery-codes/'))
      .body.recovery_codes;
    const agent = new TestAgent(ctx.app);
    await agent.post('/api/login/', { email: cast.adminA.email, password: TEST_PASSWORD });
    expect((await agent.post('/api/second-factor/verify/', { code: 'wrong-code' })).status).toBe(400);
    expect((await agent.post('/api/second-factor/verify/', { code: codes[0] })).status).toBe(200);

    const entries = await authEntries();
    expect(entries.map((entry) => [entry.action, entry.detail])).toEqual([
      ['auth.sign_in', { method: 'password' }],
      ['auth.sign_in', { method: 'password' }],
      ['auth.second_factor_fail', { method: 'recovery_code' }],
      ['auth.second_factor', { method: 'recovery_code' }],
      ['auth.recovery_code_use', { left: 9 }],
    ]);
    expect(entries.every((entry) => entry.actor_user_id === cast.adminA.id && entry.address)).toBe(true);
    expect(JSON.stringify(entries)).not.toContain(codes[0]);
  });
});
