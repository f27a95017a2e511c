import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { campaignRequest } from '../../../../test/helpers/campaigns';
import { activeQuestions, addSubmission, rollupSnapshot } from '../../../../test/helpers/dashboard-data';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { makeTwoInstitutions, makeUser } from '../../../../test/helpers/factories';
import type { AnonymousResultsResponse, Campaign } from '../../../common/schemas/campaigns';
import type { RetentionSettingsResponse } from '../../../common/schemas/retention';
import type { SubmitSurveyResponse, SurveyQuestion } from '../../../common/schemas/surveys';
import { HOUR } from '../../lib/time';
import { rebuildDashboardRollups } from '../dashboard';
import { monthsBefore } from './policy';
import { nextPurgeAt } from './purge';

const DAY = 24 * HOUR;

describe.each(TEST_DIALECTS)('the daily retention purge on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let admin: TestAgent;
  /** The purge the app scheduled when it started. */
  let purgeAt: number;
  const ago = (months: number) => monthsBefore(purgeAt, months);

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, cast.adminA.email);
    purgeAt = nextPurgeAt(Date.now());
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function submit(institutionId: number, email: string, at: number) {
    const q = await activeQuestions(ctx.db.kysely, institutionId);
    return addSubmission(ctx.db.kysely, {
      institutionId,
      email,
      name: email.split('@')[0] as string,
      at,
      tier: 'none',
      templateId: q.templateId,
      answers: [
        { question: q.sleep, value: 4 },
        { question: q.stress, value: 2 },
      ],
    });
  }

  /** A case of the submission's student, resolved at `resolvedAt`, whose opening names the submission. */
  async function resolvedCase(institutionId: number, submissionId: number, resolvedAt: number) {
    const submission = await ctx.db.kysely
      .selectFrom('submissions')
      .select(['respondent_id', 'created_at'])
      .where('id', '=', submissionId)
      .executeTakeFirstOrThrow();
    const opened = Number(submission.created_at);
    const row = await ctx.db.kysely
      .insertInto('cases')
      .values({
        institution_id: institutionId,
        respondent_id: submission.respondent_id,
        open_respondent_id: null,
        tier: 'elevated',
        status: 'resolved',
        verified_at: opened,
        first_submitted_at: opened,
        opened_at: opened,
        acknowledge_by: opened + DAY,
        next_escalation_at: null,
        acknowledged_at: opened + HOUR,
        acknowledged_by: null,
        assigned_to: null,
        resolved_at: resolvedAt,
        outcome: 'no_further_action',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db.kysely
      .insertInto('case_events')
      .values({
        case_id: row.id,
        kind: 'opened',
        actor_user_id: null,
        actor_name: null,
        submission_id: submissionId,
        detail: null,
        at: opened,
      })
      .execute();
    return row.id;
  }

  const submissionIds = async () =>
    (await ctx.db.kysely.selectFrom('submissions').select('id').orderBy('id').execute()).map((row) => row.id);
  const answersOf = async (submissionId: number) =>
    (
      await ctx.db.kysely
        .selectFrom('answers')
        .select('id')
        .where('submission_id', '=', submissionId)
        .execute()
    ).length;
  const caseIds = async () =>
    (await ctx.db.kysely.selectFrom('cases').select('id').orderBy('id').execute()).map((row) => row.id);
  const auditIds = async (institutionId: number) =>
    (
      await ctx.db.kysely
        .selectFrom('audit_log')
        .select('id')
        .where('institution_id', '=', institutionId)
        .orderBy('id')
        .execute()
    ).map((row) => row.id);
  const auditEntryAt = async (institutionId: number, at: number) =>
    (
      await ctx.db.kysely
        .insertInto('audit_log')
        .values({
          institution_id: institutionId,
          actor_user_id: null,
          actor_email: null,
          action: 'settings.read',
          subject_type: null,
          subject_id: null,
          detail: null,
          address: null,
          at,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const runPurge = () => ctx.app.jobs.runDue(() => purgeAt);

  it('removes what has expired, keeps the rest, shows it beforehand, and leaves the rollups equal to a recount', async () => {
    const old = await submit(cast.a.id, 'old@north.edu', ago(25));
    const recent = await submit(cast.a.id, 'recent@north.edu', ago(23));
    const oldOfRecentCase = await submit(cast.a.id, 'kept@north.edu', ago(30));
    const recentCase = await resolvedCase(cast.a.id, oldOfRecentCase, ago(1));
    const oldOfOldCase = await submit(cast.a.id, 'closed@north.edu', ago(30));
    const oldCase = await resolvedCase(cast.a.id, oldOfOldCase, ago(25));
    const otherInstitution = await submit(cast.b.id, 'old@south.edu', ago(25));
    await ctx.db.kysely
      .updateTable('institutions')
      .set({ answers_retention_months: 36 })
      .where('id', '=', cast.b.id)
      .execute();
    const ancientAudit = await auditEntryAt(cast.a.id, ago(85));
    const yearOldAudit = await auditEntryAt(cast.a.id, ago(12));

    const preview = await admin.get<RetentionSettingsResponse>('/api/institution/retention/');
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      answers_months: 24,
      closed_cases_months: 24,
      audit_log_months: 84,
      next_purge: {
        at: new Date(purgeAt).toISOString(),
        submissions: { count: 2, before: new Date(ago(24)).toISOString() },
        closed_cases: { count: 1, before: new Date(ago(24)).toISOString() },
        audit_log: { count: 1, before: new Date(ago(84)).toISOString() },
        held_students: 0,
      },
    });
    const responsesBefore = (await rollupSnapshot(ctx.db.kysely, cast.a.id)).totals?.responses;
    expect(responsesBefore).toBe(4);

    expect(await runPurge()).toBe(1);

    expect(await submissionIds()).toEqual([recent, oldOfRecentCase, otherInstitution].sort((x, y) => x - y));
    expect(await answersOf(old)).toBe(0);
    expect(await answersOf(recent)).toBe(2);
    expect(await caseIds()).toEqual([recentCase]);
    expect(await caseIds()).not.toContain(oldCase);
    const audit = await auditIds(cast.a.id);
    expect(audit).not.toContain(ancientAudit);
    expect(audit).toContain(yearOldAudit);
    const purged = await ctx.db.kysely
      .selectFrom('audit_log')
      .select(['detail', 'actor_user_id'])
      .where('institution_id', '=', cast.a.id)
      .where('action', '=', 'retention.purge')
      .execute();
    expect(purged).toHaveLength(1);
    expect(JSON.parse(purged[0]?.detail ?? '{}')).toMatchObject({
      answers: 2,
      closed_cases: 1,
      audit_log: 1,
    });

    const afterPurge = await rollupSnapshot(ctx.db.kysely, cast.a.id);
    expect(afterPurge.totals?.responses).toBe(2);
    await rebuildDashboardRollups(ctx.db.kysely, cast.a.id);
    expect(await rollupSnapshot(ctx.db.kysely, cast.a.id)).toEqual(afterPurge);
    expect((await rollupSnapshot(ctx.db.kysely, cast.b.id)).totals?.responses).toBe(1);

    // The next day's purge is scheduled by this one, and finds nothing more to do.
    const next = await ctx.db.kysely
      .selectFrom('jobs')
      .select('run_at')
      .where('kind', '=', 'retention-purge')
      .where('status', '=', 'pending')
      .execute();
    expect(next.map((row) => Number(row.run_at))).toEqual([purgeAt + DAY]);
  });

  /** A roster of four in Year 1 answers an anonymous campaign sent now; their replies, in order. */
  async function answerAnonymously() {
    const roster = [
      'name,email,group',
      ...['ann', 'bo', 'cy', 'dee'].map((n) => `${n},${n}@north.edu,Year 1`),
    ];
    const upload = await admin.request({
      method: 'POST',
      url: '/api/roster/',
      payload: roster.join('\n'),
      headers: { 'content-type': 'text/csv' },
    });
    expect(upload.status, upload.text).toBe(200);
    const { template_id } = await ctx.db.kysely
      .selectFrom('active_templates')
      .select('template_id')
      .where('institution_id', '=', cast.a.id)
      .executeTakeFirstOrThrow();
    const created = await admin.post<{ campaign: Campaign }>(
      '/api/campaigns/',
      campaignRequest(template_id, ['Year 1'], { send_now: true, anonymous: true }),
    );
    expect(created.status, created.text).toBe(201);
    await ctx.app.jobs.runDue();
    const mails = await ctx.db.kysely.selectFrom('mail_outbox').select(['to_address', 'body']).execute();
    const replies: SubmitSurveyResponse[] = [];
    for (const student of ['ann', 'bo', 'cy', 'dee']) {
      const mail = mails.find((candidate) => candidate.to_address === `${student}@north.edu`);
      const token = mail?.body.match(/\/survey\/invite\/([A-Za-z0-9_-]+)\//)?.[1];
      const visitor = new TestAgent(ctx.app);
      const survey = await visitor.get<{ questions: SurveyQuestion[] }>(`/api/survey/invite/${token}/`);
      expect(survey.status, survey.text).toBe(200);
      const answers = Object.fromEntries(
        survey.body.questions.map((q) => [String(q.id), q.question_type === 'text' ? 'Fine.' : '3']),
      );
      const sent = await visitor.post<SubmitSurveyResponse>(`/api/survey/invite/${token}/`, { answers });
      expect(sent.status, sent.text).toBe(200);
      replies.push(sent.body);
    }
    return { campaignId: created.body.campaign.id, replies };
  }

  it('purges anonymous answers by their day, what a student shared with the case it opened, and offers never taken up', async () => {
    const { campaignId, replies } = await answerAnonymously();
    const [ann, bo, , dee] = replies;
    const asked = async (body: object) =>
      expect((await new TestAgent(ctx.app).post('/api/survey/contact/', body)).status).toBe(200);
    await asked({
      contact_token: ann?.contact_token,
      name: 'Ann',
      phone: '+1 555 0100',
      share_answers: true,
    });
    await asked({ contact_token: bo?.contact_token, email: 'bo.private@example.org' });
    const [oldCase, keptCase] = await caseIds();
    expect(await ctx.db.kysely.selectFrom('case_contacts').select('case_id').execute()).toHaveLength(2);
    await ctx.db.kysely
      .updateTable('cases')
      .set({
        status: 'resolved',
        open_respondent_id: null,
        resolved_at: ago(25),
        outcome: 'no_further_action',
      })
      .where('id', '=', oldCase as number)
      .execute();

    // Ann's and Bo's answers were sent 25 months before the purge; Cy's on the first day still kept.
    const sent = (
      await ctx.db.kysely.selectFrom('anonymous_submissions').select('id').orderBy('id').execute()
    ).map((row) => row.id);
    const dated = async (id: number | undefined, at: number) =>
      ctx.db.kysely
        .updateTable('anonymous_submissions')
        .set({ sent_on: at - (at % DAY) })
        .where('id', '=', id as number)
        .execute();
    await dated(sent[0], ago(25));
    await dated(sent[1], ago(25));
    await dated(sent[2], ago(24));
    // Cy's offer lapsed unused before the purge; Dee's is still good when it runs.
    const offerOf = (id: number | undefined, expiresAt: number) =>
      ctx.db.kysely
        .updateTable('contact_offers')
        .set({ expires_at: expiresAt })
        .where('submission_id', '=', id as number)
        .execute();
    await offerOf(sent[2], purgeAt - HOUR);
    await offerOf(sent[3], purgeAt + HOUR);
    expect(dee?.contact_token).toBeDefined();

    const preview = await admin.get<RetentionSettingsResponse>('/api/institution/retention/');
    expect(preview.body.next_purge).toMatchObject({
      anonymous_answers: { count: 2, before: new Date(ago(24) - (ago(24) % DAY)).toISOString() },
      closed_cases: { count: 1 },
    });

    // Other jobs fall due by then too (the open case's escalation): the purge is among them.
    expect(await runPurge()).toBeGreaterThanOrEqual(1);

    const left = await ctx.db.kysely.selectFrom('anonymous_submissions').select('id').orderBy('id').execute();
    expect(left.map((row) => row.id)).toEqual([sent[2], sent[3]]);
    const answerRows = await ctx.db.kysely
      .selectFrom('anonymous_answers')
      .select('submission_id')
      .distinct()
      .orderBy('submission_id')
      .execute();
    expect(answerRows.map((row) => row.submission_id)).toEqual([sent[2], sent[3]]);
    const offers = await ctx.db.kysely.selectFrom('contact_offers').select('submission_id').execute();
    expect(offers.map((row) => row.submission_id)).toEqual([sent[3]]);
    expect(await caseIds()).toEqual([keptCase]);
    expect(await ctx.db.kysely.selectFrom('case_contacts').select(['case_id', 'email']).execute()).toEqual([
      { case_id: keptCase, email: 'bo.private@example.org' },
    ]);
    // The phone number Ann gave is kept nowhere once her case is gone; Bo's address stays with his.
    const respondents = await ctx.db.kysely.selectFrom('respondents').select('email').execute();
    expect(respondents.map((row) => row.email)).toEqual(['bo.private@example.org']);
    const entry = await ctx.db.kysely
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'retention.purge')
      .where('institution_id', '=', cast.a.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(entry.detail ?? '{}')).toMatchObject({
      anonymous_answers: 2,
      contact_offers: 1,
      closed_cases: 1,
    });

    // The results are a count of what is left.
    const results = await admin.get<AnonymousResultsResponse>(`/api/campaigns/${campaignId}/results/`);
    expect(results.status, results.text).toBe(200);
    expect(results.body.answered).toBe(2);
    // The next day's purge takes Cy's, whose day is now past the period, and Dee's lapsed offer.
    purgeAt += DAY;
    await runPurge();
    expect(await ctx.db.kysely.selectFrom('contact_offers').select('submission_id').execute()).toEqual([]);
    const after = await ctx.db.kysely.selectFrom('anonymous_submissions').select('id').execute();
    expect(after.map((row) => row.id)).toEqual([sent[3]]);
    const recount = await admin.get<AnonymousResultsResponse>(`/api/campaigns/${campaignId}/results/`);
    expect(recount.body.answered).toBe(1);
  });

  it('keeps everything of a student under a legal hold, and purges it once the hold is lifted', async () => {
    const held = await submit(cast.a.id, 'held@north.edu', ago(30));
    const heldCase = await resolvedCase(cast.a.id, held, ago(25));
    const free = await submit(cast.a.id, 'free@north.edu', ago(30));
    const placed = await admin.post<{ hold: { id: number } }>('/api/legal-holds/', {
      email: 'Held@North.edu',
      reason: 'Records request from counsel',
    });
    expect(placed.status).toBe(200);
    const again = await admin.post('/api/legal-holds/', { email: 'held@north.edu', reason: 'Twice' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ message: 'This student is already under a legal hold' });

    const preview = await admin.get<RetentionSettingsResponse>('/api/institution/retention/');
    expect(preview.body.next_purge).toMatchObject({
      submissions: { count: 1 },
      closed_cases: { count: 0 },
      held_students: 1,
    });

    await runPurge();
    expect(await submissionIds()).toEqual([held]);
    expect(await caseIds()).toEqual([heldCase]);
    expect(await submissionIds()).not.toContain(free);

    const lifted = await admin.post(`/api/legal-holds/${placed.body.hold.id}/lift/`, {
      reason: 'Matter closed',
    });
    expect(lifted.status).toBe(200);
    const actions = (
      await ctx.db.kysely
        .selectFrom('audit_log')
        .select(['action', 'detail'])
        .where('action', 'like', 'legal_hold.%')
        .orderBy('id')
        .execute()
    ).map((row) => ({ action: row.action, detail: JSON.parse(row.detail ?? '{}') }));
    expect(actions).toEqual([
      {
        action: 'legal_hold.place',
        detail: { email: 'held@north.edu', reason: 'Records request from counsel' },
      },
      { action: 'legal_hold.lift', detail: { email: 'held@north.edu', reason: 'Matter closed' } },
    ]);

    purgeAt += DAY;
    await runPurge();
    expect(await submissionIds()).toEqual([]);
    expect(await caseIds()).toEqual([]);
  });

  it('saves valid periods with an audit entry, refuses bad ones with a message, and only for admins', async () => {
    const saved = await admin.request<RetentionSettingsResponse>({
      method: 'PUT',
      url: '/api/institution/retention/',
      payload: { answers_months: 12, closed_cases_months: 36, audit_log_months: 120 },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ answers_months: 12, closed_cases_months: 36, audit_log_months: 120 });
    const entry = await ctx.db.kysely
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'retention.update')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(entry.detail ?? '{}')).toEqual({
      before: { answers_months: 24, closed_cases_months: 24, audit_log_months: 84 },
      after: { answers_months: 12, closed_cases_months: 36, audit_log_months: 120 },
    });

    for (const [change, message] of [
      [{ answers_months: 0 }, 'answers_months must be at least 1 month'],
      [{ closed_cases_months: 1.5 }, 'closed_cases_months must be a whole number of months'],
      [{ audit_log_months: 6 }, 'audit_log_months must be at least 12 months'],
      [{ answers_months: 241 }, 'answers_months must be at most 240 months'],
      [{ audit_log_months: '84' }, 'audit_log_months must be a number of months'],
    ] as const) {
      const refused = await admin.request({
        method: 'PUT',
        url: '/api/institution/retention/',
        payload: { ...{ answers_months: 12, closed_cases_months: 36, audit_log_months: 120 }, ...change },
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ success: false });
      expect(String((refused.body as { message: string }).message)).toContain(message);
    }
    const stored = await ctx.db.kysely
      .selectFrom('institutions')
      .select(['answers_retention_months', 'closed_cases_retention_months', 'audit_retention_months'])
      .where('id', '=', cast.a.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({
      answers_retention_months: 12,
      closed_cases_retention_months: 36,
      audit_retention_months: 120,
    });

    const counsellor = await makeUser(ctx.db.kysely, {
      email: 'counsellor@north.edu',
      role: 'counsellor',
      institutionId: cast.a.id,
    });
    const staff = new TestAgent(ctx.app);
    await staff.signInDirectly(ctx.db, counsellor.email);
    expect((await staff.get('/api/institution/retention/')).status).toBe(403);
    expect((await staff.get('/api/legal-holds/')).status).toBe(403);
  });
});
