import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { activeQuestions, addSubmission } from '../../../../test/helpers/dashboard-data';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { EventStreamClient } from '../../../../test/helpers/event-stream-client';
import { makeTwoInstitutions, makeUser } from '../../../../test/helpers/factories';
import { INSTRUMENTS, type InstrumentAnswers } from '../../../common/instruments';
import { answersAll } from '../../../common/instruments/test-answers';
import type { DashboardData, InstrumentBandMonths } from '../../../common/schemas/dashboard';
import type { InstitutionSettingsResponse } from '../../../common/schemas/settings';

const FEWER_THAN_5 = { suppressed: true, fewer_than: 5 };

describe.each(TEST_DIALECTS)('small groups on the dashboard on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let questions: Awaited<ReturnType<typeof activeQuestions>>;
  const agents: Record<'admin' | 'counsellor' | 'viewer', TestAgent> = {} as never;
  let serial = 0;

  beforeEach(async () => {
    serial = 0;
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    questions = await activeQuestions(ctx.db.kysely, cast.a.id);
    await makeUser(ctx.db.kysely, { email: 'coun@north.edu', role: 'counsellor', institutionId: cast.a.id });
    await makeUser(ctx.db.kysely, { email: 'view@north.edu', role: 'viewer', institutionId: cast.a.id });
    for (const [role, email] of [
      ['admin', cast.adminA.email],
      ['counsellor', 'coun@north.edu'],
      ['viewer', 'view@north.edu'],
    ] as const) {
      agents[role] = new TestAgent(ctx.app);
      await agents[role].signInDirectly(ctx.db, email);
    }
  });
  afterEach(async () => {
    await ctx.close();
  });

  /** Students who answer now, each with the tier and stress answer given. */
  async function addStudents(count: number, options: { tier: 'urgent' | 'none'; stress?: number }) {
    for (let i = 0; i < count; i++) {
      serial += 1;
      // The institution's one registered student answers first, so nobody is left who has not.
      const email = serial === 1 ? cast.studentA.email : `student${serial}@north.edu`;
      await addSubmission(ctx.db.kysely, {
        institutionId: cast.a.id,
        email,
        name: `Student ${serial}`,
        at: Date.now() - 60_000,
        tier: options.tier,
        answers: [
          { question: questions.stress, value: options.stress ?? 3 },
          { question: questions.safety, value: options.tier === 'urgent' ? 4 : 1 },
        ],
      });
    }
  }

  const dashboardOf = async (role: keyof typeof agents) => {
    const response = await agents[role].get<DashboardData>('/api/dashboard/');
    expect(response.status).toBe(200);
    return response.body;
  };

  const setThreshold = async (threshold: unknown) => {
    const current = (await agents.admin.get<InstitutionSettingsResponse>('/api/institution/settings/')).body;
    const { success: _, ...settings } = current;
    return agents.admin.request<InstitutionSettingsResponse>({
      method: 'PUT',
      url: '/api/institution/settings/',
      payload: { ...settings, small_group_threshold: threshold },
    });
  };

  it.each([1, 2, 3, 4, 5, 6])(
    'with %i flagged students of 10 more, a viewer sees the count only from 5, and never the stable count beside a hidden one',
    async (flagged) => {
      await addStudents(10, { tier: 'none' });
      await addStudents(flagged, { tier: 'urgent' });
      const viewer = await dashboardOf('viewer');
      expect(viewer.num_students).toBe(10 + flagged);
      if (flagged < 5) {
        expect(viewer.num_flagged_students).toEqual(FEWER_THAN_5);
        // Everyone minus the stable students would give the flagged ones: the stable count hides too.
        expect(viewer.num_stable_students).toEqual(FEWER_THAN_5);
      } else {
        expect(viewer.num_flagged_students).toBe(flagged);
        expect(viewer.num_stable_students).toBe(10);
      }
      expect(viewer.small_group_threshold).toBe(5);
      // No case was opened: nought is a small group too, and so are the times over no case.
      expect(viewer.follow_up.open_cases).toEqual(FEWER_THAN_5);
      expect(viewer.follow_up.time_to_acknowledge).toEqual({
        count: FEWER_THAN_5,
        median_ms: FEWER_THAN_5,
        p90_ms: FEWER_THAN_5,
      });
      expect(viewer.monthly_num_responses.at(-1)).toBe(10 + flagged);
      expect(viewer.monthly_num_responses.at(-2)).toEqual(FEWER_THAN_5);

      // Staff who may see the names keep their lists and every figure.
      for (const role of ['admin', 'counsellor'] as const) {
        const full = await dashboardOf(role);
        expect(full.num_flagged_students).toBe(flagged);
        expect(full.num_stable_students).toBe(10);
        expect(full.flagged_students).toHaveLength(flagged);
        expect(full.follow_up.open_cases).toBe(0);
        expect(JSON.stringify(full)).not.toContain('suppressed');
      }
    },
  );

  it.each([1, 2, 3, 4, 5, 6])(
    'with %i students in a PHQ-9 band, a viewer gets their count from GET /api/dashboard/instruments/ only from 5',
    async (moderate) => {
      const added = await agents.admin.post<{ question: { id: number } }>(
        `/api/survey-templates/${questions.templateId}/instruments/`,
        { instrument_id: 'phq9', order: 50 },
      );
      expect(added.status).toBe(201);
      const items = INSTRUMENTS.phq9.items;
      const phq9 = (answers: InstrumentAnswers) => [
        { questionId: added.body.question.id, instrumentId: 'phq9' as const, answers },
      ];
      const answerPhq9 = async (count: number, answers: InstrumentAnswers) => {
        for (let i = 0; i < count; i++) {
          serial += 1;
          await addSubmission(ctx.db.kysely, {
            institutionId: cast.a.id,
            email: `student${serial}@north.edu`,
            name: `Student ${serial}`,
            at: Date.now() - 60_000,
            tier: 'none',
            answers: [{ question: questions.stress, value: 3 }],
            instruments: phq9(answers),
          });
        }
      };
      await answerPhq9(5, answersAll(items, 0));
      await answerPhq9(moderate, { ...answersAll(items, 1), phq9_1: 3, phq9_2: 3, phq9_3: 3, phq9_9: 0 });
      const bandsOf = async (role: keyof typeof agents) => {
        const response = await agents[role].get<InstrumentBandMonths>('/api/dashboard/instruments/');
        expect(response.status).toBe(200);
        const [instrument] = response.body.instruments;
        return Object.fromEntries(
          (instrument?.months[0]?.bands ?? []).map((band) => [band.band, band.students]),
        );
      };
      // The month's students are shown beside the bands they add up to, so a hidden band takes
      // the other with it: the students minus the minimal band would give it.
      expect(await bandsOf('viewer')).toEqual({
        'minimal depression': moderate < 5 ? FEWER_THAN_5 : 5,
        'moderate depression': moderate < 5 ? FEWER_THAN_5 : moderate,
      });
      for (const role of ['admin', 'counsellor'] as const) {
        expect(await bandsOf(role)).toEqual({ 'minimal depression': 5, 'moderate depression': moderate });
      }
    },
  );

  it('hides a second group of a row when the row total and the rest would give the first away', async () => {
    // 15 students answered: 5 flagged and 10 stable, so the stress row's total is known.
    await addStudents(2, { tier: 'none', stress: 1 });
    await addStudents(6, { tier: 'none', stress: 3 });
    await addStudents(2, { tier: 'none', stress: 5 });
    await addStudents(5, { tier: 'urgent', stress: 5 });
    const viewer = await dashboardOf('viewer');
    expect([viewer.num_flagged_students, viewer.num_stable_students]).toEqual([5, 10]);
    expect(viewer.num_low_stress).toEqual(FEWER_THAN_5);
    // 15 - 6 - 7 would be the 2 with low stress: the next smallest group goes too.
    expect(viewer.num_moderate_stress).toEqual(FEWER_THAN_5);
    expect(viewer.num_high_stress).toBe(7);
    const admin = await dashboardOf('admin');
    expect([admin.num_low_stress, admin.num_moderate_stress, admin.num_high_stress]).toEqual([2, 6, 7]);
  });

  it('hides the flagged and stable counts when the total is small, and the rates over it', async () => {
    await addStudents(2, { tier: 'none' });
    await addStudents(1, { tier: 'urgent' });
    const viewer = await dashboardOf('viewer');
    expect(viewer).toMatchObject({
      num_students: FEWER_THAN_5,
      num_flagged_students: FEWER_THAN_5,
      num_stable_students: FEWER_THAN_5,
      num_responses: FEWER_THAN_5,
      response_rate: FEWER_THAN_5,
    });
    expect(viewer.monthly_response_rates.at(-1)).toEqual(FEWER_THAN_5);
    expect(await dashboardOf('counsellor')).toMatchObject({
      num_students: 3,
      num_flagged_students: 1,
      response_rate: 100,
    });
  });

  it("follows the institution's threshold: lower shows more, higher hides more", async () => {
    await addStudents(6, { tier: 'none' });
    await addStudents(3, { tier: 'urgent' });
    expect((await dashboardOf('viewer')).num_flagged_students).toEqual(FEWER_THAN_5);

    const lowered = await setThreshold(3);
    expect(lowered.status).toBe(200);
    expect(lowered.body.small_group_threshold).toBe(3);
    const atThree = await dashboardOf('viewer');
    expect([atThree.num_flagged_students, atThree.num_stable_students]).toEqual([3, 6]);
    expect(atThree.small_group_threshold).toBe(3);

    expect((await setThreshold(7)).status).toBe(200);
    const atSeven = await dashboardOf('viewer');
    expect(atSeven.num_flagged_students).toEqual({ suppressed: true, fewer_than: 7 });
    expect(atSeven.num_stable_students).toEqual({ suppressed: true, fewer_than: 7 });
    expect(atSeven.num_students).toBe(9);
    // Another institution keeps its own.
    const south = new TestAgent(ctx.app);
    await south.signInDirectly(ctx.db, cast.adminB.email);
    expect(
      (await south.get<InstitutionSettingsResponse>('/api/institution/settings/')).body.small_group_threshold,
    ).toBe(5);
  });

  it.each([
    [2, 'small_group_threshold must be at least 3'],
    [0, 'small_group_threshold must be at least 3'],
    [3.5, 'small_group_threshold must be a whole number of students'],
    ['ten', 'small_group_threshold must be a number'],
    [null, 'small_group_threshold must be a number'],
  ])('refuses a threshold of %o with a clear 400 and keeps the one set', async (threshold, message) => {
    const response = await setThreshold(threshold);
    expect(response.status).toBe(400);
    expect((response.body as unknown as { message: string }).message).toContain(message);
    const row = await ctx.db.kysely
      .selectFrom('institutions')
      .select('small_group_threshold')
      .where('id', '=', cast.a.id)
      .executeTakeFirstOrThrow();
    expect(row.small_group_threshold).toBe(5);
  });

  it('keeps the threshold when a saved form does not send it', async () => {
    expect((await setThreshold(8)).status).toBe(200);
    const current = (await agents.admin.get<InstitutionSettingsResponse>('/api/institution/settings/')).body;
    const { success: _, small_group_threshold: __, ...rest } = current;
    const saved = await agents.admin.request<InstitutionSettingsResponse>({
      method: 'PUT',
      url: '/api/institution/settings/',
      payload: rest,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.small_group_threshold).toBe(8);
  });

  it('sends a viewer the live dashboard suppressed, and the count once the group is large enough', async () => {
    expect((await setThreshold(3)).status).toBe(200);
    await addStudents(6, { tier: 'none' });
    await addStudents(2, { tier: 'urgent' });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    const viewer = await EventStreamClient.open(baseUrl, `sessionid=${agents.viewer.jar.get('sessionid')}`);
    const admin = await EventStreamClient.open(baseUrl, `sessionid=${agents.admin.jar.get('sessionid')}`);
    try {
      const [first] = await viewer.waitForEvents(1, 5_000);
      expect(first?.data.num_flagged_students).toEqual({ suppressed: true, fewer_than: 3 });
      expect(first?.data.num_stable_students).toEqual({ suppressed: true, fewer_than: 3 });
      await admin.waitForEvents(1, 5_000);
      await addStudents(1, { tier: 'urgent' });
      const [, second] = await viewer.waitForEvents(2, 5_000);
      expect(second?.data.num_flagged_students).toBe(3);
      expect(second?.data.num_stable_students).toBe(6);
      const [adminFirst] = admin.events;
      expect(adminFirst?.data.num_flagged_students).toBe(2);
    } finally {
      viewer.close();
      admin.close();
    }
  });
});
