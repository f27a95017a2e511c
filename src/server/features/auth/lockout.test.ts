/**
 * Lockout as denial of service: a stranger who knows (or guesses) an admin's address and fails
 * the password again and again must not lock the owner out.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { makeTwoInstitutions, TEST_PASSWORD } from '../../../../test/helpers/factories';

const ATTACKER = '198.51.100.66';
const OWNER = '203.0.113.10';

describe.each(TEST_DIALECTS)('failed logins on %s', (dialect) => {
  let ctx: TestContext;
  let email: string;

  beforeEach(async () => {
    ctx = await createTestApp(dialect, { trustProxy: 0 });
    email = (await makeTwoInstitutions(ctx.db.kysely)).adminA.email;
  });

  afterEach(async () => ctx.close());

  function login(agent: TestAgent, address: string, password: string) {
    return agent.request({
      method: 'POST',
      url: '/api/login/',
      payload: { email, password },
      remoteAddress: address,
    });
  }

  async function attack(address: string, times: number) {
    const attacker = new TestAgent(ctx.app);
    const statuses: number[] = [];
    for (let i = 0; i < times; i++) statuses.push((await login(attacker, address, `guess-${i}`)).status);
    return { attacker, statuses };
  }

  it('lock the failing client out, not the owner signing in from elsewhere', async () => {
    const { attacker, statuses } = await attack(ATTACKER, 7);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // The attacker is refused even with the right password...
    expect((await login(attacker, ATTACKER, TEST_PASSWORD)).status).toBe(429);
    // ...the owner is not.
    expect((await login(new TestAgent(ctx.app), OWNER, TEST_PASSWORD)).status).toBe(200);
  });

  it("never lock the owner's usual browser out, even behind the attacker's address", async () => {
    const owner = new TestAgent(ctx.app);
    expect((await login(owner, ATTACKER, TEST_PASSWORD)).status).toBe(200);
    expect((await owner.post('/api/logout/')).status).toBe(200);

    const { statuses } = await attack(ATTACKER, 7);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    expect((await login(owner, ATTACKER, TEST_PASSWORD)).status).toBe(200);
  });

  it("slow guesses spread over many addresses without touching the owner's browser", async () => {
    await ctx.close();
    ctx = await createTestApp(dialect, {
      limits: {
        login: { failuresPerAccount: 5, failuresPerAccountFromNewClients: 6, windowMs: 15 * 60_000 },
      },
    });
    email = (await makeTwoInstitutions(ctx.db.kysely)).adminA.email;
    const owner = new TestAgent(ctx.app);
    expect((await login(owner, OWNER, TEST_PASSWORD)).status).toBe(200);

    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await attack(`198.51.100.${i + 1}`, 1)).statuses[0] as number);
    // The owner's first sign-in, from a browser new to the account, counted as well.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect((await login(owner, OWNER, TEST_PASSWORD)).status).toBe(200);
  });

  it('do not take a forged or another account’s browser cookie as the owner’s', async () => {
    const other = new TestAgent(ctx.app);
    other.jar.set('known_device', 'forged.value');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login(other, ATTACKER, `guess-${i}`)).status);
    expect(statuses.at(-1)).toBe(429);
  });
});
