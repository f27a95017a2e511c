/**
 * Behind one reverse proxy (TRUST_PROXY=1) that appends the address it received each request
 * from: a client that writes its own X-Forwarded-For entries, or its own X-Forwarded-Host, must
 * gain nothing by it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../test/helpers/databases';
import { makeTwoInstitutions } from '../../../test/helpers/factories';

const PROXY = '10.0.0.2';
const CLIENT = '203.0.113.7';

/** What the proxy forwards: whatever the client wrote, then the client's real address. */
function throughProxy(forgedLeftEntry: string) {
  return { remoteAddress: PROXY, headers: { 'x-forwarded-for': `${forgedLeftEntry}, ${CLIENT}` } };
}

describe.each(TEST_DIALECTS)('one trusted proxy hop on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;

  beforeEach(async () => {
    ctx = await createTestApp(dialect, {
      trustProxy: 1,
      limits: { loginPerIpPerMinute: 3, linkSubmissionsPerIpPerMinute: 2 },
    });
    cast = await makeTwoInstitutions(ctx.db.kysely);
  });

  afterEach(async () => ctx.close());

  it('limits logins by the address the proxy saw, however the client rotates its own entries', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const response = await new TestAgent(ctx.app).request({
        method: 'POST',
        url: '/api/login/',
        payload: { email: `nobody${attempt}@north.edu`, password: 'not-the-password' },
        ...throughProxy(`198.51.100.${attempt + 1}`),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
  });

  it('limits link submissions by the address the proxy saw', async () => {
    const link = await ctx.db.kysely
      .selectFrom('survey_templates')
      .select('hash_link')
      .where('institution_id', '=', cast.a.id)
      .executeTakeFirstOrThrow();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await new TestAgent(ctx.app).request({
        method: 'POST',
        url: `/api/survey/link/${link.hash_link}/`,
        payload: {
          student_name: `Visitor ${attempt}`,
          school_email: `visitor${attempt}@north.edu`,
          answers: {},
        },
        ...throughProxy(`198.51.100.${attempt + 1}`),
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 2)).not.toContain(429);
    expect(statuses.slice(2)).toEqual([429, 429]);
  });

  it('still tells two clients behind the same proxy apart', async () => {
    const login = (forwardedFor: string) =>
      new TestAgent(ctx.app).request({
        method: 'POST',
        url: '/api/login/',
        payload: { email: 'nobody@north.edu', password: 'not-the-password' },
        remoteAddress: PROXY,
        headers: { 'x-forwarded-for': forwardedFor },
      });
    for (let attempt = 0; attempt < 3; attempt++) await login(CLIENT);
    expect((await login(CLIENT)).status).toBe(429);
    expect((await login(`${CLIENT}, 203.0.113.99`)).status).toBe(401);
  });

  it('does not let a forged X-Forwarded-Host vouch for a foreign Origin', async () => {
    const agent = new TestAgent(ctx.app);
    const response = await agent.request({
      method: 'POST',
      url: '/api/logout/',
      remoteAddress: PROXY,
      headers: {
        host: 'wellness.example.edu',
        origin: 'https://evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
        'x-forwarded-for': CLIENT,
      },
    });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      success: false,
      code: 'FORBIDDEN',
      message: 'Cross-origin request refused',
    });

    const own = await agent.request({
      method: 'POST',
      url: '/api/logout/',
      remoteAddress: PROXY,
      headers: {
        host: 'wellness.example.edu',
        origin: 'https://wellness.example.edu',
        'x-forwarded-proto': 'https',
        'x-forwarded-for': CLIENT,
      },
    });
    expect(own.status).toBe(200);
  });
});
