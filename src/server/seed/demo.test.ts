import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../test/helpers/databases';
import { rebuildDashboardRollups } from '../features/dashboard';
import {
  checkDemoPassword,
  DEMO_INSTITUTION,
  generateDemoPassword,
  retirePublishedDemoPassword,
  seedDemo,
} from './demo';
import { sampleResponsesSeeder } from './sample-responses';

const DEMO_TEST_PASSWORD = 'Quiet-Meadow-Compass-17';
const DEMO_MAIL = { brandName: 'Wellspring', linkBase: 'http://localhost:8000' };

describe.each(TEST_DIALECTS)('the demo seed (%s)', (dialect) => {
  let context: TestContext;

  beforeEach(async () => {
    // One instant throughout, so "the last 30 days" cannot move between the two readings.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now());
    context = await createTestApp(dialect);
  });

  afterEach(async () => {
    vi.useRealTimers();
    await context.close();
  });

  async function demoDashboard(admin: TestAgent) {
    const response = await admin.get('/api/dashboard/');
    expect(response.status).toBe(200);
    const { generated_at: _, ...numbers } = response.body;
    return numbers;
  }

  /** What the demo admin sees right after seeding, checked against a rebuild from the raw data. */
  async function expectSameAsRebuild() {
    const admin = new TestAgent(context.app);
    await admin.signInDirectly(context.db, 'admin@demo.edu');
    const seeded = await demoDashboard(admin);
    const institution = await context.db.kysely
      .selectFrom('institutions')
      .select('id')
      .where('name', '=', DEMO_INSTITUTION.name)
      .executeTakeFirstOrThrow();
    await rebuildDashboardRollups(context.db.kysely, institution.id);
    expect(seeded).toEqual(await demoDashboard(admin));
    return seeded;
  }

  it('shows the demo admin the numbers a full rebuild gives, sample responses included', async () => {
    expect(
      await seedDemo(context.db.kysely, {
        password: DEMO_TEST_PASSWORD,
        seedResponses: sampleResponsesSeeder(DEMO_MAIL),
      }),
    ).toBe(true);
    const seeded = await expectSameAsRebuild();
    expect(seeded.num_students).toBeGreaterThan(1);
    expect(seeded.num_responses).toBeGreaterThan(50);
  });

  it('counts the demo student, who has not answered yet, when seeded without sample responses', async () => {
    expect(await seedDemo(context.db.kysely, { password: DEMO_TEST_PASSWORD })).toBe(true);
    const seeded = await expectSameAsRebuild();
    expect(seeded).toMatchObject({ num_students: 1, num_responses: 0, response_rate: 0 });
  });

  it('gives demo logins seeded with the published password of earlier versions a new one', async () => {
    expect(await seedDemo(context.db.kysely, { password: 'wellness-demo' })).toBe(true);
    expect(await retirePublishedDemoPassword(context.db.kysely, DEMO_TEST_PASSWORD)).toBe(true);
    const agent = new TestAgent(context.app);
    expect(
      (await agent.post('/api/login/', { email: 'admin@demo.edu', password: 'wellness-demo' })).status,
    ).toBe(401);
    await agent.login('student@demo.edu', DEMO_TEST_PASSWORD);
    expect(await retirePublishedDemoPassword(context.db.kysely, 'Another-Fresh-Password-9')).toBe(false);
  });
});

describe('demo passwords', () => {
  it('are random and strong for each installation', () => {
    const first = generateDemoPassword();
    expect(first).not.toBe(generateDemoPassword());
    expect(first).toMatch(/^[\w-]{16}$/);
    expect(() => checkDemoPassword(first, 'Wellspring')).not.toThrow();
  });

  it('refuses a chosen one that is easy to guess', () => {
    for (const weak of ['wellness-demo', 'admin@demo.edu', 'Demo University'])
      expect(() => checkDemoPassword(weak, 'Wellspring'), weak).toThrow(
        /DEMO_PASSWORD is refused: This password/,
      );
  });
});
