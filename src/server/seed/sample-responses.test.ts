import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../test/helpers/databases';
import type { FollowUpFigures } from '../../common/schemas/dashboard';
import { DEFAULT_ELEVATED_ACK_MINUTES, DEFAULT_URGENT_ACK_MINUTES } from '../../common/schemas/settings';
import { DAY, MINUTE } from '../lib/time';
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
      // The newest: earlier urgent check-ins were followed up and are past.
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(dashboard.body.flagged_students[0]).toEqual([urgent.student_name, urgent.school_email]);
  });

  it('opens a case for each flagged student, as a live submission would, some already worked on', async () => {
    const admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, 'admin@demo.edu');
    const open = await admin.get<{ cases: { tier: string; status: string }[] }>('/api/cases/?status=open');
    expect(open.status).toBe(200);
    const flagged = (await latestTiers()).filter((tier) => tier === 'urgent' || tier === 'elevated');
    // Every flagged student has an open case but the one whose case was resolved.
    expect(open.body.cases).toHaveLength(flagged.length - 1);
    const statuses = open.body.cases.map((row) => row.status);
    expect(statuses.filter((status) => status === 'in_progress')).toHaveLength(1);
    expect(open.body.cases.find((row) => row.tier === 'urgent')?.status).toBe('new');
    // Earlier episodes were followed up at the time, and closed.
    const resolved = await admin.get<{ total: number }>('/api/cases/?status=resolved');
    expect(resolved.body.total).toBeGreaterThanOrEqual(4);

    // The cases still waiting wait like new ones: none is overdue yet.
    const waiting = await ctx.db.kysely
      .selectFrom('cases')
      .select(['opened_at', 'acknowledge_by'])
      .where('status', '=', 'new')
      .execute();
    for (const { acknowledge_by } of waiting) expect(acknowledge_by).toBeGreaterThan(Date.now());

    // The urgent check-in that has just come in: its alert waits in the outbox for the admin.
    const pending = await ctx.db.kysely
      .selectFrom('case_mails')
      .innerJoin('mail_outbox', 'mail_outbox.id', 'case_mails.mail_id')
      .select('mail_outbox.to_address')
      .where('case_mails.kind', '=', 'alert')
      .where('mail_outbox.status', '=', 'pending')
      .execute();
    expect(pending).toEqual([{ to_address: 'admin@demo.edu' }]);

    const dashboard = await admin.get<{ follow_up: { open_cases: number; overdue_cases: number } }>(
      '/api/dashboard/',
    );
    expect(dashboard.body.follow_up).toMatchObject({ open_cases: flagged.length - 1, overdue_cases: 0 });
  });

  it('shows the figures of a working institution: alerts seconds after check-ins, acknowledgements within deadlines', async () => {
    const admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, 'admin@demo.edu');
    const dashboard = await admin.get<{ follow_up: FollowUpFigures }>('/api/dashboard/');
    const { time_to_alert_sent: alerts, time_to_acknowledge: acknowledgements } = dashboard.body.follow_up;
    // Several alerts and acknowledgements, so the median and 90th percentile mean something.
    expect(alerts.count).toBeGreaterThanOrEqual(3);
    expect(acknowledgements.count).toBeGreaterThanOrEqual(6);
    expect(alerts.median_ms).toBeGreaterThan(0);
    expect(alerts.median_ms).toBeLessThan(MINUTE);
    expect(alerts.p90_ms).toBeLessThan(MINUTE);
    expect(acknowledgements.median_ms).toBeGreaterThan(MINUTE);
    expect(acknowledgements.median_ms).toBeLessThan(DEFAULT_ELEVATED_ACK_MINUTES * MINUTE);
    expect(acknowledgements.p90_ms).toBeLessThan(DEFAULT_ELEVATED_ACK_MINUTES * MINUTE);

    // Every acknowledged case was picked up within its own deadline, an urgent one within its hour.
    const acknowledged = await ctx.db.kysely
      .selectFrom('cases')
      .select(['tier', 'first_submitted_at', 'acknowledged_at', 'acknowledge_by', 'resolved_at'])
      .where('acknowledged_at', 'is not', null)
      .execute();
    for (const row of acknowledged) {
      const after = Number(row.acknowledged_at) - row.first_submitted_at;
      expect(after).toBeGreaterThan(0);
      expect(Number(row.acknowledged_at)).toBeLessThanOrEqual(row.acknowledge_by);
      if (row.tier === 'urgent') expect(after).toBeLessThanOrEqual(DEFAULT_URGENT_ACK_MINUTES * MINUTE);
      if (row.resolved_at !== null)
        expect(Number(row.resolved_at)).toBeGreaterThan(Number(row.acknowledged_at));
    }
    // Nothing in the trail happens before the check-in or after now.
    const events = await ctx.db.kysely
      .selectFrom('case_events')
      .innerJoin('cases', 'cases.id', 'case_events.case_id')
      .select(['case_events.at', 'cases.first_submitted_at'])
      .execute();
    for (const event of events) {
      expect(event.at).toBeGreaterThanOrEqual(event.first_submitted_at);
      expect(event.at).toBeLessThanOrEqual(Date.now());
    }
  });
});
