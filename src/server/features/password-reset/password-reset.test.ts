import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, makeUser, TEST_PASSWORD } from '../../../../test/helpers/factories';
import { INVALID_LOGIN } from '../auth';
import { NO_PASSWORD } from '../sso';
import {
  PASSWORD_CHANGED,
  PASSWORD_RESET_LIFETIME,
  RESET_LINK_UNUSABLE,
  RESET_REQUESTED,
  RESETS_PER_ADDRESS_PER_HOUR,
  RESETS_PER_CLIENT_PER_HOUR,
} from './service';

const NEW_PASSWORD = 'amber-kettle-voyage-93';

describe.each(TEST_DIALECTS)('forgotten passwords on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await ctx.close();
  });

  const mailsTo = (email: string) =>
    ctx.db.kysely
      .selectFrom('mail_outbox')
      .select(['subject', 'body'])
      .where('to_address', '=', email)
      .orderBy('id')
      .execute();

  /** The token of the newest reset link mailed to the address, read as its owner would. */
  async function tokenMailedTo(email: string): Promise<string> {
    const mails = await mailsTo(email);
    const token = /\/reset-password\/([A-Za-z0-9_-]+)\//.exec(mails.at(-1)?.body ?? '')?.[1];
    if (!token) throw new Error(`no reset link was mailed to ${email}`);
    return token;
  }

  const ask = (email: string, agent = new TestAgent(ctx.app), remoteAddress?: string) =>
    agent.request<{ success: boolean; message: string }>({
      method: 'POST',
      url: '/api/password-reset/',
      payload: { email },
      ...(remoteAddress ? { remoteAddress } : {}),
    });

  const choose = (token: string, password = NEW_PASSWORD, agent = new TestAgent(ctx.app)) =>
    agent.post<{ success: boolean; message: string }>(`/api/password-reset/${token}/`, {
      password,
      confirm_password: password,
    });

  const signIn = (email: string, password: string) =>
    new TestAgent(ctx.app).post<{ user?: { second_factor?: string } }>('/api/login/', { email, password });

  it('mails a link that sets a new password once; the old password stops working', async () => {
    const asked = await ask(cast.studentA.email);
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ success: true, message: RESET_REQUESTED(cast.studentA.email) });
    const token = await tokenMailedTo(cast.studentA.email);
    const stored = await ctx.db.kysely.selectFrom('password_resets').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(token);

    const chosen = await choose(token);
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.body).toEqual({ success: true, message: PASSWORD_CHANGED });
    expectError(await signIn(cast.studentA.email, TEST_PASSWORD), 401, 'UNAUTHENTICATED', INVALID_LOGIN);
    expect((await signIn(cast.studentA.email, NEW_PASSWORD)).status).toBe(200);

    expectError(await choose(token, 'another-fine-passphrase-81'), 404, 'NOT_FOUND', RESET_LINK_UNUSABLE);
    expect((await signIn(cast.studentA.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses a link past its 30 minutes', async () => {
    await ask(cast.studentA.email);
    const token = await tokenMailedTo(cast.studentA.email);
    expect(PASSWORD_RESET_LIFETIME).toBe(30 * 60_000);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + PASSWORD_RESET_LIFETIME + 1);
    expectError(await choose(token), 404, 'NOT_FOUND', RESET_LINK_UNUSABLE);
    vi.useRealTimers();
    expect((await signIn(cast.studentA.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('ends every session of the account, and every other link of it stops working', async () => {
    const signedIn = new TestAgent(ctx.app);
    await signedIn.login(cast.studentA.email, TEST_PASSWORD);
    expect((await signedIn.get('/api/user/')).status).toBe(200);
    await ask(cast.studentA.email);
    const first = await tokenMailedTo(cast.studentA.email);
    await ask(cast.studentA.email);
    const second = await tokenMailedTo(cast.studentA.email);

    expect((await choose(second)).status).toBe(200);
    expect((await signedIn.get('/api/user/')).status).toBe(401);
    expectError(await choose(first, 'another-fine-passphrase-81'), 404, 'NOT_FOUND', RESET_LINK_UNUSABLE);
  });

  it('keeps asking staff for their second factor after the reset', async () => {
    const admin = new TestAgent(ctx.app);
    await admin.login(cast.adminA.email, TEST_PASSWORD); // sets up the authenticator app
    await ask(cast.adminA.email);
    expect((await choose(await tokenMailedTo(cast.adminA.email))).status).toBe(200);

    const after = await signIn(cast.adminA.email, NEW_PASSWORD);
    expect(after.status).toBe(200);
    expect(after.body.user?.second_factor).toBe('verify');
    const factors = await ctx.db.kysely.selectFrom('totp_credentials').select('user_id').execute();
    expect(factors.map((row) => row.user_id)).toContain(cast.adminA.id);
  });

  it('forgets the failed sign-ins counted against the account', async () => {
    const stranger = '203.0.113.9';
    for (let i = 0; i < 6; i++)
      await new TestAgent(ctx.app).request({
        method: 'POST',
        url: '/api/login/',
        payload: { email: cast.studentA.email, password: 'wrong-guess' },
        remoteAddress: stranger,
      });
    const locked = await new TestAgent(ctx.app).request({
      method: 'POST',
      url: '/api/login/',
      payload: { email: cast.studentA.email, password: TEST_PASSWORD },
      remoteAddress: stranger,
    });
    expect(locked.status).toBe(429);
    await ask(cast.studentA.email);
    expect((await choose(await tokenMailedTo(cast.studentA.email))).status).toBe(200);
    const after = await new TestAgent(ctx.app).request({
      method: 'POST',
      url: '/api/login/',
      payload: { email: cast.studentA.email, password: NEW_PASSWORD },
      remoteAddress: stranger,
    });
    expect(after.status).toBe(200);
  });

  it('answers alike for unknown, student, staff and single-sign-on addresses', async () => {
    const sso = await makeUser(ctx.db.kysely, { email: 'sso@north.edu', institutionId: cast.a.id });
    await ctx.db.kysely
      .updateTable('users')
      .set({ password_hash: NO_PASSWORD })
      .where('id', '=', sso.id)
      .execute();
    const addresses = [
      'nobody@north.edu',
      'nobody@nowhere.example',
      cast.studentA.email,
      cast.adminA.email,
      sso.email,
    ];
    for (const email of addresses) {
      const answer = await ask(email);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ success: true, message: RESET_REQUESTED(email) });
    }
    expect(await mailsTo('nobody@north.edu')).toEqual([]);
    expect(await mailsTo('nobody@nowhere.example')).toEqual([]);
    expect((await tokenMailedTo(cast.adminA.email)).length).toBeGreaterThan(20);
    // An account made by single sign-on has no password to reset: told how to sign in, no link.
    const ssoMails = await mailsTo(sso.email);
    expect(ssoMails).toHaveLength(1);
    expect(ssoMails[0]?.body).toContain('Sign in with North University');
    expect(ssoMails[0]?.body).not.toContain('/reset-password/');
  });

  it('sends nothing past the limit per address, and answers the same', async () => {
    for (let i = 0; i < RESETS_PER_ADDRESS_PER_HOUR + 2; i++) {
      const answer = await ask(cast.studentA.email, new TestAgent(ctx.app), `198.51.100.${i + 1}`);
      expect(answer.body).toEqual({ success: true, message: RESET_REQUESTED(cast.studentA.email) });
    }
    expect(await mailsTo(cast.studentA.email)).toHaveLength(RESETS_PER_ADDRESS_PER_HOUR);
  });

  it('sends nothing past the limit per client address, and answers the same', async () => {
    const from = '198.51.100.77';
    for (let i = 0; i < RESETS_PER_CLIENT_PER_HOUR; i++) await ask(`nobody${i}@north.edu`, undefined, from);
    const answer = await ask(cast.studentA.email, undefined, from);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, message: RESET_REQUESTED(cast.studentA.email) });
    expect(await mailsTo(cast.studentA.email)).toEqual([]);
    expect((await ask(cast.studentA.email, undefined, '198.51.100.78')).status).toBe(200);
    expect(await mailsTo(cast.studentA.email)).toHaveLength(1);
  });

  it('holds a new password to the password rules and the link stays usable', async () => {
    await ask(cast.studentA.email);
    const token = await tokenMailedTo(cast.studentA.email);
    const weak = await choose(token, 'password');
    expect(weak.status).toBe(400);
    expect((await choose(token)).status).toBe(200);
  });

  it('records the request and the use in the audit log, never the token', async () => {
    await ask(cast.studentA.email, undefined, '192.0.2.5');
    const token = await tokenMailedTo(cast.studentA.email);
    await choose(token);
    const rows = await ctx.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id', 'detail', 'address', 'institution_id'])
      .where('action', 'like', 'auth.password_reset%')
      .orderBy('id')
      .execute();
    expect(rows.map((row) => [row.action, row.actor_user_id, row.institution_id])).toEqual([
      ['auth.password_reset_request', cast.studentA.id, cast.a.id],
      ['auth.password_reset', cast.studentA.id, cast.a.id],
    ]);
    expect(rows[0]?.address).toBe('192.0.2.5');
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});
