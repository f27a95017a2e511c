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
import { passedConnectionTest } from '../../../../test/helpers/sso';
import { SIGN_IN_CHANGE_SUBJECT } from '../../../common/schemas/second-factor';
import { STEP_UP_REQUIRED_MESSAGE, STEP_UP_WINDOW } from '../../lib/step-up';
import { MINUTE } from '../../lib/time';
import { PASSKEY_NOT_FOUND } from '../passkeys';
import { WRONG_CODE } from './service';

/** Half-way through a 30-second step, so one step either side is a whole step away. */
const START = 1_800_000_015_000;

type Cast = Awaited<ReturnType<typeof makeTwoInstitutions>>;

describe.each(TEST_DIALECTS)('a fresh second factor for changing how staff sign in, on %s', (dialect) => {
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

  const codeAt = (secret: string, at: number) => generate({ secret, epoch: Math.floor(at / 1000) });

  /** Signs in with a password and sets up the app: a complete sign-in that proved a factor now. */
  async function signedInWithApp(email: string) {
    const agent = new TestAgent(ctx.app);
    const login = await agent.post<{ user: { second_factor?: string } }>('/api/login/', {
      email,
      password: TEST_PASSWORD,
    });
    expect(login.body.user.second_factor).toBe('enrol');
    const { secret } = await enrolAuthenticatorApp(agent, email);
    return { agent, secret };
  }

  /** Past the window: the sign-in's proof of the factor is no longer fresh. */
  const later = (minutes = 0) => vi.setSystemTime(Date.now() + STEP_UP_WINDOW + minutes * MINUTE + 1_000);

  const mailsTo = async (email: string) =>
    ctx.db.kysely
      .selectFrom('mail_outbox')
      .select(['subject', 'body'])
      .where('to_address', '=', email)
      .where('subject', '=', SIGN_IN_CHANGE_SUBJECT)
      .orderBy('id')
      .execute();

  const auditOf = async (userId: number, prefix: string) =>
    (
      await ctx.db.kysely
        .selectFrom('audit_log')
        .select(['action', 'detail', 'address', 'subject_id'])
        .where('actor_user_id', '=', userId)
        .where('action', 'like', `${prefix}%`)
        .orderBy('id')
        .execute()
    ).map((row) => ({ ...row, detail: row.detail === null ? null : JSON.parse(row.detail) }));

  it('replaces recovery codes only with a factor proven in the last five minutes, proven again by an app or a recovery code', async () => {
    const { agent, secret } = await signedInWithApp(cast.adminA.email);
    expect((await agent.post('/api/second-factor/recovery-codes/')).status).toBe(200);

    later();
    expectError(
      await agent.post('/api/second-factor/recovery-codes/'),
      403,
      'STEP_UP_REQUIRED',
      STEP_UP_REQUIRED_MESSAGE,
    );
    expectError(
      await agent.post('/api/second-factor/step-up/', { code: '000000' }),
      400,
      'BAD_REQUEST',
      WRONG_CODE,
    );
    const stepped = await agent.post('/api/second-factor/step-up/', {
      code: await codeAt(secret, Date.now()),
    });
    expect(stepped.status, stepped.text).toBe(200);
    const fresh = await agent.post<{ recovery_codes: string[] }>('/api/second-factor/recovery-codes/');
    expect(fresh.status).toBe(200);

    later();
    expect((await agent.post('/api/second-factor/recovery-codes/')).status).toBe(403);
    const [recovery = ''] = fresh.body.recovery_codes;
    expect((await agent.post('/api/second-factor/step-up/', { code: recovery })).status).toBe(200);
    expect((await agent.post('/api/second-factor/recovery-codes/')).status).toBe(200);

    // The app's set-up and each replacement are told to the owner, with where they came from.
    const mails = await mailsTo(cast.adminA.email);
    expect(mails).toHaveLength(4);
    expect(mails[0]?.body).toContain('An authenticator app was set up');
    expect(mails[3]?.body).toMatch(
      /recovery codes of your staff account were replaced[\s\S]*from the address/,
    );
    expect((await auditOf(cast.adminA.id, 'staff.')).map((row) => row.action)).toEqual([
      'staff.app_enrol',
      'staff.recovery_codes_replace',
      'staff.recovery_codes_replace',
      'staff.recovery_codes_replace',
    ]);
    const proofs = await auditOf(cast.adminA.id, 'auth.step_up');
    expect(proofs.map((row) => [row.action, row.detail])).toEqual([
      ['auth.step_up_fail', { method: 'app' }],
      ['auth.step_up', { method: 'app' }],
      ['auth.step_up', { method: 'recovery_code' }],
    ]);
    expect(await auditOf(cast.adminA.id, 'auth.recovery_code_use')).toMatchObject([{ detail: { left: 9 } }]);
    // Never a code in the log.
    const everything = JSON.stringify(await auditOf(cast.adminA.id, ''));
    expect(everything).not.toContain(recovery);
  });

  it("lists the owner's passkeys by name and dates, and removes one only with a fresh factor", async () => {
    const { agent, secret } = await signedInWithApp(cast.adminA.email);
    const passkey = (userId: number, name: string, credentialId: string) =>
      ctx.db.kysely
        .insertInto('passkeys')
        .values({
          user_id: userId,
          credential_id: credentialId,
          public_key: 'key',
          counter: 0,
          transports: '[]',
          created_at: START - 60_000,
          last_used_at: START - 1_000,
          name,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const laptop = await passkey(cast.adminA.id, 'Work laptop', 'laptop');
    const theirs = await passkey(cast.adminB.id, 'South key', 'south');

    const list = await agent.get('/api/passkeys/');
    expect(list.body).toEqual({
      success: true,
      passkeys: [
        {
          id: laptop.id,
          name: 'Work laptop',
          created_at: new Date(START - 60_000).toISOString(),
          last_used_at: new Date(START - 1_000).toISOString(),
        },
      ],
    });
    // Another's passkey is not found, whoever asks.
    expectError(await agent.delete(`/api/passkeys/${theirs.id}/`), 404, 'NOT_FOUND', PASSKEY_NOT_FOUND);

    later();
    expectError(
      await agent.delete(`/api/passkeys/${laptop.id}/`),
      403,
      'STEP_UP_REQUIRED',
      STEP_UP_REQUIRED_MESSAGE,
    );
    // Adding one needs the same fresh proof, before the browser is even asked.
    expectError(
      await agent.post('/api/passkeys/registration/options/'),
      403,
      'STEP_UP_REQUIRED',
      STEP_UP_REQUIRED_MESSAGE,
    );
    expect((await agent.post('/api/passkeys/step-up/options/')).status).toBe(200);
    expect(
      (await agent.post('/api/second-factor/step-up/', { code: await codeAt(secret, Date.now()) })).status,
    ).toBe(200);
    expect((await agent.post('/api/passkeys/registration/options/')).status).toBe(200);
    const removed = await agent.delete(`/api/passkeys/${laptop.id}/`);
    expect(removed.status, removed.text).toBe(200);
    expect((await agent.get('/api/passkeys/')).body).toEqual({ success: true, passkeys: [] });
    expect(await ctx.db.kysely.selectFrom('passkeys').select('name').execute()).toEqual([
      { name: 'South key' },
    ]);

    expect((await mailsTo(cast.adminA.email)).at(-1)?.body).toContain(
      'A passkey ("Work laptop") was removed',
    );
    expect(await auditOf(cast.adminA.id, 'staff.passkey')).toMatchObject([
      { action: 'staff.passkey_remove', detail: { name: 'Work laptop' }, subject_id: String(cast.adminA.id) },
    ]);
  });

  it('changes single sign-on only with a fresh factor, and tells every admin who still has access', async () => {
    const colleague = await makeUser(ctx.db.kysely, {
      email: 'colleague@north.edu',
      role: 'institution_admin',
      institutionId: cast.a.id,
    });
    const gone = await makeUser(ctx.db.kysely, {
      email: 'gone@north.edu',
      role: 'institution_admin',
      institutionId: cast.a.id,
    });
    await ctx.db.kysely.updateTable('users').set({ removed_at: START }).where('id', '=', gone.id).execute();
    const { agent, secret } = await signedInWithApp(cast.adminA.email);
    const settings = {
      issuer: 'https://login.north.edu',
      client_id: 'wellness',
      client_secret: 'a-secret-of-the-provider',
      domains: ['north.edu'],
      student_password_sign_in: true,
    };
    await passedConnectionTest(ctx.db.kysely, cast.a.id, {
      issuer: settings.issuer,
      clientId: settings.client_id,
    });
    const put = () => agent.request({ method: 'PUT', url: '/api/institution/sso/', payload: settings });
    expect((await put()).status).toBe(200);

    later();
    expectError(await put(), 403, 'STEP_UP_REQUIRED', STEP_UP_REQUIRED_MESSAGE);
    expectError(
      await agent.delete('/api/institution/sso/'),
      403,
      'STEP_UP_REQUIRED',
      STEP_UP_REQUIRED_MESSAGE,
    );
    expect(
      (await agent.post('/api/second-factor/step-up/', { code: await codeAt(secret, Date.now()) })).status,
    ).toBe(200);
    expect((await agent.delete('/api/institution/sso/')).status).toBe(200);

    for (const admin of [cast.adminA.email, colleague.email]) {
      const mails = (await mailsTo(admin)).filter((mail) => mail.body.includes('single sign-on'));
      expect(mails.map((mail) => mail.body.split(' by ')[0])).toEqual([
        'The single sign-on of your institution was changed (enabled; provider https://login.north.edu)',
        'The single sign-on of your institution was switched off',
      ]);
      expect(mails.join('')).not.toContain(settings.client_secret);
    }
    expect(await mailsTo(gone.email)).toEqual([]);
    expect(await mailsTo(cast.adminB.email)).toEqual([]);
  });

  it('asks for no step-up to set up the first factor, and refuses one to a sign-in not yet complete', async () => {
    const agent = new TestAgent(ctx.app);
    await agent.post('/api/login/', { email: cast.adminA.email, password: TEST_PASSWORD });
    later();
    expect((await agent.post('/api/passkeys/registration/options/')).status).toBe(200);
    expectError(
      await agent.post('/api/second-factor/step-up/', { code: '123456' }),
      403,
      'SECOND_FACTOR_REQUIRED',
      'Staff accounts need a second factor. Set one up to continue.',
      { second_factor: 'enrol' },
    );
    expect((await agent.post('/api/second-factor/totp/setup/')).status).toBe(200);
  });
});
