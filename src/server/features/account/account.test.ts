import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, TEST_PASSWORD } from '../../../../test/helpers/factories';
import { SIGN_IN_CHANGE_SUBJECT } from '../../../common/schemas/second-factor';
import { verifyPassword } from '../../lib/passwords';
import { STEP_UP_REQUIRED_MESSAGE, STEP_UP_WINDOW } from '../../lib/step-up';
import {
  PASSWORD_CHANGE_FAILURES_ALLOWED,
  PASSWORD_CHANGED,
  PASSWORDS_DIFFER,
  TOO_MANY_PASSWORD_TRIES,
  WRONG_CURRENT_PASSWORD,
} from './service';

const START = 1_800_000_015_000;
const NEW_PASSWORD = 'a-fresh-and-sturdy-passphrase';

type Cast = Awaited<ReturnType<typeof makeTwoInstitutions>>;

describe.each(TEST_DIALECTS)("a signed-in user's own account, on %s", (dialect) => {
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

  async function signedIn(email: string) {
    const agent = new TestAgent(ctx.app);
    await agent.login(email, TEST_PASSWORD);
    return agent;
  }

  const storedHash = async (userId: number) =>
    (
      await ctx.db.kysely
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).password_hash;

  const auditOf = async (userId: number, action: string) =>
    ctx.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'subject_id', 'detail', 'institution_id'])
      .where('actor_user_id', '=', userId)
      .where('action', '=', action)
      .execute();

  const change = (agent: TestAgent, current: string, next = NEW_PASSWORD, confirm = next) =>
    agent.post('/api/account/password/', {
      current_password: current,
      new_password: next,
      confirm_password: confirm,
    });

  it('changes a student password with the current one, signs out the other sessions, keeps this one, and audits it', async () => {
    const here = await signedIn(cast.studentA.email);
    const elsewhere = await signedIn(cast.studentA.email);
    const otherStudent = await signedIn(cast.studentB.email);

    const changed = await change(here, TEST_PASSWORD);
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ success: true, message: PASSWORD_CHANGED, ended: 1 });
    expect(await verifyPassword(await storedHash(cast.studentA.id), NEW_PASSWORD)).toBe(true);

    expect((await here.get('/api/user/')).status).toBe(200);
    expect((await elsewhere.get('/api/user/')).status).toBe(401);
    expect((await otherStudent.get('/api/user/')).status).toBe(200);
    expect(await auditOf(cast.studentA.id, 'account.password_change')).toEqual([
      {
        action: 'account.password_change',
        subject_id: String(cast.studentA.id),
        detail: JSON.stringify({ sessions_ended: 1 }),
        institution_id: cast.a.id,
      },
    ]);
    const mail = await ctx.db.kysely
      .selectFrom('mail_outbox')
      .select('subject')
      .where('to_address', '=', cast.studentA.email)
      .execute();
    expect(mail.map((row) => row.subject)).toContainEqual(expect.stringContaining('password was changed'));
    // The new password signs in; the old one no longer does.
    expect(
      (
        await new TestAgent(ctx.app).post('/api/login/', {
          email: cast.studentA.email,
          password: TEST_PASSWORD,
        })
      ).status,
    ).toBe(401);
    await new TestAgent(ctx.app).login(cast.studentA.email, NEW_PASSWORD);
  });

  it('refuses a wrong current password, counts it per account, and makes the account wait after five', async () => {
    const agent = await signedIn(cast.studentA.email);
    const before = await storedHash(cast.studentA.id);
    for (let attempt = 0; attempt < PASSWORD_CHANGE_FAILURES_ALLOWED; attempt += 1)
      expectError(await change(agent, 'not-the-password'), 400, 'BAD_REQUEST', WRONG_CURRENT_PASSWORD);
    expect(await auditOf(cast.studentA.id, 'account.password_change_fail')).toHaveLength(
      PASSWORD_CHANGE_FAILURES_ALLOWED,
    );
    // Past the limit even the right password waits: guessing cannot go on.
    expectError(await change(agent, TEST_PASSWORD), 429, 'TOO_MANY_REQUESTS', TOO_MANY_PASSWORD_TRIES);
    expect(await auditOf(cast.studentA.id, 'auth.lockout')).toHaveLength(1);
    expect(await storedHash(cast.studentA.id)).toBe(before);

    // Another account is not held up by it.
    expect((await change(await signedIn(cast.studentB.email), TEST_PASSWORD)).status).toBe(200);
  });

  it('refuses mismatched and weak new passwords with a message, and changes nothing', async () => {
    const agent = await signedIn(cast.studentA.email);
    const before = await storedHash(cast.studentA.id);
    expectError(
      await change(agent, TEST_PASSWORD, NEW_PASSWORD, 'something-else'),
      400,
      'BAD_REQUEST',
      PASSWORDS_DIFFER,
    );
    const weak = await change(agent, TEST_PASSWORD, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('at least') });
    expect(await storedHash(cast.studentA.id)).toBe(before);
  });

  it('asks staff for a fresh second factor before their password changes', async () => {
    const agent = await signedIn(cast.adminA.email);
    // Just signed in with the second factor: fresh.
    expect((await change(agent, TEST_PASSWORD)).status).toBe(200);
    vi.setSystemTime(Date.now() + STEP_UP_WINDOW + 1_000);
    expectError(
      await change(agent, NEW_PASSWORD, 'yet-another-sturdy-passphrase'),
      403,
      'STEP_UP_REQUIRED',
      STEP_UP_REQUIRED_MESSAGE,
    );
    expect(await verifyPassword(await storedHash(cast.adminA.id), NEW_PASSWORD)).toBe(true);
    expect(await auditOf(cast.adminA.id, 'account.password_change')).toHaveLength(1);
  });

  it("states when a password changed on the institution's clock, naming it, to students and staff alike", async () => {
    const zone = (id: number, timeZone: string) =>
      ctx.db.kysely.updateTable('institutions').set({ time_zone: timeZone }).where('id', '=', id).execute();
    await zone(cast.a.id, 'America/New_York');
    await zone(cast.b.id, 'Asia/Tokyo');
    const mailTo = async (email: string) =>
      (
        await ctx.db.kysely
          .selectFrom('mail_outbox')
          .select('body')
          .where('to_address', '=', email)
          .where('subject', 'like', '%password%')
          .executeTakeFirstOrThrow()
      ).body;
    const staffMailTo = async (email: string) =>
      (
        await ctx.db.kysely
          .selectFrom('mail_outbox')
          .select('body')
          .where('to_address', '=', email)
          .where('subject', '=', SIGN_IN_CHANGE_SUBJECT)
          .executeTakeFirstOrThrow()
      ).body;
    for (const email of [cast.studentA.email, cast.studentB.email, cast.adminA.email])
      expect((await change(await signedIn(email), TEST_PASSWORD)).status).toBe(200);

    // 08:00 UTC on 15 January 2027: three in the morning in New York, five in the afternoon in Tokyo.
    expect(await mailTo(cast.studentA.email)).toContain(
      'changed on Fri 15 Jan 2027, 03:00 (America/New_York) from',
    );
    expect(await mailTo(cast.studentB.email)).toContain(
      'changed on Fri 15 Jan 2027, 17:00 (Asia/Tokyo) from',
    );
    expect(await staffMailTo(cast.adminA.email)).toContain(
      `by ${cast.adminA.email}, on Fri 15 Jan 2027, 03:00 (America/New_York) from`,
    );
    for (const email of [cast.studentA.email, cast.studentB.email])
      expect(await mailTo(email)).not.toContain('UTC');
  });

  it('lists the open sessions and signs out the others, audited', async () => {
    const here = await signedIn(cast.studentA.email);
    const elsewhere = await signedIn(cast.studentA.email);
    await signedIn(cast.studentB.email);

    const listed = await here.get<{ sessions: { current: boolean }[] }>('/api/account/sessions/');
    expect(listed.status).toBe(200);
    expect(listed.body.sessions.map((row) => row.current).sort()).toEqual([false, true]);

    const ended = await here.post('/api/account/sessions/sign-out-others/');
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ success: true, ended: 1 });
    expect((await elsewhere.get('/api/user/')).status).toBe(401);
    expect((await here.get('/api/user/')).status).toBe(200);
    expect(await auditOf(cast.studentA.id, 'account.sessions_end')).toEqual([
      expect.objectContaining({ detail: JSON.stringify({ ended: 1 }) }),
    ]);
    expect((await here.get<{ sessions: unknown[] }>('/api/account/sessions/')).body.sessions).toHaveLength(1);
  });

  it('answers 401 to a visitor before reading the body', async () => {
    const visitor = new TestAgent(ctx.app);
    expectError(
      await visitor.post('/api/account/password/', {}),
      401,
      'UNAUTHENTICATED',
      'Authentication required',
    );
    expect((await visitor.get('/api/account/sessions/')).status).toBe(401);
  });
});
