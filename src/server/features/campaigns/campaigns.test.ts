import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { campaignRequest } from '../../../../test/helpers/campaigns';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, makeUser, TEST_PASSWORD } from '../../../../test/helpers/factories';
import type { Campaign, CampaignRequest } from '../../../common/schemas/campaigns';
import type { DashboardData } from '../../../common/schemas/dashboard';
import type { SurveyQuestion } from '../../../common/schemas/surveys';
import { DAY, HOUR, MINUTE } from '../../lib/time';
import { INVITATION_EXPIRED, INVITATION_NOT_FOUND, INVITATION_USED, wrongStudent } from './service';

/** Monday 23 November 2026, 08:00 in New York (institution A's time zone in these tests). */
const MONDAY_8AM = Date.UTC(2026, 10, 23, 13);
const MONDAY_9AM = MONDAY_8AM + HOUR;
const WEEK = 7 * DAY;

const ROSTER = [
  'name,email,group',
  'Ann Lee,ann@north.edu,Year 1',
  'Bo Chen,bo@north.edu,Year 1',
  'Sam North,student@north.edu,Year 1',
  'Dee Ray,dee@north.edu,Year 2',
].join('\n');

interface Mail {
  to_address: string;
  subject: string;
  body: string;
}

describe.each(TEST_DIALECTS)('campaigns on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let admin: TestAgent;
  let templateId: number;

  beforeEach(async () => {
    // Only Date is faked: the database drivers keep their real timers.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(MONDAY_8AM);
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    // Campaign times are read in the institution's time zone (Institution settings).
    await ctx.db.kysely
      .updateTable('institutions')
      .set({ time_zone: 'America/New_York' })
      .where('id', '=', cast.a.id)
      .execute();
    admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, cast.adminA.email);
    const upload = await admin.request({
      method: 'POST',
      url: '/api/roster/',
      payload: ROSTER,
      headers: { 'content-type': 'text/csv' },
    });
    expect(upload.status).toBe(200);
    const template = await ctx.db.kysely
      .selectFrom('active_templates')
      .select('template_id')
      .where('institution_id', '=', cast.a.id)
      .executeTakeFirstOrThrow();
    templateId = template.template_id;
  });
  afterEach(async () => {
    await ctx.close();
    vi.useRealTimers();
  });

  const request = (overrides: Partial<CampaignRequest> = {}) =>
    campaignRequest(templateId, ['Year 1'], overrides);
  const create = async (overrides: Partial<CampaignRequest> = {}) => {
    const response = await admin.post<{ campaign: Campaign }>('/api/campaigns/', request(overrides));
    expect(response.status, response.text).toBe(201);
    return response.body.campaign;
  };
  /** Runs the jobs due at `at` (the clock moves there first). */
  const runJobsAt = async (at: number) => {
    vi.setSystemTime(at);
    return ctx.app.jobs.runDue();
  };
  const mails = async (): Promise<Mail[]> =>
    ctx.db.kysely.selectFrom('mail_outbox').select(['to_address', 'subject', 'body']).orderBy('id').execute();
  const invitationMails = async () => (await mails()).filter((mail) => mail.body.includes('/survey/invite/'));
  const recipients = async () => (await invitationMails()).map((mail) => mail.to_address).sort();
  const tokenOf = (mail: Mail | undefined) => {
    const match = mail?.body.match(/\/survey\/invite\/([A-Za-z0-9_-]+)\//);
    if (!match?.[1]) throw new Error(`no invitation link in ${mail?.body}`);
    return match[1];
  };
  const latestTokenFor = async (email: string) =>
    tokenOf((await invitationMails()).filter((mail) => mail.to_address === email).at(-1));
  /** The admin signed in now: the clock moves by days in these tests, past any session's life. */
  const adminNow = async () => {
    const agent = new TestAgent(ctx.app);
    await agent.signInDirectly(ctx.db, cast.adminA.email);
    return agent;
  };
  const campaigns = async () => {
    const response = await (await adminNow()).get<{ campaigns: Campaign[] }>('/api/campaigns/');
    expect(response.status, response.text).toBe(200);
    return response.body.campaigns;
  };
  /** Calm answers to every question of the survey the link opens. */
  const invitationAnswers = async (token: string, agent: TestAgent) => {
    const survey = await agent.get<{ questions: SurveyQuestion[] }>(`/api/survey/invite/${token}/`);
    expect(survey.status, survey.text).toBe(200);
    return Object.fromEntries(
      survey.body.questions.map((question) => [
        String(question.id),
        question.question_type === 'text' ? 'Fine.' : '2',
      ]),
    );
  };
  const answerInvitation = async (token: string, agent = new TestAgent(ctx.app), extra: object = {}) => {
    const answers = await invitationAnswers(token, agent);
    return agent.post(`/api/survey/invite/${token}/`, { answers, ...extra });
  };

  it('sends now: one mail with a personal link to each student of the groups, once', async () => {
    const campaign = await create({ send_now: true });
    expect(campaign).toMatchObject({ status: 'active', groups: ['Year 1'], invited: 0, time: '9:00 AM' });
    expect(await runJobsAt(MONDAY_8AM)).toBeGreaterThan(0);
    expect(await recipients()).toEqual(['ann@north.edu', 'bo@north.edu', 'student@north.edu']);
    const [mail] = await invitationMails();
    expect(mail?.subject).toBe('Your Wellspring Health wellness check-in');
    expect(mail?.body).toContain('Hello ');
    expect(mail?.body).not.toMatch(/risk|tier/i);
    // Nothing runs twice: later passes find no work and send nothing more.
    await runJobsAt(MONDAY_8AM + MINUTE);
    await runJobsAt(MONDAY_8AM + HOUR);
    expect(await recipients()).toHaveLength(3);
    const [listed] = await campaigns();
    expect(listed).toMatchObject({
      id: campaign.id,
      status: 'finished',
      invited: 3,
      answered: 0,
      reminded: 0,
      rounds: 1,
    });
    const roster = await (await adminNow()).get<{
      students: { email: string; last_invited_at: string | null }[];
    }>('/api/roster/');
    expect(roster.body.students.find((s) => s.email === 'ann@north.edu')?.last_invited_at).toBe(
      new Date(MONDAY_8AM).toISOString(),
    );
    expect(roster.body.students.find((s) => s.email === 'dee@north.edu')?.last_invited_at).toBeNull();
  });

  it('schedules the first round at the day and time, and repeats it weekly', async () => {
    const campaign = await create({ recurring: true });
    expect(campaign.next_run_at).toBe(new Date(MONDAY_9AM).toISOString());
    await runJobsAt(MONDAY_9AM - MINUTE);
    expect(await recipients()).toEqual([]);
    await runJobsAt(MONDAY_9AM);
    expect(await recipients()).toHaveLength(3);
    const firstToken = await latestTokenFor('ann@north.edu');
    expect((await campaigns())[0]).toMatchObject({
      next_run_at: new Date(MONDAY_9AM + WEEK).toISOString(),
      last_run_at: new Date(MONDAY_9AM).toISOString(),
      rounds: 1,
    });

    await runJobsAt(MONDAY_9AM + WEEK);
    expect(await recipients()).toHaveLength(6);
    const secondToken = await latestTokenFor('ann@north.edu');
    expect(secondToken).not.toBe(firstToken);
    // The first round's link worked until this round began.
    expectError(
      await new TestAgent(ctx.app).get(`/api/survey/invite/${firstToken}/`),
      404,
      'NOT_FOUND',
      INVITATION_EXPIRED,
    );
    expect((await answerInvitation(secondToken)).status).toBe(200);
  });

  it('sends a Monday 9:00 AM New York campaign at 9:00 local on both sides of the DST change', async () => {
    // Thursday 26 February 2026; clocks go forward on Sunday 8 March (EST -5 to EDT -4).
    vi.setSystemTime(Date.UTC(2026, 1, 26, 15));
    admin = await adminNow();
    const campaign = await create({ recurring: true, reminder_after_days: 0 });
    expect(campaign.next_run_at).toBe('2026-03-02T14:00:00.000Z');
    const rounds: string[] = [];
    for (let week = 0; week < 3; week += 1) {
      const [current] = await campaigns();
      const due = Date.parse(current?.next_run_at ?? '');
      await runJobsAt(due - MINUTE);
      await runJobsAt(due);
      const invited = await ctx.db.kysely
        .selectFrom('campaign_invitations')
        .select('invited_at')
        .where('round', '=', week + 1)
        .execute();
      expect(invited).toHaveLength(3);
      rounds.push(new Date(Number(invited[0]?.invited_at)).toISOString());
    }
    // 9:00 EST is 14:00 UTC; 9:00 EDT is 13:00 UTC.
    expect(rounds).toEqual([
      '2026-03-02T14:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
      '2026-03-16T13:00:00.000Z',
    ]);
    expect(await recipients()).toHaveLength(9);
  });

  it('catches up after downtime with one round, not one per missed week', async () => {
    await create({ recurring: true });
    // Every server was down from before 9:00 until three weeks later.
    await runJobsAt(MONDAY_9AM + 3 * WEEK + HOUR);
    expect(await recipients()).toHaveLength(3);
    await runJobsAt(MONDAY_9AM + 3 * WEEK + 2 * HOUR);
    expect(await recipients()).toHaveLength(3);
    expect((await campaigns())[0]).toMatchObject({
      next_run_at: new Date(MONDAY_9AM + 4 * WEEK).toISOString(),
      rounds: 1,
    });
  });

  it('reminds only those who have not answered, at most twice', async () => {
    await create({ send_now: true, reminder_after_days: 2 });
    await runJobsAt(MONDAY_8AM);
    expect((await answerInvitation(await latestTokenFor('ann@north.edu'))).status).toBe(200);
    await runJobsAt(MONDAY_8AM + 2 * DAY - MINUTE);
    expect((await invitationMails()).filter((mail) => mail.subject.startsWith('Reminder'))).toHaveLength(0);
    await runJobsAt(MONDAY_8AM + 2 * DAY);
    const reminders = async () =>
      (await invitationMails())
        .filter((mail) => mail.subject.startsWith('Reminder'))
        .map((mail) => mail.to_address)
        .sort();
    expect(await reminders()).toEqual(['bo@north.edu', 'student@north.edu']);
    // A reminder carries the same personal link.
    const boLinks = (await invitationMails())
      .filter((mail) => mail.to_address === 'bo@north.edu')
      .map(tokenOf);
    expect(new Set(boLinks).size).toBe(1);
    expect((await answerInvitation(await latestTokenFor('bo@north.edu'))).status).toBe(200);
    await runJobsAt(MONDAY_8AM + 4 * DAY);
    expect(await reminders()).toEqual(['bo@north.edu', 'student@north.edu', 'student@north.edu']);
    await runJobsAt(MONDAY_8AM + 6 * DAY);
    await runJobsAt(MONDAY_8AM + 13 * DAY);
    expect(await reminders()).toHaveLength(3);
    expect((await campaigns())[0]).toMatchObject({ invited: 3, answered: 2, reminded: 2 });
  });

  it('pauses and resumes: nothing goes out while paused, and the round goes at the next slot', async () => {
    const campaign = await create({ recurring: true });
    const paused = await admin.post<{ campaign: Campaign }>(`/api/campaigns/${campaign.id}/pause/`);
    expect(paused.status).toBe(200);
    expect(paused.body.campaign.status).toBe('paused');
    await runJobsAt(MONDAY_9AM);
    expect(await recipients()).toEqual([]);
    vi.setSystemTime(MONDAY_9AM + DAY);
    admin = await adminNow();
    const resumed = await admin.post<{ campaign: Campaign }>(`/api/campaigns/${campaign.id}/resume/`);
    expect(resumed.body.campaign).toMatchObject({
      status: 'active',
      next_run_at: new Date(MONDAY_9AM + WEEK).toISOString(),
    });
    await runJobsAt(MONDAY_9AM + DAY + HOUR);
    expect(await recipients()).toEqual([]);
    await runJobsAt(MONDAY_9AM + WEEK);
    expect(await recipients()).toHaveLength(3);
    expectError(
      await (await adminNow()).post(`/api/campaigns/${campaign.id}/resume/`),
      409,
      'CONFLICT',
      'Only a paused campaign can be resumed.',
    );
  });

  it('reminds again after a pause: the reminder missed while paused goes out on resume, then the next', async () => {
    // Recurring: a one-off campaign is finished once its round is out, and cannot be paused.
    const campaign = await create({ send_now: true, recurring: true, reminder_after_days: 2 });
    await runJobsAt(MONDAY_8AM);
    expect((await answerInvitation(await latestTokenFor('ann@north.edu'))).status).toBe(200);
    const reminders = async () =>
      (await invitationMails())
        .filter((mail) => mail.subject.startsWith('Reminder'))
        .map((mail) => mail.to_address)
        .sort();
    expect((await admin.post(`/api/campaigns/${campaign.id}/pause/`)).status).toBe(200);
    await runJobsAt(MONDAY_8AM + 2 * DAY);
    expect(await reminders()).toEqual([]);
    vi.setSystemTime(MONDAY_8AM + 3 * DAY);
    admin = await adminNow();
    expect((await admin.post(`/api/campaigns/${campaign.id}/resume/`)).status).toBe(200);
    await runJobsAt(MONDAY_8AM + 3 * DAY);
    expect(await reminders()).toEqual(['bo@north.edu', 'student@north.edu']);
    await runJobsAt(MONDAY_8AM + 4 * DAY);
    expect(await reminders()).toEqual([
      'bo@north.edu',
      'bo@north.edu',
      'student@north.edu',
      'student@north.edu',
    ]);
    await runJobsAt(MONDAY_8AM + 6 * DAY);
    expect(await reminders()).toHaveLength(4);
  });

  it('cancels: no more rounds or reminders, and the links stop working', async () => {
    const campaign = await create({ send_now: true, recurring: true });
    await runJobsAt(MONDAY_8AM);
    const token = await latestTokenFor('bo@north.edu');
    const cancelled = await admin.post<{ campaign: Campaign }>(`/api/campaigns/${campaign.id}/cancel/`);
    expect(cancelled.body.campaign).toMatchObject({ status: 'cancelled', next_run_at: null });
    await runJobsAt(MONDAY_8AM + 2 * DAY);
    await runJobsAt(MONDAY_9AM + WEEK);
    expect(await invitationMails()).toHaveLength(3);
    expectError(
      await new TestAgent(ctx.app).get(`/api/survey/invite/${token}/`),
      404,
      'NOT_FOUND',
      INVITATION_EXPIRED,
    );
  });

  it('answers a retry of the same submission as the first time, and stores it once', async () => {
    await create({ send_now: true });
    await runJobsAt(MONDAY_8AM);
    const token = await latestTokenFor('bo@north.edu');
    const phone = new TestAgent(ctx.app);
    const answers = await invitationAnswers(token, phone);
    const submissionId = '6f1c2a44-8a53-4d0e-9b3f-2f1a8c1d9e70';
    const submit = (submission_id: string) =>
      phone.post(`/api/survey/invite/${token}/`, { answers, submission_id });
    const first = await submit(submissionId);
    expect(first.status, first.text).toBe(200);
    // The phone never saw the answer and sends the same submission again.
    const retry = await submit(submissionId);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body).toEqual(first.body);
    const stored = await ctx.db.kysely.selectFrom('submissions').select('client_submission_id').execute();
    expect(stored).toEqual([{ client_submission_id: submissionId }]);
    // A new submission on the used link is refused.
    expectError(await submit('0d4b7f8e-2c1a-4b3e-8f5d-6a7c9e1b2d30'), 409, 'CONFLICT', INVITATION_USED);
  });

  it('opens the survey as the invited student, once per round, and refuses anyone else', async () => {
    await create({ send_now: true });
    await runJobsAt(MONDAY_8AM);
    const token = await latestTokenFor('bo@north.edu');
    const visitor = new TestAgent(ctx.app);
    const survey = await visitor.get<{ student_name: string; school_email: string }>(
      `/api/survey/invite/${token}/`,
    );
    expect(survey.body).toMatchObject({ student_name: 'Bo Chen', school_email: 'bo@north.edu' });

    // Another address in the body, or another signed-in student, is refused.
    expectError(
      await answerInvitation(token, visitor, { school_email: 'ann@north.edu' }),
      403,
      'FORBIDDEN',
      wrongStudent('bo@north.edu'),
    );
    const other = new TestAgent(ctx.app);
    await other.signInDirectly(ctx.db, cast.studentA.email);
    expectError(
      await other.get(`/api/survey/invite/${token}/`),
      403,
      'FORBIDDEN',
      wrongStudent('bo@north.edu'),
    );
    expectError(
      await admin.get(`/api/survey/invite/${token}/`),
      403,
      'FORBIDDEN',
      'Admins cannot submit surveys',
    );

    const answered = await answerInvitation(token, visitor);
    expect(answered.status, answered.text).toBe(200);
    // The link proves the address: the answer counts at once, without a code.
    expect(answered.body).toMatchObject({
      success: true,
      message: 'Thank you! Your responses have been submitted.',
    });
    expect(answered.body).not.toHaveProperty('verification_required');
    const stored = await ctx.db.kysely
      .selectFrom('submissions')
      .select(['school_email', 'student_name', 'verified_at'])
      .execute();
    expect(stored).toEqual([
      { school_email: 'bo@north.edu', student_name: 'Bo Chen', verified_at: MONDAY_8AM },
    ]);
    expectError(await visitor.get(`/api/survey/invite/${token}/`), 409, 'CONFLICT', INVITATION_USED);

    expectError(
      await visitor.get(`/api/survey/invite/${'A'.repeat(43)}/`),
      404,
      'NOT_FOUND',
      INVITATION_NOT_FOUND,
    );
    expectError(await visitor.get('/api/survey/invite/short/'), 404, 'NOT_FOUND', INVITATION_NOT_FOUND);
    // A one-off round's link works for two weeks.
    vi.setSystemTime(MONDAY_8AM + 14 * DAY);
    const ann = await latestTokenFor('ann@north.edu');
    expectError(await visitor.get(`/api/survey/invite/${ann}/`), 404, 'NOT_FOUND', INVITATION_EXPIRED);
  });

  it('refuses the link of a student who has since joined the staff, storing nothing', async () => {
    await create({ send_now: true });
    await runJobsAt(MONDAY_8AM);
    const token = await latestTokenFor('bo@north.edu');
    const visitor = new TestAgent(ctx.app);
    const answers = await invitationAnswers(token, visitor);
    await makeUser(ctx.db.kysely, { email: 'bo@north.edu', role: 'counsellor', institutionId: cast.a.id });
    const refusal = 'Staff cannot submit surveys';
    expectError(await visitor.get(`/api/survey/invite/${token}/`), 403, 'FORBIDDEN', refusal);
    expectError(await visitor.post(`/api/survey/invite/${token}/`, { answers }), 403, 'FORBIDDEN', refusal);
    expect(await ctx.db.kysely.selectFrom('submissions').select('id').execute()).toEqual([]);
    expect(await ctx.db.kysely.selectFrom('cases').select('id').execute()).toEqual([]);
  });

  it('makes the response rate count the roster: one of three answers is 33%', async () => {
    await admin.request({
      method: 'POST',
      url: '/api/roster/',
      payload: 'name,email,group\nDee Ray,dee@north.edu,Year 2\n',
      headers: { 'content-type': 'text/csv' },
    });
    await ctx.db.kysely.deleteFrom('roster_students').where('group_name', '=', 'Year 2').execute();
    await create({ send_now: true });
    await runJobsAt(MONDAY_8AM);
    expect((await answerInvitation(await latestTokenFor('ann@north.edu'))).status).toBe(200);
    const dashboard = await admin.get<DashboardData>('/api/dashboard/');
    expect(dashboard.body.response_rate).toBe(33);
    expect((await campaigns())[0]).toMatchObject({ invited: 3, answered: 1 });
  });

  /** Uploads a roster file as the admin; `missing` says what happens to students it omits. */
  const uploadRoster = async (csv: string, missing?: 'keep' | 'leave') => {
    const response = await (await adminNow()).request({
      method: 'POST',
      url: `/api/roster/${missing ? `?missing=${missing}` : ''}`,
      payload: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(response.status, response.text).toBe(200);
    return response.body as { imported: number; updated: number; left: number };
  };
  const invitationsByCampaign = async (campaignId: number) =>
    (
      await ctx.db.kysely
        .selectFrom('campaign_invitations as i')
        .innerJoin('roster_students as rs', 'rs.id', 'i.student_id')
        .select('rs.email')
        .where('i.campaign_id', '=', campaignId)
        .execute()
    )
      .map((row) => row.email)
      .sort();
  const studentId = async (email: string) =>
    (
      await ctx.db.kysely
        .selectFrom('roster_students')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;

  it('invites several groups and the students with no group, or everyone, each exactly once', async () => {
    await uploadRoster('name,email,group\nNed None,ned@north.edu,\nEve Three,eve@north.edu,Year 3\n');
    const some = await create({ send_now: true, groups: ['Year 1', 'Year 2'], no_group: true });
    expect(some).toMatchObject({ groups: ['Year 1', 'Year 2'], no_group: true, all_students: false });
    const everyone = await create({ send_now: true, groups: ['Year 1'], all_students: true });
    expect(everyone).toMatchObject({ groups: [], all_students: true, no_group: false });
    await runJobsAt(MONDAY_8AM);
    await runJobsAt(MONDAY_8AM + MINUTE);
    expect(await invitationsByCampaign(some.id)).toEqual([
      'ann@north.edu',
      'bo@north.edu',
      'dee@north.edu',
      'ned@north.edu',
      'student@north.edu',
    ]);
    expect(await invitationsByCampaign(everyone.id)).toEqual([
      'ann@north.edu',
      'bo@north.edu',
      'dee@north.edu',
      'eve@north.edu',
      'ned@north.edu',
      'student@north.edu',
    ]);
    // One mail per student per campaign: five, then six.
    expect(await invitationMails()).toHaveLength(11);
  });

  it('names the template and shows no weekly slot for a one-off campaign sent at once', async () => {
    await create({ send_now: true });
    await create({ recurring: true });
    const [weekly, once] = await campaigns();
    expect(once).toMatchObject({
      template_name: `Template #${templateId}`,
      send_now: true,
      recurring: false,
    });
    expect(weekly).toMatchObject({
      template_name: `Template #${templateId}`,
      send_now: false,
      recurring: true,
    });
  });

  it('lists who has not answered: names to admins and counsellors, audited; counts to viewers', async () => {
    const campaign = await create({ send_now: true });
    await runJobsAt(MONDAY_8AM);
    expect((await answerInvitation(await latestTokenFor('ann@north.edu'))).status).toBe(200);
    const url = `/api/campaigns/${campaign.id}/not-answered/`;
    const audits = () =>
      ctx.db.kysely
        .selectFrom('audit_log')
        .select(['actor_email', 'subject_id'])
        .where('action', '=', 'campaign.not_answered.read')
        .orderBy('id')
        .execute();

    const listed = await (await adminNow()).get(url);
    expect(listed.status, listed.text).toBe(200);
    const described = {
      template_name: `Template #${templateId}`,
      groups: ['Year 1'],
      all_students: false,
      no_group: false,
      status: 'finished',
      last_run_at: new Date(MONDAY_8AM).toISOString(),
      anonymous: false,
    };
    expect(listed.body).toEqual({
      success: true,
      campaign: described,
      round: 1,
      invited: 3,
      not_answered: 2,
      students: [
        { name: 'Bo Chen', email: 'bo@north.edu', group: 'Year 1', reminders: 0 },
        { name: 'Sam North', email: 'student@north.edu', group: 'Year 1', reminders: 0 },
      ],
    });
    expect(await audits()).toEqual([{ actor_email: cast.adminA.email, subject_id: String(campaign.id) }]);

    await makeUser(ctx.db.kysely, { email: 'c@north.edu', role: 'counsellor', institutionId: cast.a.id });
    await makeUser(ctx.db.kysely, { email: 'v@north.edu', role: 'viewer', institutionId: cast.a.id });
    const counsellor = new TestAgent(ctx.app);
    await counsellor.login('c@north.edu', TEST_PASSWORD);
    expect((await counsellor.get<{ students: unknown[] }>(url)).body.students).toHaveLength(2);
    expect(await audits()).toHaveLength(2);

    const viewer = new TestAgent(ctx.app);
    await viewer.login('v@north.edu', TEST_PASSWORD);
    const counts = await viewer.get(url);
    expect(counts.body).toEqual({
      success: true,
      campaign: described,
      round: 1,
      invited: 3,
      not_answered: 2,
    });
    expect(await audits()).toHaveLength(2);

    const adminB = new TestAgent(ctx.app);
    await adminB.login(cast.adminB.email, TEST_PASSWORD);
    expectError(await adminB.get(url), 404, 'NOT_FOUND', 'Campaign not found');
    const student = new TestAgent(ctx.app);
    await student.login(cast.studentA.email, TEST_PASSWORD);
    expect((await student.get(url)).status).toBe(403);
  });

  it('neither invites nor reminds a student marked as left', async () => {
    const left = await (await adminNow()).post(
      `/api/roster/students/${await studentId('bo@north.edu')}/left/`,
      {
        left: true,
      },
    );
    expect(left.status, left.text).toBe(200);
    await create({ send_now: true, reminder_after_days: 2 });
    await runJobsAt(MONDAY_8AM);
    expect(await recipients()).toEqual(['ann@north.edu', 'student@north.edu']);
    // Ann leaves after her invitation: the reminder goes to Sam only.
    await (await adminNow()).post(`/api/roster/students/${await studentId('ann@north.edu')}/left/`, {
      left: true,
    });
    await runJobsAt(MONDAY_8AM + 2 * DAY);
    expect((await invitationMails()).map((mail) => mail.to_address).sort()).toEqual([
      'ann@north.edu',
      'student@north.edu',
      'student@north.edu',
    ]);
  });

  it('marks the students a re-upload omits as left, on request: the response rate counts the rest', async () => {
    await create({ send_now: true, groups: ['Year 1', 'Year 2'] });
    await runJobsAt(MONDAY_8AM);
    expect((await answerInvitation(await latestTokenFor('ann@north.edu'))).status).toBe(200);
    const rate = async () =>
      (await (await adminNow()).get<DashboardData>('/api/dashboard/')).body.response_rate;
    expect(await rate()).toBe(25);
    // Keeping (the default) removes nobody.
    expect((await uploadRoster('name,email\nAnn Lee,ann@north.edu\nBo Chen,bo@north.edu\n')).left).toBe(0);
    expect(await rate()).toBe(25);
    const marked = await uploadRoster('name,email\nAnn Lee,ann@north.edu\nBo Chen,bo@north.edu\n', 'leave');
    expect(marked).toMatchObject({ imported: 0, updated: 2, left: 2 });
    const leftNow = await ctx.db.kysely
      .selectFrom('roster_students')
      .select('email')
      .where('left_at', 'is not', null)
      .orderBy('email')
      .execute();
    expect(leftNow.map((row) => row.email)).toEqual(['dee@north.edu', 'student@north.edu']);
    // One of the two still on the roster answered: 50%, as a recount says.
    const recount = await ctx.db.kysely
      .selectFrom('roster_students')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('institution_id', '=', cast.a.id)
      .where('left_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(recount.n)).toBe(2);
    expect(await rate()).toBe(50);
    // Reversible: Dee is back, and counts again (1 of 3).
    const back = await (await adminNow()).post(
      `/api/roster/students/${await studentId('dee@north.edu')}/left/`,
      {
        left: false,
      },
    );
    expect(back.body).toMatchObject({ student: { email: 'dee@north.edu', left_at: null } });
    expect(await rate()).toBe(33);
    // Listed again by the registrar: back on the roster.
    await uploadRoster('name,email\nSam North,student@north.edu\n');
    expect(await rate()).toBe(25);
  });

  it('refuses bad campaigns with a clear 4xx and creates nothing', async () => {
    const refusals: [Partial<CampaignRequest> | Record<string, unknown>, number, string][] = [
      [{ hour: 13 }, 400, 'hour must be from 1 to 12'],
      [{ minute: 61 }, 400, 'minute must be from 0 to 59'],
      [
        { day: 'Funday' as never },
        400,
        'day must be one of Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday',
      ],
      [
        { groups: ['Year 9'] },
        400,
        'No roster student is in the group "Year 9". Import the roster first, or choose another group.',
      ],
      [{ groups: [] }, 400, 'Choose at least one roster group, "All students" or "Students with no group"'],
      [{ reminder_after_days: 30 }, 400, 'reminder_after_days is at most 14'],
    ];
    const otherTemplate = await ctx.db.kysely
      .selectFrom('survey_templates')
      .select('id')
      .where('institution_id', '=', cast.b.id)
      .executeTakeFirstOrThrow();
    refusals.push([{ template_id: otherTemplate.id }, 404, 'Survey template not found']);
    // The server's own daily jobs (the retention purge) may be scheduled already: none may be added.
    const jobsBefore = await ctx.db.kysely.selectFrom('jobs').select('id').execute();
    for (const [overrides, status, message] of refusals) {
      const response = await admin.post('/api/campaigns/', { ...request(), ...overrides });
      expect(response.status, JSON.stringify(overrides)).toBe(status);
      expect(response.body).toMatchObject({ success: false, message });
    }
    expect(await ctx.db.kysely.selectFrom('campaigns').select('id').execute()).toEqual([]);
    expect(await ctx.db.kysely.selectFrom('jobs').select('id').execute()).toEqual(jobsBefore);

    const student = new TestAgent(ctx.app);
    await student.signInDirectly(ctx.db, cast.studentA.email);
    expectError(await student.post('/api/campaigns/', request()), 403, 'FORBIDDEN', 'Admin access required');
    const adminB = new TestAgent(ctx.app);
    await adminB.signInDirectly(ctx.db, cast.adminB.email);
    const campaign = await create();
    expectError(
      await adminB.post(`/api/campaigns/${campaign.id}/cancel/`),
      404,
      'NOT_FOUND',
      'Campaign not found',
    );
    expect((await adminB.get<{ campaigns: Campaign[] }>('/api/campaigns/')).body.campaigns).toEqual([]);
  });

  it('sends a student who joins a group later the next round only, and never twice in one round', async () => {
    await makeUser(ctx.db.kysely, { email: 'late@north.edu', institutionId: cast.a.id });
    await create({ send_now: true, recurring: true });
    await runJobsAt(MONDAY_8AM);
    await (await adminNow()).request({
      method: 'POST',
      url: '/api/roster/',
      payload: 'name,email,group\nLate Comer,late@north.edu,Year 1\n',
      headers: { 'content-type': 'text/csv' },
    });
    await runJobsAt(MONDAY_8AM + HOUR);
    expect(await recipients()).toHaveLength(3);
    await runJobsAt(MONDAY_9AM + WEEK);
    expect((await recipients()).filter((email) => email === 'late@north.edu')).toHaveLength(1);
    const rows = await ctx.db.kysely
      .selectFrom('campaign_invitations')
      .select(['round', 'student_id'])
      .execute();
    expect(new Set(rows.map((row) => `${row.round}:${row.student_id}`)).size).toBe(rows.length);
  });
});
