/**
 * Lockout as denial of service: a stranger who knows (or guesses) an admin's address and fails
 * the password again and again must not lock the owner out.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

  describe('spread over many addresses', () => {
    const DELAY = { firstMs: 1_000, capMs: 60_000 };

    beforeEach(async () => {
      await ctx.close();
      ctx = await createTestApp(dialect, {
        limits: {
          login: {
            failuresPerAccount: 5,
            failuresPerAccountFromNewClients: 6,
            windowMs: 15 * 60_000,
            newClientDelay: DELAY,
          },
        },
      });
      email = (await makeTwoInstitutions(ctx.db.kysely)).adminA.email;
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now());
    });

    afterEach(() => vi.useRealTimers());

    it("slow guesses without touching the owner's usual browser", async () => {
      const owner = new TestAgent(ctx.app);
      expect((await login(owner, OWNER, TEST_PASSWORD)).status).toBe(200);

      const statuses: number[] = [];
      for (let i = 0; i < 8; i++)
        statuses.push((await attack(`198.51.100.${i + 1}`, 1)).statuses[0] as number);
      // The owner's first sign-in, from a browser new to the account, counted as well; the sixth
      // attempt took the account's turn, and the next ones at the same moment wait for the next.
      expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
      expect((await login(owner, OWNER, TEST_PASSWORD)).status).toBe(200);
    });

    it('make each further guess wait longer, up to the cap, told by Retry-After', async () => {
      const waits: number[] = [];
      for (let i = 0; i < 15; i++) {
        const guesser = new TestAgent(ctx.app);
        const address = `198.51.100.${i + 1}`;
        let response = await login(guesser, address, `guess-${i}`);
        if (response.status === 429) {
          const seconds = Number(response.headers['retry-after']);
          waits.push(seconds);
          expect(response.body).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
          // One millisecond short of the turn is still too early; the turn itself is not.
          vi.setSystemTime(Date.now() + seconds * 1_000 - 1);
          expect((await login(guesser, address, `guess-${i}`)).status).toBe(429);
          vi.setSystemTime(Date.now() + 1);
          response = await login(guesser, address, `guess-${i}`);
        }
        expect(response.status).toBe(401);
      }
      expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    });

    it('let the owner in from a new browser, with the right password, at most the cap after guessing stops', async () => {
      // Eleven addresses guess until each is refused, as a script would run.
      for (let i = 0; i < 11; i++) await attack(`198.51.100.${i + 1}`, 10);
      const owner = new TestAgent(ctx.app);
      const first = await login(owner, OWNER, TEST_PASSWORD);
      expect(first.status).toBe(429);
      const seconds = Number(first.headers['retry-after']);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(DELAY.capMs / 1_000);
      vi.setSystemTime(Date.now() + seconds * 1_000);
      expect((await login(owner, OWNER, TEST_PASSWORD)).status).toBe(200);
    });
  });

  it('do not take a forged or another account’s browser cookie as the owner’s', async () => {
    const other = new TestAgent(ctx.app);
    other.jar.set('known_device', 'forged.value');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login(other, ATTACKER, `guess-${i}`)).status);
    expect(statuses.at(-1)).toBe(429);
  });
});
