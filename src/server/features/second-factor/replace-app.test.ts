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
import { makeTwoInstitutions, TEST_PASSWORD } from '../../../../test/helpers/factories';
import { SIGN_IN_CHANGE_SUBJECT } from '../../../common/schemas/second-factor';
import { STEP_UP_REQUIRED_MESSAGE, STEP_UP_WINDOW } from '../../lib/step-up';
import { MINUTE } from '../../lib/time';
import { APP_REPLACED, NO_REPLACEMENT, REPLACEMENT_LIFETIME } from './replace-app';
import { STAFF_ONLY, WRONG_CODE, WRONG_SETUP_CODE } from './service';

/** Half-way through a 30-second step, so one step either side is a whole step away. */
const START = 1_800_000_015_000;
const STEP = 30_000;

describe.each(TEST_DIALECTS)('replacing the authenticator app, on %s', (dialect) => {
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

  /** A code of the app holding `secret`, in a time step no code was used in yet. */
  const nextCode = async (secret: string) => {
    vi.setSystemTime(Date.now() + STEP);
    return generate({ secret, epoch: Math.floor(Date.now() / 1000) });
  };
  const later = (ms: number) => vi.setSystemTime(Date.now() + ms);

  async function signedInWithApp(email: string) {
    const agent = new TestAgent(ctx.app);
    await agent.post('/api/login/', { email, password: TEST_PASSWORD });
    const { secret } = await enrolAuthenticatorApp(agent, email);
    return { agent, secret };
  }

  const start = (agent: TestAgent) =>
    agent.post<{ secret: string; qr_code: string }>('/api/second-factor/totp/replacement/');
  const confirm = (agent: TestAgent, code: string) =>
    agent.post('/api/second-factor/totp/replacement/confirm/', { code });
  const stepUp = (agent: TestAgent, code: string) => agent.post('/api/second-factor/step-up/', { code });

  it('needs the second factor afresh, keeps the old app working until the new one is confirmed, then only the new one', async () => {
    const { agent, secret: oldSecret } = await signedInWithApp(cast.adminA.email);
    later(STEP_UP_WINDOW + 1_000);
    expectError(await start(agent), 403, 'STEP_UP_REQUIRED', STEP_UP_REQUIRED_MESSAGE);
    expect((await stepUp(agent, await nextCode(oldSecret))).status).toBe(200);

    const started = await start(agent);
    expect(started.status, started.text).toBe(200);
    expect(started.body.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    const newSecret = started.body.secret;
    expect(newSecret).not.toBe(oldSecret);

    // Half-way: the old app still proves the factor, and the new one is not the app yet.
    expect((await stepUp(agent, await nextCode(oldSecret))).status).toBe(200);
    expectError(await stepUp(agent, await nextCode(newSecret)), 400, 'BAD_REQUEST', WRONG_CODE);
    // Only the new app's code confirms it.
    expectError(await confirm(agent, await nextCode(oldSecret)), 400, 'BAD_REQUEST', WRONG_SETUP_CODE);
    const replaced = await confirm(agent, await nextCode(newSecret));
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toEqual({ success: true, message: APP_REPLACED });

    // The old app no longer works; the new one does, at the sign-in too.
    expectError(await stepUp(agent, await nextCode(oldSecret)), 400, 'BAD_REQUEST', WRONG_CODE);
    expect((await stepUp(agent, await nextCode(newSecret))).status).toBe(200);
    const browser = new TestAgent(ctx.app);
    await browser.post('/api/login/', { email: cast.adminA.email, password: TEST_PASSWORD });
    expectError(
      await browser.post('/api/second-factor/verify/', { code: await nextCode(oldSecret) }),
      400,
      'BAD_REQUEST',
      WRONG_CODE,
    );
    expect(
      (await browser.post('/api/second-factor/verify/', { code: await nextCode(newSecret) })).status,
    ).toBe(200);
    // Done once: nothing waits to be confirmed any more.
    expectError(await confirm(agent, await nextCode(newSecret)), 409, 'CONFLICT', NO_REPLACEMENT);

    // Recorded and told to the owner, like every change to how they sign in.
    const audit = await ctx.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'subject_id', 'institution_id'])
      .where('action', '=', 'staff.app_replace')
      .execute();
    expect(audit).toEqual([
      { action: 'staff.app_replace', subject_id: String(cast.adminA.id), institution_id: cast.a.id },
    ]);
    const mails = await ctx.db.kysely
      .selectFrom('mail_outbox')
      .select('body')
      .where('to_address', '=', cast.adminA.email)
      .where('subject', '=', SIGN_IN_CHANGE_SUBJECT)
      .orderBy('id')
      .execute();
    expect(mails.at(-1)?.body).toMatch(
      /^The authenticator app of your staff account was replaced \(the old one no longer works\) by admin@north\.edu, on .+ \(UTC\) from the address/,
    );
  });

  it('lets a replacement left too long lapse, with the old app still the one', async () => {
    const { agent, secret: oldSecret } = await signedInWithApp(cast.adminA.email);
    const started = await start(agent);
    expect(started.status).toBe(200);
    later(REPLACEMENT_LIFETIME + MINUTE);
    expect((await stepUp(agent, await nextCode(oldSecret))).status).toBe(200);
    expectError(await confirm(agent, await nextCode(started.body.secret)), 409, 'CONFLICT', NO_REPLACEMENT);
    expect((await stepUp(agent, await nextCode(oldSecret))).status).toBe(200);
  });

  it('is for staff with an app', async () => {
    const student = new TestAgent(ctx.app);
    await student.login(cast.studentA.email, TEST_PASSWORD);
    expectError(await start(student), 403, 'FORBIDDEN', STAFF_ONLY);
    expectError(await confirm(student, '123456'), 403, 'FORBIDDEN', STAFF_ONLY);
    expect((await confirm(new TestAgent(ctx.app), '123456')).status).toBe(401);
  });
});
