import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { rollupSnapshot } from '../../../../test/helpers/dashboard-data';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions } from '../../../../test/helpers/factories';
import { proveAddress } from '../../../../test/helpers/verify';
import { crisisHelpFor, LEXICON_VERSION } from '../../../common/risk';
import type { ErrorCode } from '../../../common/schemas/common';
import {
  LINK_NOT_FOUND,
  NO_SURVEY_FOR_INSTITUTION,
  type SurveyQuestion,
} from '../../../common/schemas/surveys';
import { rebuildDashboardRollups } from '../dashboard';
import { DEFAULT_QUESTIONS } from '../templates';
import { UNCONFIRMED_NAME } from './queries';
import {
  ADMINS_CANNOT_SUBMIT,
  CONFIRM_ADDRESS,
  EMAIL_REQUIRED,
  FILL_IN_ALL,
  LOGIN_TO_SUBMIT,
  NAME_REQUIRED,
  NO_QUESTIONS,
  OTHER_INSTITUTION,
  RECEIVED,
  SUPERUSERS_CANNOT_SUBMIT,
  SURVEY_CHANGED,
  SURVEY_NOT_FOUND,
  TEMPLATE_MISMATCH,
  THANK_YOU,
} from './service';

type Cast = Awaited<ReturnType<typeof makeTwoInstitutions>>;

/** What an urgent answer shows at an institution with no crisis resources of its own. */
const ALWAYS_OPEN_ONLY = crisisHelpFor({ resources: [], first: false });
type Survey = { success: true; questions: SurveyQuestion[]; template_id: number };

/** Answers by category: Likert values, the safety answer and the written answer. */
interface AnswerPlan {
  likert?: string;
  safety?: string;
  text?: string;
}

function answersFor(questions: SurveyQuestion[], plan: AnswerPlan = {}): Record<string, string> {
  return Object.fromEntries(
    questions.map((question) => {
      if (question.question_type === 'text')
        return [String(question.id), plan.text ?? 'Things are going fine.'];
      if (question.category === 'safety') return [String(question.id), plan.safety ?? '1'];
      return [String(question.id), plan.likert ?? '2'];
    }),
  );
}

