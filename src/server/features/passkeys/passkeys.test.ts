import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, TEST_PASSWORD } from '../../../../test/helpers/factories';
import { relyingPartyOf } from './routes';
import { ALREADY_SIGNED_IN, NO_PASSKEY, PASSKEY_REFUSED, STAFF_ONLY } from './service';

/**
 * The passkey ceremonies themselves run in Chromium with a virtual authenticator
 * (test/e2e/passkeys.spec.ts); here, who may start them and what a forged answer gets.
 */

type Options = { options: { challenge: string; rp?: { id: string }; allowCredentials?: unknown[] } };

const forged = (response: Record<string, string>) => ({
  credential: {
    id: 'bm8tc3VjaC1wYXNza2V5',
    rawId: 'bm8tc3VjaC1wYXNza2V5',
    type: 'public-key',
    clientExtensionResults: {},
    response: { clientDataJSON: 'e30', ...response },
  },
});

describe.each(TEST_DIALECTS)('passkeys on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;

  beforeEach(async () => {
    ctx = await createTestApp(dialect, { web: { publicUrl: 'https://health.north.edu' } });
    cast = await makeTwoInstitutions(ctx.db.kysely);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const challenges = () => ctx.db.kysely.selectFrom('passkey_challenges').selectAll().execute();

  it('lets staff start adding a passkey for the configured site, and remembers the challenge once', async () => {
    const admin = new TestAgent(ctx.app);
    await admin.login(cast.adminA.email, TEST_PASSWORD);
    const started = await admin.post<Options & { options: { user: { name: string } } }>(
      '/api/passkeys/registration/options/',
    );
    expect(started.status).toBe(200);
    expect(started.body.options.rp).toMatchObject({ id: 'health.north.edu' });
    expect(started.body.options.user.name).toBe(cast.adminA.email);
    expect(await challenges()).toEqual([
      expect.objectContaining({
        challenge: started.body.options.challenge,
        purpose: 'register',
        user_id: cast.adminA.id,
      }),
    ]);
    expectError(
      await admin.post('/api/passkeys/registration/', forged({ attestationObject: 'o2NmbXRkbm9uZQ' })),
      400,
      'BAD_REQUEST',
      PASSKEY_REFUSED,
    );
    expect(await ctx.db.kysely.selectFrom('passkeys').selectAll().execute()).toEqual([]);
  });

  it('is for staff, and a password alone adds none once a second factor exists', async () => {
    const student = new TestAgent(ctx.app);
    await student.login(cast.studentA.email, TEST_PASSWORD);
    expectError(await student.post('/api/passkeys/registration/options/'), 403, 'FORBIDDEN', STAFF_ONLY);

    const enrolled = new TestAgent(ctx.app);
    await enrolled.login(cast.adminA.email, TEST_PASSWORD);
    const passwordOnly = new TestAgent(ctx.app);
    const login = await passwordOnly.post<{ user: { second_factor?: string } }>('/api/login/', {
      email: cast.adminA.email,
      password: TEST_PASSWORD,
    });
    expect(login.body.user.second_factor).toBe('verify');
    const refused = await passwordOnly.post('/api/passkeys/registration/options/');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'SECOND_FACTOR_REQUIRED', second_factor: 'verify' });
    // No passkey to prove the sign-in with: the app code or a recovery code it is.
    expectError(
      await passwordOnly.post('/api/passkeys/authentication/options/'),
      409,
      'CONFLICT',
      NO_PASSKEY,
    );
    expect(await challenges()).toEqual([]);
  });

  it('offers a visitor any passkey of the site, and refuses one the server does not know', async () => {
    const visitor = new TestAgent(ctx.app);
    const started = await visitor.post<Options>('/api/passkeys/authentication/options/');
    expect(started.status).toBe(200);
    expect(started.body.options.allowCredentials ?? []).toEqual([]);
    expect(await challenges()).toEqual([
      expect.objectContaining({
        challenge: started.body.options.challenge,
        purpose: 'sign_in',
        user_id: null,
      }),
    ]);
    expectError(
      await visitor.post(
        '/api/passkeys/authentication/',
        forged({ authenticatorData: 'AAAA', signature: 'AAAA' }),
      ),
      400,
      'BAD_REQUEST',
      PASSKEY_REFUSED,
    );
    expect((await visitor.get('/api/user/')).status).toBe(401);

    const signedIn = new TestAgent(ctx.app);
    await signedIn.login(cast.studentA.email, TEST_PASSWORD);
    expectError(
      await signedIn.post('/api/passkeys/authentication/options/'),
      409,
      'CONFLICT',
      ALREADY_SIGNED_IN,
    );
  });

  it('takes the site from the configuration, never from a forged Host or X-Forwarded-Host', async () => {
    const admin = new TestAgent(ctx.app);
    await admin.login(cast.adminA.email, TEST_PASSWORD);
    const forgedHost = {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    };
    const started = await admin.request<Options>({
      method: 'POST',
      url: '/api/passkeys/registration/options/',
      headers: forgedHost,
    });
    expect(started.status).toBe(200);
    expect(started.body.options.rp).toMatchObject({ id: 'health.north.edu' });
  });
});

describe('passkeys without PUBLIC_URL', () => {
  let ctx: TestContext;
  afterEach(async () => {
    await ctx.close();
  });

  it("belong to the server's own address by the name localhost, whatever Host the request names", async () => {
    ctx = await createTestApp('sqlite', { port: 8123, web: { publicUrl: null } });
    const visitor = new TestAgent(ctx.app);
    for (const host of ['evil.example', 'localhost:8123']) {
      const started = await visitor.request<Options & { options: { rpId?: string } }>({
        method: 'POST',
        url: '/api/passkeys/authentication/options/',
        headers: { host, 'x-forwarded-host': 'evil.example' },
      });
      expect(started.status).toBe(200);
      expect(started.body.options.rpId).toBe('localhost');
    }
    expect(relyingPartyOf(ctx.config)).toMatchObject({ id: 'localhost', origin: 'http://localhost:8123' });
  });
});
