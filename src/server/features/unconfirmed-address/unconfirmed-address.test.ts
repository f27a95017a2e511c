import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeInstitution } from '../../../../test/helpers/factories';
import { latestCodeFor } from '../../../../test/helpers/verify';
import { INVALID_LOGIN } from '../auth';
import { CODE_SENT, CODES_PER_ADDRESS_PER_BROWSER_PER_HOUR } from '../verify';
import { ADDRESS_UNCONFIRMED_MESSAGE } from './pending';

const PASSWORD = 'amber-kettle-voyage-93';
const EMAIL = 'nora@north.edu';

describe.each(TEST_DIALECTS)('a registration whose address was never confirmed, on %s', (dialect) => {
  let ctx: TestContext;

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    await makeInstitution(ctx.db.kysely);
    const registering = new TestAgent(ctx.app);
    const registered = await registering.post('/api/register/', {
      institution_name: 'North University',
      name: 'Nora North',
      email: EMAIL,
      password: PASSWORD,
      confirm_password: PASSWORD,
    });
    expect(registered.status).toBe(201);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const mailCount = async () =>
    (await ctx.db.kysely.selectFrom('mail_outbox').select('id').where('to_address', '=', EMAIL).execute())
      .length;

  it('tells the right password that the address waits for its code; a wrong one gets the usual answer', async () => {
    const browser = new TestAgent(ctx.app);
    expectError(
      await browser.post('/api/login/', { email: EMAIL, password: PASSWORD }),
      403,
      'ADDRESS_UNCONFIRMED',
      ADDRESS_UNCONFIRMED_MESSAGE,
    );
    expectError(
      await browser.post('/api/login/', { email: EMAIL, password: 'not-the-password-1' }),
      401,
      'UNAUTHENTICATED',
      INVALID_LOGIN,
    );
    expectError(
      await browser.post('/api/login/', { email: 'nobody@north.edu', password: PASSWORD }),
      401,
      'UNAUTHENTICATED',
      INVALID_LOGIN,
    );
  });

  it('sends a new code to another browser that knows the password, which then finishes registering', async () => {
    const browser = new TestAgent(ctx.app);
    const resent = await browser.post('/api/register/resend-code/', { email: EMAIL, password: PASSWORD });
    expect(resent.status).toBe(200);
    expect(resent.body).toEqual({ success: true, message: CODE_SENT(EMAIL) });
    const check = await browser.post<{ account_ready: boolean }>('/api/verify/check/', {
      email: EMAIL,
      code: await latestCodeFor(ctx.db.kysely, EMAIL),
    });
    expect(check.status, check.text).toBe(200);
    expect(check.body.account_ready).toBe(true);
    expect((await browser.post('/api/login/', { email: EMAIL, password: PASSWORD })).status).toBe(200);
  });

  it('answers a wrong password or an unknown address the same, and sends nothing', async () => {
    const browser = new TestAgent(ctx.app);
    const before = await mailCount();
    for (const body of [
      { email: EMAIL, password: 'not-the-password-1' },
      { email: 'nobody@north.edu', password: PASSWORD },
    ]) {
      const answer = await browser.post('/api/register/resend-code/', body);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ success: true, message: CODE_SENT(body.email) });
    }
    expect(await mailCount()).toBe(before);
  });

  it('holds new codes to the usual allowances', async () => {
    const browser = new TestAgent(ctx.app);
    const before = await mailCount();
    for (let i = 0; i < CODES_PER_ADDRESS_PER_BROWSER_PER_HOUR + 2; i++) {
      const answer = await browser.post('/api/register/resend-code/', { email: EMAIL, password: PASSWORD });
      expect(answer.body).toEqual({ success: true, message: CODE_SENT(EMAIL) });
    }
    expect(await mailCount()).toBe(before + CODES_PER_ADDRESS_PER_BROWSER_PER_HOUR);
  });
});
