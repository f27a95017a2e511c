import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { notSigningIn } from '../../../../test/helpers/audit';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, makeUser } from '../../../../test/helpers/factories';
import { proveAddress } from '../../../../test/helpers/verify';
import type {
  CaseDetailResponse,
  CaseListResponse,
  StudentHistoryResponse,
} from '../../../common/schemas/cases';
import { SIGN_IN_CHANGE_SUBJECT } from '../../../common/schemas/second-factor';
import type { InstitutionSettingsResponse } from '../../../common/schemas/settings';
import type { SurveyQuestion } from '../../../common/schemas/surveys';
import { formatZonedDateTime } from '../../../common/zoned-format';
import { DEFAULT_LIMITS } from '../../config';
import { READ_REPEAT_WINDOW_MS } from '../../lib/audit';
import { HOUR, MINUTE } from '../../lib/time';
import { UNCONFIRMED_NAME } from '../surveys';
import {
  ASSIGNEE_NOT_FOUND,
  CASE_NOT_FOUND,
  CASE_RESOLVED,
  OTHER_CASE_OPEN,
  OTHER_NEEDS_NOTE,
  STUDENT_NOT_FOUND,
} from './service';
import { DIGEST_WINDOW } from './unproven';

type Plan = { text?: string; likert?: string; safety?: string };

function answersFor(questions: SurveyQuestion[], plan: Plan = {}): Record<string, string> {
  return Object.fromEntries(
    questions.map((question) => {
      if (question.question_type === 'text') return [String(question.id), plan.text ?? 'Fine.'];
      if (question.category === 'safety') return [String(question.id), plan.safety ?? '1'];
      return [String(question.id), plan.likert ?? '2'];
    }),
  );
}

const UNPROVEN_ALERTS_PER_CLIENT_PER_HOUR = DEFAULT_LIMITS.unprovenAlerts.perClientPerHour;
const UNPROVEN_ALERTS_PER_INSTITUTION_PER_HOUR = DEFAULT_LIMITS.unprovenAlerts.perInstitutionPerHour;
const URGENT: Plan = { text: 'I want to kill myself' };
const ELEVATED: Plan = { likert: '4' };
const CALM: Plan = { likert: '2' };

const SETTINGS = {
  alert_emails: ['alerts@north.edu', 'duty@north.edu'],
  escalation_emails: ['head@north.edu'],
  urgent_ack_minutes: 30,
  elevated_ack_hours: 24,
  time_zone: 'America/New_York',
  crisis_resources: [],
};

