/** Registration refuses passwords an attacker would guess first, and says why; nothing is stored. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { makeTwoInstitutions } from '../../../../test/helpers/factories';

describe.each(TEST_DIALECTS)('password rules at registration on %s', (dialect) => {
  let ctx: TestContext;

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    await makeTwoInstitutions(ctx.db.kysely);
  });

  afterEach(async () => ctx.close());

  it.each([
    'aaaaaaaa',
    '        ',
    'abcdefgh',
    'qwerty1234',
    'Summer2024',
    'nora.new@north.edu',
    'North University',
    'wellness-demo',
  ])('refuses %j with the reason', async (password) => {
    const response = await new TestAgent(ctx.app).post('/api/register/', {
      institution_name: 'North University',
      name: 'Nora New',
      email: 'nora.new@north.edu',
      password,
      confirm_password: password,
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^This password is too easy to guess\. \S/),
    });
    const users = await ctx.db.kysely.selectFrom('users').select('email').execute();
    expect(users.map((user) => user.email)).not.toContain('nora.new@north.edu');
  });
});
