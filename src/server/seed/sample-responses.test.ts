import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../test/helpers/databases';
import { DAY } from '../lib/time';
import { seedDemo } from './demo';
import { sampleResponsesSeeder } from './sample-responses';

const DEMO_TEST_PASSWORD = 'Quiet-Meadow-Compass-17';
const DEMO_MAIL = { brandName: 'Wellspring', linkBase: 'http://localhost:8000' };

describe.each(TEST_DIALECTS)('demo sample responses on %s', (dialect) => {
  let ctx: TestContext;

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    await seedDemo(ctx.db.kysely, {
      password: DEMO_TEST_PASSWORD,
      seedResponses: sampleResponsesSeeder(DEMO_MAIL),
    });
  });

  afterEach(async () => {
    await ctx.close();
  });

  /** Each respondent's latest submission. */
  async function latestTiers() {
    const rows = await ctx.db.kysely
      .selectFrom('submissions')
      .select(['respondent_id', 'tier', 'created_at', 'id'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const latest = new Map<number, string>();
    for (const row of rows) latest.set(row.respondent_id, row.tier);
    return [...latest.values()];
  }

  it('spreads varied, back-dated submissions over several months, stored with their answers', async () => {
    const submissions = await ctx.db.kysely.selectFrom('submissions').select(['id', 'created_at']).execute();
    expect(submissions.length).toBeGreaterThan(50);
    const months = new Set(submissions.map((s) => new Date(s.created_at).toISOString().slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(4);
    expect(Math.min(...submissions.map((s) => s.created_at))).toBeLessThan(Date.now() - 120 * DAY);
    expect(Math.max(...submissions.map((s) => s.created_at))).toBeLessThanOrEqual(Date.now());
    const answers = await ctx.db.kysely.selectFrom('answers').select('id').execute();
    expect(answers).toHaveLength(submissions.length * 7);
  });

  it('asks a PHQ-9 and a GAD-7 after the survey questions, and stores their scores with every sample', async () => {
    const questions = await ctx.db.kysely
      .selectFrom('questions')
      .innerJoin('active_templates', 'active_templates.template_id', 'questions.template_id')
      .select(['question_type', 'instrument_id'])
      .orderBy('position')
      .execute();
    expect(questions).toHaveLength(9);
    expect(questions.slice(7)).toEqual([
      { question_type: 'instrument', instrument_id: 'phq9' },
      { question_type: 'instrument', instrument_id: 'gad7' },
    ]);
    const submissions = await ctx.db.kysely.selectFrom('submissions').select('id').execute();
    const results = await ctx.db.kysely
      .selectFrom('instrument_results')
      .select(['instrument_id', 'tier'])
      .execute();
    expect(results).toHaveLength(submissions.length * 2);
    // Struggling students' answers reach the elevated bands.
    expect(results.some((result) => result.tier === 'elevated')).toBe(true);
  });

  it('leaves one urgent student, several elevated ones and a majority doing fine', async () => {
    const tiers = await latestTiers();
    expect(tiers.filter((tier) => tier === 'urgent')).toHaveLength(1);
    expect(tiers.filter((tier) => tier === 'elevated').length).toBeGreaterThanOrEqual(3);
    expect(tiers.filter((tier) => tier === 'none' || tier === 'monitor').length).toBeGreaterThan(
      tiers.length / 2,
    );
  });

  it('includes the demo student, and the dashboard shows the flagged students urgent first', async () => {
    const demo = await ctx.db.kysely
      .selectFrom('submissions')
      .select('id')
      .where('school_email', '=', 'student@demo.edu')
      .execute();
    expect(demo.length).toBeGreaterThan(0);
    const admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, 'admin@demo.edu');
    const dashboard = await admin.get<{
      num_responses: number;
      num_flagged_students: number;
      flagged_students: string[][];
    }>('/api/dashboard/');
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.num_flagged_students).toBeGreaterThanOrEqual(4);
    const urgent = await ctx.db.kysely
      .selectFrom('submissions')
      .select(['student_name', 'school_email'])
      .where('tier', '=', 'urgent')
      .executeTakeFirstOrThrow();
    expect(dashboard.body.flagged_students[0]).toEqual([urgent.student_name, urgent.school_email]);
  });

  it('opens a case for each flagged student, as a live submission would, some already worked on', async () => {
    // The work is the admin's, in the audit log like any other (read before this test's own reads).
    const audited = await ctx.db.kysely
      .selectFrom('audit_log')
      .select('action')
      .where('action', 'like', 'case.%')
      .execute();
    expect(audited.map((entry) => entry.action).sort()).toEqual(
      ['case.acknowledge', 'case.acknowledge', 'case.note', 'case.note', 'case.resolve'].sort(),
    );

    const admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, 'admin@demo.edu');
    const list = await admin.get<{ cases: { tier: string; status: string; school_email: string }[] }>(
      '/api/cases/?status=all',
    );
    expect(list.status).toBe(200);
    const flagged = (await latestTiers()).filter((tier) => tier === 'urgent' || tier === 'elevated');
    expect(list.body.cases).toHaveLength(flagged.length);
    const statuses = list.body.cases.map((row) => row.status);
    expect(statuses.filter((status) => status === 'resolved')).toHaveLength(1);
    expect(statuses.filter((status) => status === 'in_progress')).toHaveLength(1);
    expect(list.body.cases.find((row) => row.tier === 'urgent')?.status).toBe('new');
    // The answers are back-dated, but the cases wait like new ones: none is overdue yet.
    const deadlines = await ctx.db.kysely
      .selectFrom('cases')
      .select(['opened_at', 'acknowledge_by'])
      .execute();
    expect(deadlines.length).toBe(flagged.length);
    for (const { opened_at, acknowledge_by } of deadlines) expect(acknowledge_by).toBeGreaterThan(opened_at);

    // The urgent case's alert waits in the outbox for the admin, as after a live submission.
    const alerts = await ctx.db.kysely
      .selectFrom('case_mails')
      .innerJoin('mail_outbox', 'mail_outbox.id', 'case_mails.mail_id')
      .select('mail_outbox.to_address')
      .where('case_mails.kind', '=', 'alert')
      .execute();
    expect(alerts).toEqual([{ to_address: 'admin@demo.edu' }]);

    const dashboard = await admin.get<{ follow_up: { open_cases: number } }>('/api/dashboard/');
    expect(dashboard.body.follow_up.open_cases).toBe(flagged.length - 1);
  });
});