describe.each(TEST_DIALECTS)('surveys on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Cast;

  async function agentFor(user: { email: string; password: string } | null) {
    const agent = new TestAgent(ctx.app);
    if (user) await agent.signInDirectly(ctx.db, user.email);
    return agent;
  }

  async function template(institutionId: number) {
    return ctx.db.kysely
      .selectFrom('survey_templates')
      .select(['id', 'hash_link'])
      .where('institution_id', '=', institutionId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
  }

  async function surveyOf(hashLink: string) {
    const response = await new TestAgent(ctx.app).get<Survey>(`/api/get-user-survey-questions/${hashLink}/`);
    expect(response.status).toBe(200);
    return response.body;
  }

  async function submissions() {
    return ctx.db.kysely.selectFrom('submissions').selectAll().orderBy('id').execute();
  }

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
  });

  afterEach(async () => {
    await ctx.close();
  });

  describe('GET /api/get-user-survey-questions/', () => {
    it('gives a student the active template, questions in the survey shape, by order', async () => {
      const student = await agentFor(cast.studentA);
      const response = await student.get<Survey>('/api/get-user-survey-questions/');
      expect(response.status).toBe(200);
      expect(response.body.template_id).toBe((await template(cast.a.id)).id);
      expect(response.body.questions).toHaveLength(DEFAULT_QUESTIONS.length);
      expect(response.body.questions[0]).toEqual({
        id: expect.any(Number),
        text: DEFAULT_QUESTIONS[0]?.question_text,
        question_type: 'likert',
        category: 'general',
        answer_choices: null,
        order: 1,
        language: 'en',
      });
      expect(response.body.questions.map((q) => q.order)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(response.body.questions.find((q) => q.category === 'safety')?.answer_choices).toMatchObject({
        '2': 'Rarely',
      });
    });

    it('follows the template the admin activates', async () => {
      const admin = await agentFor(cast.adminA);
      const created = await admin.post<{ template: { id: number } }>('/api/survey-templates/');
      await admin.post(`/api/survey-templates/${created.body.template.id}/use/`);
      const response = await (await agentFor(cast.studentA)).get<Survey>('/api/get-user-survey-questions/');
      expect(response.body).toEqual({ success: true, template_id: created.body.template.id, questions: [] });
    });

    it('falls back to the first template when none is active', async () => {
      const admin = await agentFor(cast.adminA);
      const first = await admin.post<{ template: { id: number } }>('/api/survey-templates/');
      await admin.post('/api/survey-templates/');
      await admin.delete('/api/survey-templates/', { template_id: (await template(cast.a.id)).id });
      const response = await (await agentFor(cast.studentA)).get<Survey>('/api/get-user-survey-questions/');
      expect(response.status).toBe(200);
      expect(response.body.template_id).toBe(first.body.template.id);
    });

    it('answers 404 with the spec message when the institution has no template', async () => {
      const admin = await agentFor(cast.adminA);
      await admin.delete('/api/survey-templates/', { template_id: (await template(cast.a.id)).id });
      expectError(
        await (await agentFor(cast.studentA)).get('/api/get-user-survey-questions/'),
        404,
        'NOT_FOUND',
        NO_SURVEY_FOR_INSTITUTION,
      );
    });

    it('lets an admin preview the survey', async () => {
      const response = await (await agentFor(cast.adminA)).get<Survey>('/api/get-user-survey-questions/');
      expect(response.status).toBe(200);
      expect(response.body.questions).toHaveLength(DEFAULT_QUESTIONS.length);
    });

    it('answers 401 to visitors', async () => {
      expectError(
        await new TestAgent(ctx.app).get('/api/get-user-survey-questions/'),
        401,
        'UNAUTHENTICATED',
        'Authentication required',
      );
    });
  });

  describe('GET /api/get-user-survey-questions/{hashLink}/', () => {
    it("gives anyone the link's questions, active or not", async () => {
      const admin = await agentFor(cast.adminA);
      const created = await admin.post<{ template: { id: number; hash_link: string } }>(
        '/api/survey-templates/',
      );
      await admin.post(`/api/survey-templates/${created.body.template.id}/questions/`, {
        question_text: 'How rested are you?',
        question_type: 'likert',
        question_category: 'sleep',
        order: 1,
        answer_choices: { '1': 'Fully rested' },
      });
      const survey = await surveyOf(created.body.template.hash_link);
      expect(survey).toEqual({
        success: true,
        template_id: created.body.template.id,
        questions: [
          {
            id: expect.any(Number),
            text: 'How rested are you?',
            question_type: 'likert',
            category: 'sleep',
            answer_choices: { '1': 'Fully rested' },
            order: 1,
            language: 'en',
          },
        ],
      });
    });

    it.each(['no-such-link', 'x'.repeat(100)])('answers 404 for the unknown link %s', async (hashLink) => {
      expectError(
        await new TestAgent(ctx.app).get(`/api/get-user-survey-questions/${hashLink}/`),
        404,
        'NOT_FOUND',
        LINK_NOT_FOUND,
      );
    });
  });

  describe('POST /api/survey/ (logged-in student)', () => {
    let student: TestAgent;
    let survey: Survey;

    async function submit(body: Record<string, unknown>) {
      return student.post<Record<string, unknown>>('/api/survey/', body);
    }

    beforeEach(async () => {
      student = await agentFor(cast.studentA);
      survey = (await student.get<Survey>('/api/get-user-survey-questions/')).body;
    });

    it('stores the submission as the account, with its answers, and says nothing about screening', async () => {
      const answers = answersFor(survey.questions, { text: '  Busy week, but okay.  ' });
      const response = await submit({
        survey_template_id: survey.template_id,
        student_name: 'Sam North',
        school_email: 'student@north.edu',
        answers,
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, message: THANK_YOU });

      const [stored] = await submissions();
      expect(stored).toMatchObject({
        institution_id: cast.a.id,
        template_id: survey.template_id,
        user_id: cast.studentA.id,
        student_name: 'Sam North',
        school_email: 'student@north.edu',
        tier: 'none',
        likert_mean: 2,
        client_submission_id: null,
      });
      expect(JSON.parse(stored?.reasons ?? '')).toEqual([]);
      const answerRows = await ctx.db.kysely.selectFrom('answers').selectAll().orderBy('id').execute();
      expect(answerRows).toHaveLength(DEFAULT_QUESTIONS.length);
      expect(answerRows.at(-1)).toMatchObject({
        question_type: 'text',
        category: 'general',
        value: 'Busy week, but okay.',
      });
      expect(answerRows[0]).toMatchObject({ question_text: DEFAULT_QUESTIONS[0]?.question_text, value: '2' });
      const respondent = await ctx.db.kysely.selectFrom('respondents').selectAll().executeTakeFirstOrThrow();
      expect(respondent).toMatchObject({
        institution_id: cast.a.id,
        email: 'student@north.edu',
        user_id: cast.studentA.id,
      });
    });

    it('takes name and email from the account when the form leaves them out', async () => {
      const response = await submit({
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions),
      });
      expect(response.status).toBe(200);
      expect((await submissions())[0]).toMatchObject({
        student_name: 'Sam North',
        school_email: 'student@north.edu',
      });
    });

    it('accepts the account email in another case', async () => {
      const response = await submit({
        survey_template_id: survey.template_id,
        school_email: 'Student@North.EDU',
        answers: answersFor(survey.questions),
      });
      expect(response.status).toBe(200);
    });

    it('refuses a submission under another email', async () => {
      const response = await submit({
        survey_template_id: survey.template_id,
        school_email: 'someone.else@north.edu',
        answers: answersFor(survey.questions),
      });
      expectError(
        response,
        403,
        'FORBIDDEN',
        'You are logged in as student@north.edu. You can only submit the survey as yourself.',
      );
      expect(await submissions()).toEqual([]);
    });

    it('clears the draft of that survey', async () => {
      await student.post('/api/autosave/', {
        template_id: survey.template_id,
        answers: { [survey.questions[0]?.id ?? 0]: '3' },
      });
      await submit({ survey_template_id: survey.template_id, answers: answersFor(survey.questions) });
      const draft = await student.get(`/api/autosave/load/${survey.template_id}`);
      expect(draft.body).toEqual({ success: true, saved_data: null });
    });

    it('returns the crisis resources, and only them, when a safety answer is 2 or more', async () => {
      const response = await submit({
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions, { safety: '2' }),
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        message: THANK_YOU,
        crisis_resources: ALWAYS_OPEN_ONLY,
      });
      expect((await submissions())[0]?.tier).toBe('urgent');
    });

    it('returns crisis resources for crisis language in a written answer', async () => {
      const response = await submit({
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions, { text: 'I want to kill myself' }),
      });
      expect(response.body.crisis_resources).toEqual(ALWAYS_OPEN_ONLY);
    });

    it('screens a written answer in Spanish for crisis language', async () => {
      const response = await submit({
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions, { text: 'ya no quiero vivir, me quiero matar' }),
      });
      expect(response.body.crisis_resources).toEqual(ALWAYS_OPEN_ONLY);
      expect((await submissions())[0]?.tier).toBe('urgent');
    });

    it('stores the version of the lexicon that screened each submission', async () => {
      await submit({
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions, { text: 'I want to kill myself' }),
      });
      const [stored] = await submissions();
      expect(stored?.tier).toBe('urgent');
      expect(stored?.lexicon_version).toBe(LEXICON_VERSION);
      expect(LEXICON_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    });

    it("adds the institution's own crisis resources to the always-open lines, in its order", async () => {
      const own = [
        {
          name: 'North Counselling',
          description: 'Same-day appointments.',
          hours: 'weekdays 8am-6pm',
          phone: '(617) 555-0100',
        },
      ];
      await ctx.db.kysely
        .updateTable('institutions')
        .set({ crisis_resources: JSON.stringify({ resources: own, first: true }) })
        .where('id', '=', cast.a.id)
        .execute();
      const response = await submit({
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions, { safety: '5' }),
      });
      expect(response.body.crisis_resources).toEqual({
        always_open: ALWAYS_OPEN_ONLY.always_open,
        institution: own,
        institution_first: true,
      });
    });

    it('shows the always-open lines when the configured resources are broken', async () => {
      await ctx.db.kysely
        .updateTable('institutions')
        .set({ crisis_resources: '[{"name":""}]' })
        .where('id', '=', cast.a.id)
        .execute();
      const response = await submit({
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions, { safety: '3' }),
      });
      expect(response.body.crisis_resources).toEqual(ALWAYS_OPEN_ONLY);
    });

    it('tells an elevated student nothing more than anyone else', async () => {
      const response = await submit({
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions, { likert: '4' }),
      });
      expect(response.body).toEqual({ success: true, message: THANK_YOU });
      const [stored] = await submissions();
      expect(stored?.tier).toBe('elevated');
      expect(JSON.parse(stored?.reasons ?? '[]')).toContain(
        'Answered Poor or Uncomfortable to 5 of 5 wellbeing questions',
      );
    });

    it('words the reason with the answer the student saw on the self-harm question', async () => {
      await submit({
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions, { safety: '4' }),
      });
      const [stored] = await submissions();
      expect(JSON.parse(stored?.reasons ?? '[]')).toEqual(["Answered 'Often' to the self-harm question"]);
    });

    it("compares with the student's previous submission (monitor when worse by 1.0)", async () => {
      await submit({
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions, { likert: '1' }),
      });
      await submit({
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions, { likert: '2' }),
      });
      await submit({
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions, { likert: '3' }),
      });
      const stored = await submissions();
      expect(stored.map((s) => s.tier)).toEqual(['none', 'monitor', 'monitor']);
      expect(stored.map((s) => s.likert_mean)).toEqual([1, 2, 3]);
    });

    it('stores one submission for a retried submission_id and answers the retry like the first', async () => {
      const body = {
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions, { safety: '4' }),
        submission_id: '3f0e8a58-8c1b-4bfb-9f8e-7a1c2d3e4f50',
      };
      const first = await submit(body);
      const retry = await submit(body);
      expect(retry.status).toBe(200);
      expect(retry.body).toEqual(first.body);
      expect(retry.body.crisis_resources).toEqual(ALWAYS_OPEN_ONLY);
      expect(await submissions()).toHaveLength(1);
      expect(await ctx.db.kysely.selectFrom('answers').select('id').execute()).toHaveLength(
        DEFAULT_QUESTIONS.length,
      );
    });

    it('stores one submission when copies of a submit arrive at once', async () => {
      const body = {
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions),
        submission_id: 'double-click-0001',
      };
      const responses = await Promise.all(Array.from({ length: 5 }, () => submit(body)));
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(await submissions()).toHaveLength(1);
    });

    it('stores a new submission for a new submission_id', async () => {
      await submit({
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions),
        submission_id: 'first-attempt-1',
      });
      await submit({
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions),
        submission_id: 'second-attempt-2',
      });
      expect(await submissions()).toHaveLength(2);
    });

    it('keeps the answers when their question is deleted later', async () => {
      await submit({ survey_template_id: survey.template_id, answers: answersFor(survey.questions) });
      const admin = await agentFor(cast.adminA);
      const removed = survey.questions[1] as SurveyQuestion;
      await admin.delete(`/api/survey-templates/${survey.template_id}/questions/`, {
        question_id: removed.id,
      });
      const row = await ctx.db.kysely
        .selectFrom('answers')
        .selectAll()
        .where('question_text', '=', removed.text)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ question_id: null, category: 'sleep', value: '2' });
    });

    it("updates the admin's dashboard in the same transaction", async () => {
      await submit({
        survey_template_id: survey.template_id,
        answers: answersFor(survey.questions, { safety: '2' }),
      });
      const dashboard = await (await agentFor(cast.adminA)).get<{
        num_responses: number;
        flagged_students: string[][];
      }>('/api/dashboard/');
      expect(dashboard.body.num_responses).toBe(1);
      expect(dashboard.body.flagged_students).toEqual([['Sam North', 'student@north.edu']]);
    });

    describe('refusals that store nothing', () => {
      it('401 with requires_auth for visitors', async () => {
        const visitor = new TestAgent(ctx.app);
        const response = await visitor.post('/api/survey/', {
          survey_template_id: survey.template_id,
          answers: {},
        });
        expectError(response, 401, 'REQUIRES_AUTH', LOGIN_TO_SUBMIT, { requires_auth: true });
      });

      it('403 for admins, whatever they send', async () => {
        const admin = await agentFor(cast.adminA);
        expectError(
          await admin.post('/api/survey/', { nonsense: true }),
          403,
          'FORBIDDEN',
          ADMINS_CANNOT_SUBMIT,
        );
        const response = await admin.post('/api/survey/', {
          survey_template_id: survey.template_id,
          answers: answersFor(survey.questions),
        });
        expectError(response, 403, 'FORBIDDEN', ADMINS_CANNOT_SUBMIT);
      });

      it('403 for superusers', async () => {
        const root = new TestAgent(ctx.app);
        // Superusers cannot log in through the app; give one a session directly.
        const { createSession, SESSION_COOKIE } = await import('../../lib/sessions');
        root.jar.set(SESSION_COOKIE, (await createSession(ctx.db.kysely, cast.superuser.id)).sessionId);
        expectError(
          await root.post('/api/survey/', { answers: {} }),
          403,
          'FORBIDDEN',
          SUPERUSERS_CANNOT_SUBMIT,
        );
      });

      it("404 for another institution's template", async () => {
        const theirs = await template(cast.b.id);
        const theirSurvey = await surveyOf(theirs.hash_link);
        const response = await submit({
          survey_template_id: theirs.id,
          answers: answersFor(theirSurvey.questions),
        });
        expectError(response, 404, 'NOT_FOUND', SURVEY_NOT_FOUND);
      });

      it('400 for a template without questions', async () => {
        const admin = await agentFor(cast.adminA);
        const created = await admin.post<{ template: { id: number } }>('/api/survey-templates/');
        expectError(
          await submit({ survey_template_id: created.body.template.id, answers: {} }),
          400,
          'BAD_REQUEST',
          NO_QUESTIONS,
        );
      });

      const cases: Array<[string, (s: Survey) => Record<string, unknown>, string, ErrorCode]> = [
        [
          'no template id',
          (s) => ({ answers: answersFor(s.questions) }),
          'survey_template_id is required',
          'VALIDATION_FAILED',
        ],
        [
          'a template id that is text',
          (s) => ({ survey_template_id: 'one', answers: answersFor(s.questions) }),
          'survey_template_id must be a number',
          'VALIDATION_FAILED',
        ],
        [
          'no answers',
          (s) => ({ survey_template_id: s.template_id }),
          'Answers must be an object keyed by question id',
          'VALIDATION_FAILED',
        ],
        [
          'answers as a list',
          (s) => ({ survey_template_id: s.template_id, answers: ['1'] }),
          'Answers must be an object keyed by question id',
          'VALIDATION_FAILED',
        ],
        [
          'a blank written answer',
          (s) => ({ survey_template_id: s.template_id, answers: answersFor(s.questions, { text: '   ' }) }),
          FILL_IN_ALL,
          'BAD_REQUEST',
        ],
        [
          'an answer keyed "01"',
          (s) => ({ survey_template_id: s.template_id, answers: { ...answersFor(s.questions), '01': '3' } }),
          'Answers must be keyed by question id',
          'VALIDATION_FAILED',
        ],
        [
          'a Likert answer of 6',
          (s) => ({ survey_template_id: s.template_id, answers: answersFor(s.questions, { likert: '6' }) }),
          'Question 1: choose an answer from 1 to 5',
          'BAD_REQUEST',
        ],
        [
          'a Likert answer of 2.5',
          (s) => ({ survey_template_id: s.template_id, answers: answersFor(s.questions, { likert: '2.5' }) }),
          'Question 1: choose an answer from 1 to 5',
          'BAD_REQUEST',
        ],
        [
          'a Likert answer in words',
          (s) => ({
            survey_template_id: s.template_id,
            answers: answersFor(s.questions, { safety: 'never' }),
          }),
          'Question 6: choose an answer from 1 to 5',
          'BAD_REQUEST',
        ],
        [
          'a numeric answer',
          (s) => ({
            survey_template_id: s.template_id,
            answers: { ...answersFor(s.questions), [String(s.questions[0]?.id)]: 3 },
          }),
          'Each answer must be text: "1" to "5" or a written answer',
          'VALIDATION_FAILED',
        ],
        [
          'a written answer over 5000 characters',
          (s) => ({
            survey_template_id: s.template_id,
            answers: answersFor(s.questions, { text: 'a'.repeat(5001) }),
          }),
          'Each answer must be at most 5000 characters',
          'VALIDATION_FAILED',
        ],
        [
          'a name over 200 characters',
          (s) => ({
            survey_template_id: s.template_id,
            student_name: 'n'.repeat(201),
            answers: answersFor(s.questions),
          }),
          'Full name must be at most 200 characters',
          'VALIDATION_FAILED',
        ],
        [
          'an invalid email',
          (s) => ({
            survey_template_id: s.template_id,
            school_email: 'not-an-email',
            answers: answersFor(s.questions),
          }),
          'Enter a valid email address',
          'VALIDATION_FAILED',
        ],
        [
          'a malformed submission_id',
          (s) => ({
            survey_template_id: s.template_id,
            answers: answersFor(s.questions),
            submission_id: 'x; drop table',
          }),
          'submission_id must be 8 to 64 letters, digits, "-" or "_" (a UUID)',
          'VALIDATION_FAILED',
        ],
      ];

      it.each(cases)('400 for %s', async (_label, body, message, code) => {
        expectError(await submit(body(survey)), 400, code, message);
        expect(await submissions()).toEqual([]);
        expect(await ctx.db.kysely.selectFrom('respondents').select('id').execute()).toEqual([]);
      });

      it.each([
        [
          'a question the form did not know (no key for it)',
          (s: Survey) => {
            const answers = answersFor(s.questions);
            delete answers[String(s.questions[0]?.id)];
            return { survey_template_id: s.template_id, answers };
          },
        ],
        [
          'an answer to a question the survey no longer has',
          (s: Survey) => ({
            survey_template_id: s.template_id,
            answers: { ...answersFor(s.questions), '999999': '3' },
          }),
        ],
      ])('409 "survey changed" for %s, storing nothing', async (_label, body) => {
        expectError(await submit(body(survey)), 409, 'CONFLICT', SURVEY_CHANGED);
        expect(await submissions()).toEqual([]);
      });

      it('400 for a body that is not JSON', async () => {
        const response = await student.request({
          method: 'POST',
          url: '/api/survey/',
          payload: '{"answers":',
          headers: { 'content-type': 'application/json' },
        });
        expect(response.status).toBe(400);
        expect(await submissions()).toEqual([]);
      });
    });
  });

  describe('POST /api/survey/link/{hashLink}/', () => {
    let link: { id: number; hash_link: string };
    let survey: Survey;
    const url = () => `/api/survey/link/${link.hash_link}/`;
    const visitor = () => new TestAgent(ctx.app);

    beforeEach(async () => {
      link = await template(cast.a.id);
      survey = await surveyOf(link.hash_link);
    });

    /** A visitor whose browser proved the address: what they send counts as that student's. */
    async function provenVisitor(email: string) {
      const agent = visitor();
      await proveAddress(agent, ctx.db.kysely, email, link.hash_link);
      return agent;
    }

    it('stores a visitor’s submission under the name and email they give, unproven until the code', async () => {
      const response = await visitor().post(url(), {
        survey_template_id: link.id,
        student_name: '  Robin Link ',
        school_email: 'Robin@North.edu',
        answers: answersFor(survey.questions),
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        message: CONFIRM_ADDRESS,
        verification_required: true,
        proof_token: expect.any(String),
      });
      expect((await submissions())[0]).toMatchObject({
        student_name: 'Robin Link',
        school_email: 'robin@north.edu',
        user_id: null,
        verified_at: null,
      });
      const respondent = await ctx.db.kysely.selectFrom('respondents').selectAll().executeTakeFirstOrThrow();
      // The name stays with the submission: an unproven sender names no student record.
      expect(respondent).toMatchObject({ email: 'robin@north.edu', name: UNCONFIRMED_NAME, user_id: null });
    });

    it('thanks an unproven visitor in crisis without the code request, which the screen puts after the help', async () => {
      const response = await visitor().post(url(), {
        survey_template_id: link.id,
        student_name: 'Robin Link',
        school_email: 'robin@north.edu',
        answers: answersFor(survey.questions, { safety: '4' }),
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        message: RECEIVED,
        verification_required: true,
        proof_token: expect.any(String),
        crisis_resources: ALWAYS_OPEN_ONLY,
      });
      expect(RECEIVED).not.toMatch(/code|confirm/i);
    });

    it('counts a returning visitor as one respondent and compares with their last submission', async () => {
      const body = { student_name: 'Robin Link', school_email: 'robin@north.edu' };
      const robin = await provenVisitor('robin@north.edu');
      const first = await robin.post(url(), {
        ...body,
        answers: answersFor(survey.questions, { likert: '1' }),
      });
      expect(first.body).toEqual({ success: true, message: THANK_YOU });
      await robin.post(url(), { ...body, answers: answersFor(survey.questions, { likert: '3' }) });
      expect((await submissions()).map((s) => s.tier)).toEqual(['none', 'monitor']);
      expect(await ctx.db.kysely.selectFrom('respondents').select('id').execute()).toHaveLength(1);
    });

    it('counts a new visitor once when their first submissions arrive all at once', async () => {
      const before = await rollupSnapshot(ctx.db.kysely, cast.a.id);
      const body = { student_name: 'Robin Link', school_email: 'robin@north.edu' };
      const robin = await provenVisitor('robin@north.edu');
      const responses = await Promise.all(
        Array.from({ length: 8 }, () =>
          robin.post(url(), { ...body, answers: answersFor(survey.questions) }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
      expect(await submissions()).toHaveLength(8);
      expect(await ctx.db.kysely.selectFrom('respondents').select('id').execute()).toHaveLength(1);
      const rollups = await rollupSnapshot(ctx.db.kysely, cast.a.id);
      expect(rollups.totals).toMatchObject({
        responses: (before.totals?.responses ?? 0) + 8,
        students: (before.totals?.students ?? 0) + 1,
      });
      await rebuildDashboardRollups(ctx.db.kysely, cast.a.id);
      expect(await rollupSnapshot(ctx.db.kysely, cast.a.id)).toEqual(rollups);
    });

    it('answers alike whether or not the email has an account, and counts neither before the address is proven', async () => {
      // Attack 4: an empty submit used to answer requires_auth for an account's email and 400 otherwise;
      // now both get the one answer for answers that do not match the survey.
      const empty = (email: string) =>
        visitor().post(url(), { student_name: 'Sam North', school_email: email, answers: {} });
      const registered = await empty('student@north.edu');
      const stranger = await empty('nobody-here@north.edu');
      expect(registered.status).toBe(409);
      expect(registered.body).toEqual(stranger.body);

      const full = (email: string) =>
        visitor().post(url(), {
          student_name: 'Sam North',
          school_email: email,
          answers: answersFor(survey.questions),
        });
      const first = await full('student@north.edu');
      const second = await full('nobody-here@north.edu');
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        success: true,
        message: CONFIRM_ADDRESS,
        verification_required: true,
        proof_token: expect.any(String),
      });
      // Alike but for each submission's own secret.
      expect(second.body).toEqual({ ...first.body, proof_token: expect.any(String) });
      expect((await submissions()).map((row) => row.verified_at)).toEqual([null, null]);
    });

    it('lets the logged-in student submit on the link as themselves', async () => {
      const student = await agentFor(cast.studentA);
      const response = await student.post(url(), {
        student_name: 'Someone Else',
        answers: answersFor(survey.questions),
      });
      expect(response.status).toBe(200);
      expect((await submissions())[0]).toMatchObject({
        student_name: 'Sam North',
        user_id: cast.studentA.id,
      });
    });

    it('refuses a logged-in student who gives another email', async () => {
      const student = await agentFor(cast.studentA);
      const response = await student.post(url(), {
        school_email: 'robin@north.edu',
        answers: answersFor(survey.questions),
      });
      expectError(
        response,
        403,
        'FORBIDDEN',
        'You are logged in as student@north.edu. You can only submit the survey as yourself.',
      );
    });

    it("refuses a student of another institution on this institution's link", async () => {
      const student = await agentFor(cast.studentB);
      expectError(
        await student.post(url(), { answers: answersFor(survey.questions) }),
        403,
        'FORBIDDEN',
        OTHER_INSTITUTION,
      );
      expect(await submissions()).toEqual([]);
    });

    it('refuses admins', async () => {
      const admin = await agentFor(cast.adminB);
      expectError(
        await admin.post(url(), { answers: answersFor(survey.questions) }),
        403,
        'FORBIDDEN',
        ADMINS_CANNOT_SUBMIT,
      );
    });

    it.each([
      [{ school_email: 'robin@north.edu' }, NAME_REQUIRED],
      [{ student_name: '   ', school_email: 'robin@north.edu' }, NAME_REQUIRED],
      [{ student_name: 'Robin Link' }, EMAIL_REQUIRED],
      [
        { student_name: 'Robin Link', school_email: 'robin@gmail.com' },
        'Use your North University email address (@north.edu)',
      ],
      [
        { student_name: 'Robin Link', school_email: 'robin@south.edu' },
        'Use your North University email address (@north.edu)',
      ],
      [
        { student_name: 'Robin Link', school_email: 'robin@north.edu', survey_template_id: 999999 },
        TEMPLATE_MISMATCH,
      ],
    ])('refuses %j with "%s" and stores nothing', async (identity, message) => {
      const response = await visitor().post(url(), { ...identity, answers: answersFor(survey.questions) });
      expectError(response, 400, 'BAD_REQUEST', message);
      expect(await submissions()).toEqual([]);
      expect(await ctx.db.kysely.selectFrom('respondents').select('id').execute()).toEqual([]);
    });

    it('answers 404 for an unknown link', async () => {
      const response = await visitor().post('/api/survey/link/no-such-link/', {
        student_name: 'Robin Link',
        school_email: 'robin@north.edu',
        answers: answersFor(survey.questions),
      });
      expectError(response, 404, 'NOT_FOUND', LINK_NOT_FOUND);
    });

    it('refuses a request without the CSRF token', async () => {
      const response = await visitor().request({
        method: 'POST',
        url: url(),
        payload: {
          student_name: 'Robin Link',
          school_email: 'robin@north.edu',
          answers: answersFor(survey.questions),
        },
        csrf: false,
      });
      expect(response.status).toBe(403);
      expect(await submissions()).toEqual([]);
    });
  });

  describe('link submission rate limit', () => {
    it('answers 429 past the per-IP limit', async () => {
      await ctx.close();
      ctx = await createTestApp(dialect, { limits: { linkSubmissionsPerIpPerMinute: 2 } });
      cast = await makeTwoInstitutions(ctx.db.kysely);
      const link = await template(cast.a.id);
      const survey = await surveyOf(link.hash_link);
      const agent = new TestAgent(ctx.app);
      const body = (n: number) => ({
        student_name: `Visitor ${n}`,
        school_email: `visitor${n}@north.edu`,
        answers: answersFor(survey.questions),
      });
      expect((await agent.post(`/api/survey/link/${link.hash_link}/`, body(1))).status).toBe(200);
      expect((await agent.post(`/api/survey/link/${link.hash_link}/`, body(2))).status).toBe(200);
      const third = await agent.post(`/api/survey/link/${link.hash_link}/`, body(3));
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({ success: false, code: 'TOO_MANY_REQUESTS' });
      expect(await submissions()).toHaveLength(2);
    });
  });
});