describe.each(TEST_DIALECTS)('cases on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let hashLink: string;
  let questions: SurveyQuestion[];
  let admin: TestAgent;
  let counsellor: TestAgent;
  let counsellorUser: { id: number; email: string };

  beforeEach(async () => {
    ctx = await createTestApp(dialect, {}, { jobs: { poll: false } });
    const db = ctx.db.kysely;
    cast = await makeTwoInstitutions(db);
    counsellorUser = await makeUser(db, {
      email: 'casey@north.edu',
      role: 'counsellor',
      institutionId: cast.a.id,
      name: 'Casey Counsellor',
    });
    const link = await db
      .selectFrom('survey_templates')
      .select('hash_link')
      .where('institution_id', '=', cast.a.id)
      .executeTakeFirstOrThrow();
    hashLink = link.hash_link;
    questions = (
      await new TestAgent(ctx.app).get<{ questions: SurveyQuestion[] }>(
        `/api/get-user-survey-questions/${hashLink}/`,
      )
    ).body.questions;
    admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, cast.adminA.email);
    counsellor = new TestAgent(ctx.app);
    await counsellor.signInDirectly(ctx.db, counsellorUser.email);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await ctx.close();
  });

  const submit = (agent: TestAgent, plan: Plan, email = 'sam@north.edu', name = 'Sam Student') =>
    agent.post(`/api/survey/link/${hashLink}/`, {
      student_name: name,
      school_email: email,
      answers: answersFor(questions, plan),
    });
  const cases = async (agent = counsellor, status = 'open') =>
    (await agent.get<CaseListResponse>(`/api/cases/?status=${status}`)).body.cases;
  const caseById = async (id: number) =>
    (await counsellor.get<CaseDetailResponse>(`/api/cases/${id}/`)).body.case;
  /** Mail about cases: the staff's own sign-in changes (their set-up here) are left out. */
  const outbox = () =>
    ctx.db.kysely
      .selectFrom('mail_outbox')
      .select(['id', 'to_address', 'subject', 'body', 'priority'])
      .where('subject', '!=', SIGN_IN_CHANGE_SUBJECT)
      .orderBy('id')
      .execute();
  /** What staff did with cases and settings; their sign-ins and second factors are left out. */
  const auditActions = async () =>
    (
      await ctx.db.kysely.selectFrom('audit_log').select('action').where(notSigningIn).orderBy('id').execute()
    ).map((row) => row.action);

  describe('institution settings', () => {
    it('reads the defaults, saves a change and records both in the audit log', async () => {
      const defaults = await admin.get<InstitutionSettingsResponse>('/api/institution/settings/');
      expect(defaults.status).toBe(200);
      expect(defaults.body).toEqual({
        success: true,
        alert_emails: [],
        escalation_emails: [],
        urgent_ack_minutes: 60,
        elevated_ack_hours: 48,
        time_zone: 'UTC',
        crisis_resources: [],
        crisis_resources_first: false,
        small_group_threshold: 5,
      });
      const saved = await admin.request<InstitutionSettingsResponse>({
        method: 'PUT',
        url: '/api/institution/settings/',
        payload: { ...SETTINGS, elevated_ack_hours: 0.5, alert_emails: ['Alerts@North.edu'] },
      });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ elevated_ack_hours: 0.5, alert_emails: ['alerts@north.edu'] });
      const row = await ctx.db.kysely
        .selectFrom('institutions')
        .select(['elevated_ack_minutes', 'time_zone'])
        .where('id', '=', cast.a.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ elevated_ack_minutes: 30, time_zone: 'America/New_York' });
      expect(await auditActions()).toEqual(['settings.read', 'settings.update']);
      // Another institution's settings are its own.
      const south = new TestAgent(ctx.app);
      await south.signInDirectly(ctx.db, cast.adminB.email);
      expect(
        (await south.get<InstitutionSettingsResponse>('/api/institution/settings/')).body.time_zone,
      ).toBe('UTC');
    });

    it.each([
      [{ time_zone: 'Mars/Olympus' }, 'time_zone must be an IANA time zone such as Europe/London'],
      [{ urgent_ack_minutes: 0 }, 'urgent_ack_minutes must be at least 1 minute'],
      [{ urgent_ack_minutes: 30 * 24 * 60 + 1 }, 'urgent_ack_minutes must be at most 30 days'],
      [{ urgent_ack_minutes: 1.5 }, 'urgent_ack_minutes must be a whole number of minutes'],
      [{ elevated_ack_hours: 0.001 }, 'elevated_ack_hours must come to whole minutes'],
      [{ elevated_ack_hours: 721 }, 'elevated_ack_hours must be at most 30 days (720 hours)'],
      [{ alert_emails: ['not-an-email'] }, 'Enter a valid email address'],
      [{ alert_emails: ['a@north.edu', 'a@north.edu'] }, 'Each alert address once'],
      [{ small_group_threshold: 2 }, 'small_group_threshold must be at least 3'],
      [{ small_group_threshold: 4.5 }, 'small_group_threshold must be a whole number of students'],
      [{ small_group_threshold: '5' }, 'small_group_threshold must be a number'],
      [{ small_group_threshold: 101 }, 'small_group_threshold must be at most 100'],
    ])('refuses %o and changes nothing', async (change, message) => {
      const response = await admin.request({
        method: 'PUT',
        url: '/api/institution/settings/',
        payload: { ...SETTINGS, ...change },
      });
      expect(response.status).toBe(400);
      expect((response.body as { message: string }).message).toContain(message);
      const row = await ctx.db.kysely
        .selectFrom('institutions')
        .select(['time_zone', 'urgent_ack_minutes', 'small_group_threshold'])
        .where('id', '=', cast.a.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ time_zone: 'UTC', urgent_ack_minutes: 60, small_group_threshold: 5 });
    });

    it('is for admins only', async () => {
      expectError(
        await counsellor.get('/api/institution/settings/'),
        403,
        'FORBIDDEN',
        'Admin access required',
      );
      const student = new TestAgent(ctx.app);
      await student.signInDirectly(ctx.db, cast.studentA.email);
      expectError(
        await student.request({ method: 'PUT', url: '/api/institution/settings/', payload: SETTINGS }),
        403,
        'FORBIDDEN',
        'Admin access required',
      );
      expectError(
        await new TestAgent(ctx.app).get('/api/institution/settings/'),
        401,
        'UNAUTHENTICATED',
        'Authentication required',
      );
    });
  });

  describe('opening cases', () => {
    it('opens an unverified case for an urgent link answer and alerts the contacts at once, ahead of other mail', async () => {
      await admin.request({ method: 'PUT', url: '/api/institution/settings/', payload: SETTINGS });
      const visitor = new TestAgent(ctx.app);
      expect((await submit(visitor, URGENT)).status).toBe(200);
      const [opened] = await cases();
      expect(opened).toMatchObject({
        student_name: UNCONFIRMED_NAME,
        claimed_name: 'Sam Student',
        school_email: 'sam@north.edu',
        tier: 'urgent',
        status: 'new',
        assigned_to: null,
        overdue: false,
        verified: false,
      });
      const openedAt = Date.parse(opened?.opened_at ?? '');
      expect(Date.parse(opened?.acknowledge_by ?? '') - openedAt).toBeGreaterThanOrEqual(30 * MINUTE - 1000);
      const mails = (await outbox()).filter((mail) => mail.to_address !== 'sam@north.edu');
      expect(mails.map((mail) => mail.to_address)).toEqual(['alerts@north.edu', 'duty@north.edu']);
      for (const mail of mails) {
        expect(mail.priority).toBe(2);
        expect(mail.body).toContain(`/cases/${opened?.id}/`);
        // The deadline on the institution's clock, naming it (30 minutes after opening).
        expect(mail.body).toContain(
          `Acknowledge by: ${formatZonedDateTime(opened?.acknowledge_by, 'America/New_York')}`,
        );
        expect(mail.body).toMatch(/by: \w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \(America\/New_York\)/);
        expect(`${mail.subject} ${mail.body}`).not.toMatch(/risk|urgent|elevated|kill|Sam/i);
      }
      const detail = await caseById(opened?.id ?? 0);
      expect(detail.mails).toHaveLength(2);
      expect(detail.mails[0]).toMatchObject({ kind: 'alert', status: 'pending', sent_at: null });
      expect(detail.events.map((event) => event.kind)).toEqual(['opened', 'alert_queued']);
    });

    it('alerts the admins while no alert contacts are set, and opens elevated cases without an alert', async () => {
      await submit(new TestAgent(ctx.app), ELEVATED, 'ella@north.edu', 'Ella');
      expect(await outbox()).toEqual([]);
      await submit(new TestAgent(ctx.app), URGENT, 'uri@north.edu', 'Uri');
      expect((await outbox()).map((mail) => mail.to_address)).toEqual(['admin@north.edu']);
      expect((await cases()).map((found) => found.claimed_name).sort()).toEqual(['Ella', 'Uri']);
      await submit(new TestAgent(ctx.app), CALM, 'cal@north.edu', 'Cal');
      expect(await cases()).toHaveLength(2);
    });

    it('alerts no removed member, whether configured as a contact or once an admin', async () => {
      const removedAt = Date.now();
      const gone = await makeUser(ctx.db.kysely, {
        email: 'gone@north.edu',
        role: 'institution_admin',
        institutionId: cast.a.id,
      });
      await ctx.db.kysely
        .updateTable('users')
        .set({ removed_at: removedAt })
        .where('id', '=', gone.id)
        .execute();
      await submit(new TestAgent(ctx.app), URGENT, 'uri@north.edu', 'Uri');
      expect((await outbox()).map((mail) => mail.to_address)).toEqual(['admin@north.edu']);

      await admin.request({
        method: 'PUT',
        url: '/api/institution/settings/',
        payload: { ...SETTINGS, alert_emails: ['Gone@north.edu', 'duty@north.edu'] },
      });
      await submit(new TestAgent(ctx.app), URGENT, 'una@north.edu', 'Una');
      expect((await outbox()).map((mail) => mail.to_address)).toEqual(['admin@north.edu', 'duty@north.edu']);
    });

    it('keeps one open case per student: later flags join it, raise its tier, and a proof verifies it', async () => {
      const visitor = new TestAgent(ctx.app);
      await submit(visitor, ELEVATED);
      const [first] = await cases();
      await submit(visitor, URGENT);
      const all = await cases();
      expect(all).toHaveLength(1);
      expect(all[0]).toMatchObject({ id: first?.id, tier: 'urgent', verified: false });
      // The urgent deadline is sooner than the elevated one it replaces.
      expect(Date.parse(all[0]?.acknowledge_by ?? '')).toBeLessThan(Date.parse(first?.acknowledge_by ?? ''));
      await proveAddress(visitor, ctx.db.kysely, 'sam@north.edu', hashLink);
      const detail = await caseById(first?.id ?? 0);
      expect(detail.verified).toBe(true);
      expect(detail.submissions).toHaveLength(2);
      expect(detail.events.map((event) => event.kind)).toEqual([
        'opened',
        'submission',
        'alert_queued',
        'verified',
      ]);
    });

    it('a signed-in student opens a verified case; after resolving, the next flag opens a new case', async () => {
      const student = new TestAgent(ctx.app);
      await student.signInDirectly(ctx.db, cast.studentA.email);
      await submit(student, URGENT, cast.studentA.email, 'Sam North');
      const [opened] = await cases();
      expect(opened).toMatchObject({ verified: true, student_name: 'Sam North' });
      await counsellor.post(`/api/cases/${opened?.id}/resolve/`, { outcome: 'connected_to_counselling' });
      await submit(student, ELEVATED, cast.studentA.email, 'Sam North');
      const all = await cases(counsellor, 'all');
      expect(all).toHaveLength(2);
      expect(all.map((found) => found.status)).toEqual(['new', 'resolved']);
    });
  });

  describe('working a case', () => {
    let caseId: number;
    beforeEach(async () => {
      await submit(new TestAgent(ctx.app), URGENT);
      caseId = (await cases())[0]?.id ?? 0;
    });

    it('moves new -> acknowledged -> in progress -> resolved, each change with who and when', async () => {
      const acknowledged = await counsellor.post<CaseDetailResponse>(`/api/cases/${caseId}/acknowledge/`);
      expect(acknowledged.status).toBe(200);
      expect(acknowledged.body.case).toMatchObject({
        status: 'acknowledged',
        assigned_to: { id: counsellorUser.id, name: 'Casey Counsellor' },
      });
      const assigned = await counsellor.post<CaseDetailResponse>(`/api/cases/${caseId}/assign/`, {
        user_id: cast.adminA.id,
      });
      expect(assigned.body.case.assigned_to?.id).toBe(cast.adminA.id);
      const noted = await counsellor.post<CaseDetailResponse>(`/api/cases/${caseId}/notes/`, {
        text: '  Called, left a message.  ',
      });
      expect(noted.body.case.status).toBe('in_progress');
      const resolved = await admin.post<CaseDetailResponse>(`/api/cases/${caseId}/resolve/`, {
        outcome: 'other',
        note: 'Met in person.',
      });
      expect(resolved.body.case).toMatchObject({ status: 'resolved', outcome: 'other' });
      expect(
        resolved.body.case.events
          .filter((event) => event.actor !== null)
          .map((event) => [event.kind, event.actor, event.text]),
      ).toEqual([
        ['acknowledged', 'Casey Counsellor', null],
        ['assigned', 'Casey Counsellor', 'admin'],
        ['note', 'Casey Counsellor', 'Called, left a message.'],
        ['resolved', 'admin', 'Other: Met in person.'],
      ]);
      expect(await cases()).toEqual([]);
      expect(await auditActions()).toEqual(
        expect.arrayContaining(['case.acknowledge', 'case.assign', 'case.note', 'case.resolve', 'case.read']),
      );
      expectError(
        await counsellor.post(`/api/cases/${caseId}/notes/`, { text: 'Late' }),
        409,
        'CONFLICT',
        CASE_RESOLVED,
      );
    });

    it('refuses bad input and other institutions, changing nothing', async () => {
      const before = await ctx.db.kysely.selectFrom('case_events').select('id').execute();
      const refusals = [
        [await counsellor.post(`/api/cases/${caseId}/resolve/`, { outcome: 'vanished' }), 400],
        [await counsellor.post(`/api/cases/${caseId}/resolve/`, { outcome: 'other' }), 400],
        [await counsellor.post(`/api/cases/${caseId}/notes/`, { text: 'x'.repeat(5001) }), 400],
        [await counsellor.post(`/api/cases/${caseId}/notes/`, { text: '   ' }), 400],
        [await counsellor.post(`/api/cases/${caseId}/assign/`, { user_id: cast.adminB.id }), 400],
        [await counsellor.post(`/api/cases/${caseId}/assign/`, { user_id: cast.studentA.id }), 400],
        [await counsellor.post(`/api/cases/${caseId}/assign/`, { user_id: 'me' }), 400],
      ] as const;
      expect(refusals.map(([response]) => response.status)).toEqual(refusals.map(([, status]) => status));
      expect((refusals[0][0].body as { message: string }).message).toContain('outcome must be one of');
      expectError(refusals[1][0], 400, 'BAD_REQUEST', OTHER_NEEDS_NOTE);
      expect((refusals[2][0].body as { message: string }).message).toContain('at most 5000 characters');
      expectError(refusals[4][0], 400, 'BAD_REQUEST', ASSIGNEE_NOT_FOUND);

      const south = new TestAgent(ctx.app);
      await south.signInDirectly(ctx.db, cast.adminB.email);
      expectError(await south.get(`/api/cases/${caseId}/`), 404, 'NOT_FOUND', CASE_NOT_FOUND);
      expectError(await south.post(`/api/cases/${caseId}/acknowledge/`), 404, 'NOT_FOUND', CASE_NOT_FOUND);
      expectError(
        await south.post(`/api/cases/${caseId}/resolve/`, { outcome: 'unable_to_reach' }),
        404,
        'NOT_FOUND',
        CASE_NOT_FOUND,
      );
      expect(await cases(south)).toEqual([]);
      expectError(await counsellor.get('/api/cases/999999/'), 404, 'NOT_FOUND', CASE_NOT_FOUND);
      expect((await counsellor.get('/api/cases/?status=closed')).status).toBe(400);

      const viewer = new TestAgent(ctx.app);
      const viewerUser = await makeUser(ctx.db.kysely, {
        email: 'vera@north.edu',
        role: 'viewer',
        institutionId: cast.a.id,
      });
      await viewer.signInDirectly(ctx.db, viewerUser.email);
      expectError(await viewer.get('/api/cases/'), 403, 'FORBIDDEN', 'Staff access required');
      expectError(
        await viewer.post(`/api/cases/${caseId}/acknowledge/`),
        403,
        'FORBIDDEN',
        'Staff access required',
      );
      expect(await ctx.db.kysely.selectFrom('case_events').select('id').execute()).toEqual(before);
      expect((await caseById(caseId)).status).toBe('new');
    });

    it('assigns no removed member and no one who does not work cases, and offers neither', async () => {
      const viewer = await makeUser(ctx.db.kysely, {
        email: 'vi@north.edu',
        role: 'viewer',
        institutionId: cast.a.id,
      });
      const former = await makeUser(ctx.db.kysely, {
        email: 'former@north.edu',
        role: 'counsellor',
        institutionId: cast.a.id,
      });
      expect((await admin.delete(`/api/staff/${former.id}/`)).status).toBe(200);
      for (const userId of [former.id, viewer.id])
        expectError(
          await counsellor.post(`/api/cases/${caseId}/assign/`, { user_id: userId }),
          400,
          'BAD_REQUEST',
          ASSIGNEE_NOT_FOUND,
        );
      const offered = (await counsellor.get<CaseListResponse>('/api/cases/')).body.assignees.map((a) => a.id);
      expect(offered).toContain(counsellorUser.id);
      expect(offered).not.toContain(former.id);
      expect(offered).not.toContain(viewer.id);
      expect((await caseById(caseId)).assigned_to).toBeNull();
    });

    it("shows the student's history with means, the change from their baseline and the case trail", async () => {
      const visitor = new TestAgent(ctx.app);
      await proveAddress(visitor, ctx.db.kysely, 'sam@north.edu', hashLink);
      await submit(visitor, CALM);
      await submit(visitor, { likert: '4' });
      const detail = await caseById(caseId);
      const history = await counsellor.get<StudentHistoryResponse>(
        `/api/students/${detail.student_id}/history/`,
      );
      expect(history.status).toBe(200);
      const { submissions, baseline, cases: trail, student } = history.body;
      expect(student).toEqual({ id: detail.student_id, name: 'Sam Student', email: 'sam@north.edu' });
      expect(submissions.map((submission) => submission.tier)).toEqual(['elevated', 'none', 'urgent']);
      // Newest first: the elevated one is compared with the two proven ones before it.
      expect(submissions[0]?.category_means.sleep).toBe(4);
      expect(baseline.sleep).toBe(2);
      expect(submissions[0]?.change_from_baseline.sleep).toBe(2);
      expect(trail).toHaveLength(1);
      expect(trail[0]?.events.map((event) => event.kind)).toContain('opened');
      expect(await auditActions()).toContain('student.history.read');

      const south = new TestAgent(ctx.app);
      await south.signInDirectly(ctx.db, cast.adminB.email);
      expectError(
        await south.get(`/api/students/${detail.student_id}/history/`),
        404,
        'NOT_FOUND',
        STUDENT_NOT_FOUND,
      );
    });
  });

  describe('what the student answered', () => {
    const WRITTEN = 'Honestly I want to die some days.';
    const safetyQuestion = () =>
      questions.find((question) => question.category === 'safety') as SurveyQuestion;

    const openedCase = async (plan: Plan) => {
      const visitor = new TestAgent(ctx.app);
      await proveAddress(visitor, ctx.db.kysely, 'sam@north.edu', hashLink);
      expect((await submit(visitor, plan)).status).toBe(200);
      const [item] = await cases();
      return caseById(item?.id as number);
    };
    const auditDetails = async (action: string) =>
      (
        await ctx.db.kysely
          .selectFrom('audit_log')
          .select(['detail', 'actor_email'])
          .where('action', '=', action)
          .orderBy('id')
          .execute()
      ).map((row) => ({ actor_email: row.actor_email, detail: JSON.parse(row.detail ?? 'null') }));

    it('shows every question with the answer in the words the student saw, the written answer in full with the screened phrase, and which rule raised which tier', async () => {
      const item = await openedCase({ text: WRITTEN, safety: '4', likert: '2' });
      const [submission] = item.submissions;
      const answers = submission?.answers ?? [];
      expect(answers.map((answer) => answer.question_text)).toEqual(questions.map((q) => q.text));
      expect(answers.map((answer) => answer.answer_label)).toEqual([
        'Good',
        'Good',
        'Good',
        'Good',
        'Comfortable',
        'Often',
        null,
      ]);
      const written = answers.find((answer) => answer.question_type === 'text');
      expect(written?.value).toBe(WRITTEN);
      expect(written?.phrases).toEqual([{ start: 11, end: 22, severity: 'high' }]);
      expect(WRITTEN.slice(11, 22)).toBe('want to die');
      expect(submission?.findings).toEqual([
        { tier: 'urgent', rule: 'safety_answer', reason: "Answered 'Often' to the self-harm question" },
        { tier: 'urgent', rule: 'crisis_language', reason: 'Crisis language in a written answer' },
      ]);
      expect(submission?.reasons).toEqual(submission?.findings.map((finding) => finding.reason));
    });

    it("records which submissions' answers each case and history read showed, and shows viewers none of them", async () => {
      const item = await openedCase({ text: WRITTEN });
      const submissionIds = item.submissions.map((submission) => submission.id);
      expect(await auditDetails('case.read')).toEqual([
        { actor_email: counsellorUser.email, detail: { answers_of_submissions: submissionIds } },
      ]);
      await admin.get(`/api/students/${item.student_id}/history/`);
      expect(await auditDetails('student.history.read')).toEqual([
        { actor_email: cast.adminA.email, detail: { answers_of_submissions: submissionIds } },
      ]);

      await makeUser(ctx.db.kysely, {
        email: 'vic@north.edu',
        role: 'viewer',
        institutionId: cast.a.id,
        name: 'Vic Viewer',
      });
      const viewer = new TestAgent(ctx.app);
      await viewer.signInDirectly(ctx.db, 'vic@north.edu');
      for (const path of [`/api/cases/${item.id}/`, `/api/students/${item.student_id}/history/`]) {
        const response = await viewer.get(path);
        expectError(response, 403, 'FORBIDDEN', 'Staff access required');
        expect(JSON.stringify(response.body)).not.toContain('want to die');
      }
      expect((await auditDetails('case.read')).length).toBe(1);
    });

    it('records one row for a case screen that reads the case several times, and a new row once the reading window has passed', async () => {
      const item = await openedCase({ text: WRITTEN });
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        const start = Date.now();
        vi.setSystemTime(start);
        // The screen reads the case as it opens, again as it mounts anew, again on a retry.
        for (let view = 0; view < 3; view += 1)
          expect((await counsellor.get(`/api/cases/${item.id}/`)).status).toBe(200);
        for (let view = 0; view < 3; view += 1)
          expect((await admin.get(`/api/students/${item.student_id}/history/`)).status).toBe(200);
        // caseById read it once already, in the same window: still one row each.
        expect(await auditDetails('case.read')).toHaveLength(1);
        expect(await auditDetails('student.history.read')).toHaveLength(1);

        vi.setSystemTime(start + READ_REPEAT_WINDOW_MS + 1);
        expect((await counsellor.get(`/api/cases/${item.id}/`)).status).toBe(200);
        expect((await admin.get(`/api/cases/${item.id}/`)).status).toBe(200);
        expect((await auditDetails('case.read')).map((row) => row.actor_email)).toEqual([
          counsellorUser.email,
          counsellorUser.email,
          cast.adminA.email,
        ]);
      } finally {
        vi.useRealTimers();
      }
    });

    it('keeps the question as it was asked once it is deleted, and does not guess labels it had of its own', async () => {
      const item = await openedCase({ safety: '4' });
      const deleted = await admin.delete(`/api/survey-templates/${await templateIdOf()}/questions/`, {
        question_id: safetyQuestion().id,
      });
      expect(deleted.status).toBe(200);
      const history = await counsellor.get<StudentHistoryResponse>(
        `/api/students/${item.student_id}/history/`,
      );
      const answer = history.body.submissions[0]?.answers.find((entry) => entry.category === 'safety');
      expect(answer).toMatchObject({
        question_id: null,
        question_text: safetyQuestion().text,
        value: '4',
        answer_label: null,
      });
      expect(history.body.submissions[0]?.findings[0]?.reason).toBe(
        "Answered '4 (1 best, 5 worst)' to the self-harm question",
      );
    });

    it('words the reasons of a submission stored with the old wording from its answers, and reads what was recorded with its scale', async () => {
      const item = await openedCase({ likert: '4' });
      await ctx.db.kysely
        .updateTable('submissions')
        .set({ reasons: JSON.stringify(['Average wellbeing score 4.0 of 5']) })
        .execute();
      const [submission] = (await caseById(item.id)).submissions;
      expect(submission?.reasons).toEqual([
        'Wellbeing answers averaged 4.0 (1 = Excellent … 5 = Very Poor; higher is worse)',
      ]);
      expect(submission?.findings).toEqual([
        {
          tier: 'elevated',
          rule: 'wellbeing_answers',
          reason: 'Answered Poor or Uncomfortable to 5 of 5 wellbeing questions',
        },
        { tier: 'monitor', rule: 'category_answers', reason: 'Answered Poor to the general question' },
        { tier: 'monitor', rule: 'category_answers', reason: 'Answered Poor to the sleep question' },
        { tier: 'monitor', rule: 'category_answers', reason: 'Answered Poor to the stress question' },
        {
          tier: 'monitor',
          rule: 'category_answers',
          reason: 'Answered Poor or Uncomfortable to 2 of 2 support questions',
        },
      ]);
    });

    const templateIdOf = async () =>
      (
        await ctx.db.kysely
          .selectFrom('survey_templates')
          .select('id')
          .where('hash_link', '=', hashLink)
          .executeTakeFirstOrThrow()
      ).id;
  });

  describe('unproven urgent answers', () => {
    const fromClient = (agent: TestAgent, email: string, name: string, remoteAddress: string) =>
      agent.request({
        method: 'POST',
        url: `/api/survey/link/${hashLink}/`,
        payload: { student_name: name, school_email: email, answers: answersFor(questions, URGENT) },
        remoteAddress,
      });
    const alertsTo = async (to: string) =>
      (await outbox()).filter((mail) => mail.to_address === to && mail.subject.includes('follow-up now'))
        .length;
    const unprovenDigests = async () =>
      (await outbox()).filter((mail) => mail.subject.includes('unconfirmed senders'));

    beforeEach(async () => {
      await admin.request({ method: 'PUT', url: '/api/institution/settings/', payload: SETTINGS });
    });

    it('alerts once per open case: later unproven answers joining it add an event and mail no one', async () => {
      for (const name of ['Sam Student', 'Sam Again', 'Sam Third']) {
        const response = await submit(new TestAgent(ctx.app), URGENT, 'sam@north.edu', name);
        expect(response.body).toHaveProperty('crisis_resources');
      }
      expect(await alertsTo('alerts@north.edu')).toBe(1);
      const [only] = await cases();
      const detail = await caseById(only?.id ?? 0);
      expect(detail.events.map((event) => event.kind)).toEqual([
        'opened',
        'alert_queued',
        'submission',
        'submission',
      ]);
      expect(detail.submissions).toHaveLength(3);
    });

    it('keeps a verified urgent answer alerting at once each time, as before', async () => {
      const sam = new TestAgent(ctx.app);
      await proveAddress(sam, ctx.db.kysely, 'sam@north.edu', hashLink);
      await submit(sam, URGENT);
      await submit(sam, URGENT);
      expect(await alertsTo('alerts@north.edu')).toBe(2);
    });

    it('a burst of invented names from one client alerts within its limits, then in one digest, in its own queue', async () => {
      const burst = 25;
      const prover = new TestAgent(ctx.app);
      for (let n = 0; n < burst; n++) {
        const response = await fromClient(
          n === 5 ? prover : new TestAgent(ctx.app),
          `invented${n}@north.edu`,
          `Name ${n}`,
          '203.0.113.9',
        );
        expect(response.status).toBe(200);
        // Whoever sent it, the sender sees the crisis help, and the answer is stored and screened.
        expect(response.body).toHaveProperty('crisis_resources');
      }
      expect(await alertsTo('alerts@north.edu')).toBe(UNPROVEN_ALERTS_PER_CLIENT_PER_HOUR);
      // A real student from another address, unproven too, still alerts at once.
      await fromClient(new TestAgent(ctx.app), 'real@north.edu', 'Real Student', '198.51.100.4');
      expect(await alertsTo('alerts@north.edu')).toBe(UNPROVEN_ALERTS_PER_CLIENT_PER_HOUR + 1);
      // And a verified urgent answer always does.
      const verified = new TestAgent(ctx.app);
      await proveAddress(verified, ctx.db.kysely, 'vera@north.edu', hashLink);
      await submit(verified, URGENT, 'vera@north.edu', 'Vera');
      expect(await alertsTo('alerts@north.edu')).toBe(UNPROVEN_ALERTS_PER_CLIENT_PER_HOUR + 2);

      const stored = await ctx.db.kysely
        .selectFrom('submissions')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('tier', '=', 'urgent')
        .executeTakeFirstOrThrow();
      expect(Number(stored.count)).toBe(burst + 2);

      // Verified cases first, and each queue apart, counted exactly.
      const all = await counsellor.get<CaseListResponse>('/api/cases/');
      expect(all.body.cases).toHaveLength(burst + 2);
      expect(all.body.cases[0]).toMatchObject({ school_email: 'vera@north.edu', verified: true });
      expect(all.body.open_counts).toEqual({ verified: 1, unproven: burst + 1 });
      const unproven = await counsellor.get<CaseListResponse>('/api/cases/?queue=unproven');
      expect(unproven.body.cases).toHaveLength(burst + 1);
      expect(unproven.body.cases.every((found) => !found.verified)).toBe(true);
      const verifiedQueue = await counsellor.get<CaseListResponse>('/api/cases/?queue=verified');
      expect(verifiedQueue.body.cases.map((found) => found.school_email)).toEqual(['vera@north.edu']);
      expectError(
        await counsellor.get('/api/cases/?queue=everything'),
        400,
        'VALIDATION_FAILED',
        'queue must be all, verified or unproven',
      );

      // The cases past the limits go in one digest per contact, not one mail each.
      expect(await unprovenDigests()).toEqual([]);
      await ctx.app.jobs.runDue(() => Date.now() + DIGEST_WINDOW);
      const digests = await unprovenDigests();
      expect(digests.map((mail) => mail.to_address).sort()).toEqual(['alerts@north.edu', 'duty@north.edu']);
      const digested = burst - UNPROVEN_ALERTS_PER_CLIENT_PER_HOUR;
      expect(digests[0]?.subject).toContain(`${digested} more check-ins`);
      expect(`${digests[0]?.subject} ${digests[0]?.body}`).not.toMatch(/risk|urgent|kill|Name \d/i);
      await ctx.app.jobs.runDue(() => Date.now() + 2 * DIGEST_WINDOW);
      expect(await unprovenDigests()).toHaveLength(2);

      // One of them proves the address from the tab that sent it: the case is the student's own
      // now, and its reminder goes out at once.
      const head = async () =>
        (await outbox()).filter(
          (mail) => mail.to_address === 'head@north.edu' && mail.subject.includes('waiting'),
        ).length;
      const remindersBefore = await head();
      await proveAddress(prover, ctx.db.kysely, 'invented5@north.edu', hashLink);
      await ctx.app.jobs.runDue(() => Date.now() + 1000);
      expect(await head()).toBe(remindersBefore + 1);

      // Nor do the other digested cases come back as one reminder each once overdue.
      await ctx.app.jobs.runDue(() => Date.now() + 31 * MINUTE);
      expect(
        (await outbox()).filter(
          (mail) => mail.to_address === 'head@north.edu' && mail.subject.includes('waiting'),
        ),
        // One each for the cases alerted at once (two of the burst, the real student's, Vera's),
        // two for the case verified since (at its proof, and one window later); none for the rest.
      ).toHaveLength(UNPROVEN_ALERTS_PER_CLIENT_PER_HOUR + 2 + 2);
    });

    it(`alerts at most ${UNPROVEN_ALERTS_PER_INSTITUTION_PER_HOUR} unproven cases an hour across clients`, async () => {
      for (let n = 0; n < UNPROVEN_ALERTS_PER_INSTITUTION_PER_HOUR + 3; n++) {
        await fromClient(new TestAgent(ctx.app), `spread${n}@north.edu`, `Spread ${n}`, `192.0.2.${n + 1}`);
      }
      expect(await alertsTo('alerts@north.edu')).toBe(UNPROVEN_ALERTS_PER_INSTITUTION_PER_HOUR);
      expect((await cases(counsellor)).length).toBe(UNPROVEN_ALERTS_PER_INSTITUTION_PER_HOUR + 3);
      // An hour on, the allowance is back.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + HOUR + MINUTE);
      await fromClient(new TestAgent(ctx.app), 'later@north.edu', 'Later', '192.0.2.200');
      vi.useRealTimers();
      expect(await alertsTo('alerts@north.edu')).toBe(UNPROVEN_ALERTS_PER_INSTITUTION_PER_HOUR + 1);
    });
  });

  describe('deadlines, escalation and the digest', () => {
    // Saturday 2026-03-07 09:00 in New York: the clocks spring forward the next night.
    const OPENED = Date.UTC(2026, 2, 7, 14);

    async function openAt(at: number, plan: Plan, email = 'sam@north.edu') {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(at);
      await submit(new TestAgent(ctx.app), plan, email);
      vi.useRealTimers();
    }
    const escalationsTo = async (to: string) =>
      (await outbox()).filter((mail) => mail.to_address === to && mail.subject.includes('waiting')).length;

    beforeEach(async () => {
      await admin.request({
        method: 'PUT',
        url: '/api/institution/settings/',
        payload: { ...SETTINGS, elevated_ack_hours: 48 },
      });
    });

    it("escalates an elevated case at its deadline on the institution's calendar, again while overdue, and stops once acknowledged", async () => {
      await openAt(OPENED, ELEVATED);
      const [opened] = await cases();
      // Two local days later at 09:00 EDT: 47 hours, across the change.
      expect(opened?.acknowledge_by).toBe(new Date(Date.UTC(2026, 2, 9, 13)).toISOString());
      const deadline = Date.UTC(2026, 2, 9, 13);
      await ctx.app.jobs.runDue(() => deadline - 1);
      expect(await escalationsTo('head@north.edu')).toBe(0);
      await ctx.app.jobs.runDue(() => deadline);
      expect(await escalationsTo('head@north.edu')).toBe(1);
      // Running again at once sends nothing more; the next reminder is one window later.
      await ctx.app.jobs.runDue(() => deadline + HOUR);
      expect(await escalationsTo('head@north.edu')).toBe(1);
      await ctx.app.jobs.runDue(() => Date.UTC(2026, 2, 11, 13));
      expect(await escalationsTo('head@north.edu')).toBe(2);
      const overdue = await cases();
      expect(overdue[0]?.overdue).toBe(true);

      await counsellor.post(`/api/cases/${opened?.id}/acknowledge/`);
      await ctx.app.jobs.runDue(() => Date.UTC(2026, 2, 20, 13));
      expect(await escalationsTo('head@north.edu')).toBe(2);
      const detail = await caseById(opened?.id ?? 0);
      expect(detail.events.filter((event) => event.kind === 'escalated').map((event) => event.text)).toEqual([
        'Reminder 1 to 1 contact(s)',
        'Reminder 2 to 1 contact(s)',
      ]);
    });

    it('escalates an urgent case after its minutes, every window, and lists overdue cases first', async () => {
      await openAt(OPENED, ELEVATED, 'ella@north.edu');
      await openAt(OPENED + MINUTE, URGENT, 'uri@north.edu');
      const [first] = await cases();
      expect(first?.school_email).toBe('uri@north.edu');
      // The mails tell the deadline on the institution's clock, naming its zone: 09:31 in New York.
      const alert = (await outbox()).find((mail) => mail.to_address === 'alerts@north.edu');
      expect(alert?.body).toContain('Acknowledge by: Sat 7 Mar 2026, 09:31 (America/New_York)');
      await ctx.app.jobs.runDue(() => OPENED + 31 * MINUTE);
      expect(await escalationsTo('head@north.edu')).toBe(1);
      const escalation = (await outbox()).find((mail) => mail.subject.includes('waiting'));
      expect(escalation?.body).toContain('It was due by: Sat 7 Mar 2026, 09:31 (America/New_York)');
      await ctx.app.jobs.runDue(() => OPENED + 61 * MINUTE);
      expect(await escalationsTo('head@north.edu')).toBe(2);
    });

    it('reopens a resolved case: new again, due one window from the reopening on the local calendar, escalating, in the trail and the audit log', async () => {
      await openAt(OPENED, ELEVATED);
      const [opened] = await cases();
      const id = opened?.id ?? 0;
      await counsellor.post(`/api/cases/${id}/acknowledge/`);
      await admin.post(`/api/cases/${id}/resolve/`, { outcome: 'unable_to_reach' });
      // Reopened on Saturday 12:00 in New York: due Monday 12:00 EDT, two local days later.
      const reopenedAt = Date.UTC(2026, 2, 7, 17);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(reopenedAt);
      const reopened = await counsellor.post<CaseDetailResponse>(`/api/cases/${id}/reopen/`, {
        note: '  She wrote again.  ',
      });
      vi.useRealTimers();
      expect(reopened.status).toBe(200);
      const deadline = Date.UTC(2026, 2, 9, 16);
      expect(reopened.body.case).toMatchObject({
        status: 'new',
        outcome: null,
        resolved_at: null,
        acknowledged_at: null,
        acknowledge_by: new Date(deadline).toISOString(),
        assigned_to: { id: counsellorUser.id },
      });
      expect(reopened.body.case.events.at(-1)).toMatchObject({
        kind: 'reopened',
        actor: 'Casey Counsellor',
        text: 'She wrote again.',
      });
      expect(await auditActions()).toContain('case.reopen');
      expect((await cases()).map((found) => found.id)).toEqual([id]);
      // Reopening again changes nothing; the case is worked as any open case.
      const again = await counsellor.post<CaseDetailResponse>(`/api/cases/${id}/reopen/`, {});
      expect(again.body.case.events.filter((event) => event.kind === 'reopened')).toHaveLength(1);
      await ctx.app.jobs.runDue(() => deadline - 1);
      expect(await escalationsTo('head@north.edu')).toBe(0);
      await ctx.app.jobs.runDue(() => deadline);
      expect(await escalationsTo('head@north.edu')).toBe(1);
    });

    it('reopens no case while the student has a newer open one, nor for another institution or a viewer, changing nothing', async () => {
      await openAt(OPENED, URGENT);
      const [first] = await cases();
      const id = first?.id ?? 0;
      await counsellor.post(`/api/cases/${id}/resolve/`, { outcome: 'connected_to_counselling' });
      const south = new TestAgent(ctx.app);
      await south.signInDirectly(ctx.db, cast.adminB.email);
      expectError(await south.post(`/api/cases/${id}/reopen/`, {}), 404, 'NOT_FOUND', CASE_NOT_FOUND);
      const viewerUser = await makeUser(ctx.db.kysely, {
        email: 'vera@north.edu',
        role: 'viewer',
        institutionId: cast.a.id,
      });
      const viewer = new TestAgent(ctx.app);
      await viewer.signInDirectly(ctx.db, viewerUser.email);
      expectError(
        await viewer.post(`/api/cases/${id}/reopen/`, {}),
        403,
        'FORBIDDEN',
        'Staff access required',
      );
      expect((await counsellor.post(`/api/cases/${id}/reopen/`, { note: 'x'.repeat(5001) })).status).toBe(
        400,
      );
      await openAt(OPENED + HOUR, ELEVATED);
      const before = await ctx.db.kysely.selectFrom('case_events').select('id').execute();
      expectError(await counsellor.post(`/api/cases/${id}/reopen/`, {}), 409, 'CONFLICT', OTHER_CASE_OPEN);
      expect(await ctx.db.kysely.selectFrom('case_events').select('id').execute()).toEqual(before);
      expect((await caseById(id)).status).toBe('resolved');
    });

    it("sends one digest of the day's new elevated cases at 08:00 in the institution's time zone", async () => {
      await openAt(OPENED, ELEVATED, 'ella@north.edu');
      await openAt(OPENED + HOUR, ELEVATED, 'eli@north.edu');
      await openAt(OPENED + 2 * HOUR, URGENT, 'uri@north.edu');
      const digests = async () =>
        (await outbox())
          .filter((mail) => mail.subject.includes('to review'))
          .map((mail) => [mail.to_address, mail.subject]);
      // Sunday 08:00 in New York is already summer time (the clocks went forward at 02:00): 12:00 UTC.
      const sundayEight = Date.UTC(2026, 2, 8, 12);
      await ctx.app.jobs.runDue(() => sundayEight - 1);
      expect(await digests()).toEqual([]);
      await ctx.app.jobs.runDue(() => sundayEight);
      expect(await digests()).toEqual([
        ['alerts@north.edu', 'Wellspring: 2 new cases to review'],
        ['duty@north.edu', 'Wellspring: 2 new cases to review'],
      ]);
      await ctx.app.jobs.runDue(() => sundayEight + 2 * 24 * HOUR);
      expect(await digests()).toHaveLength(2);
    });
  });
});
