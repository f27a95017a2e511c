import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { makeTwoInstitutions, TEST_PASSWORD } from '../../../../test/helpers/factories';
import { RECOVERY_CODE_COUNT } from '../../../common/schemas/second-factor';

/**
 * What a first passkey brings with it. The WebAuthn check itself stands in here for an
 * authenticator (the ceremony runs for real in test/e2e/passkeys.spec.ts): every answer is
 * taken as a new credential.
 */
vi.mock('@simplewebauthn/server', async (original) => {
  const actual = await original<typeof import('@simplewebauthn/server')>();
  let credentials = 0;
  return {
    ...actual,
    verifyRegistrationResponse: async () => {
      credentials += 1;
      return {
        verified: true,
        registrationInfo: {
          credential: { id: `credential-${credentials}`, publicKey: new Uint8Array([1, 2, 3]), counter: 0 },
        },
      };
    },
  };
});

const answer = {
  credential: {
    id: 'Y3JlZGVudGlhbA',
    rawId: 'Y3JlZGVudGlhbA',
    type: 'public-key',
    clientExtensionResults: {},
    response: { clientDataJSON: 'e30', attestationObject: 'o2NmbXRkbm9uZQ' },
  },
};

describe.each(TEST_DIALECTS)('a first passkey on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const unusedCodes = async (userId: number) =>
    (
      await ctx.db.kysely
        .selectFrom('recovery_codes')
        .select('user_id')
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute()
    ).length;

  it('brings ten recovery codes, shown once, as a first app does; a second passkey brings none', async () => {
    const admin = new TestAgent(ctx.app);
    const login = await admin.post<{ user: { second_factor?: string } }>('/api/login/', {
      email: cast.adminA.email,
      password: TEST_PASSWORD,
    });
    expect(login.body.user.second_factor).toBe('enrol');

    expect((await admin.post('/api/passkeys/registration/options/')).status).toBe(200);
    const first = await admin.post<{ recovery_codes?: string[]; user: { second_factor?: string } }>(
      '/api/passkeys/registration/',
      answer,
    );
    expect(first.status).toBe(200);
    expect(first.body.recovery_codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(first.body.user.second_factor).toBeUndefined();
    expect(await unusedCodes(cast.adminA.id)).toBe(RECOVERY_CODE_COUNT);

    // A recovery code from the first passkey proves the second factor at the next sign-in.
    const next = new TestAgent(ctx.app);
    await next.post('/api/login/', { email: cast.adminA.email, password: TEST_PASSWORD });
    const code = first.body.recovery_codes?.[0] ?? '';
    expect((await next.post('/api/second-factor/verify/', { code })).status).toBe(200);

    // Beside the first (within the fresh window of the sign-in), a second passkey adds no codes.
    expect((await admin.post('/api/passkeys/registration/options/')).status).toBe(200);
    const second = await admin.post<{ recovery_codes?: string[] }>('/api/passkeys/registration/', answer);
    expect(second.status).toBe(200);
    expect(second.body.recovery_codes).toBeUndefined();
    expect(await unusedCodes(cast.adminA.id)).toBe(RECOVERY_CODE_COUNT - 1);
  });
});
