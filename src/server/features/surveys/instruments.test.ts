import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { parseCsv } from '../../../../test/helpers/csv';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, makeUser } from '../../../../test/helpers/factories';
import { INSTRUMENTS, type InstrumentAnswers } from '../../../common/instruments';
import { answersAll, answersSumming } from '../../../common/instruments/test-answers';
import type {
  CaseDetailResponse,
  CaseListResponse,
  StudentHistoryResponse,
} from '../../../common/schemas/cases';
import type { InstrumentBandMonths } from '../../../common/schemas/dashboard';
import { isSurveyInstrument, type SurveyEntry } from '../../../common/schemas/surveys';
import {
  INSTRUMENT_LOCKED,
  ONLY_ORDER_CHANGES,
  type TemplateQuestion,
} from '../../../common/schemas/templates';
import { SAFETY_ASSESSMENT_REASON } from './instruments';

type Cast = Awaited<ReturnType<typeof makeTwoInstitutions>>;

const PHQ9_ITEMS = INSTRUMENTS.phq9.items;

/** PHQ-9 answers totalling 3 with item 9 at "Several days": a low total that must still be urgent. */
const PHQ9_SELF_HARM_LOW_TOTAL: InstrumentAnswers = {
  ...answersAll(PHQ9_ITEMS, 0),
  phq9_1: 1,
  phq9_2: 1,
  phq9_9: 1,
};

describe.each(TEST_DIALECTS)('instruments in templates and submissions on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Cast;
  let admin: TestAgent;
  let templateId: number;
  let hashLink: string;

  beforeEach(async () => {
    ctx = await createTestApp(dialect, {}, { jobs: { poll: false } });
    cast = await makeTwoInstitutions(ctx.db.kysely);
    admin = new TestAgent(ctx.app);
    await admin.login(cast.adminA.email, cast.adminA.password);
    const template = await ctx.db.kysely
      .selectFrom('survey_templates')
      .select(['id', 'hash_link'])
      .where('institution_id', '=', cast.a.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    templateId = template.id;
    hashLink = template.hash_link;
  });

  afterEach(async () => {
    await ctx.close();
  });

  const addInstrument = (instrumentId: string, order = 50, extra: Record<string, unknown> = {}) =>
    admin.post<{ question: TemplateQuestion }>(`/api/survey-templates/${templateId}/instruments/`, {
      instrument_id: instrumentId,
      order,
      ...extra,
    });
  const templateQuestions = async () =>
    (await admin.get<{ questions: TemplateQuestion[] }>(`/api/survey-templates/${templateId}/questions/`))
      .body.questions;
  const survey = async () =>
    (
      await new TestAgent(ctx.app).get<{ questions: SurveyEntry[] }>(
        `/api/get-user-survey-questions/${hashLink}/`,
      )
    ).body.questions;

  /** Calm answers to the Likert and written questions, with the given answers for each instrument block. */
  async function answersWith(blocks: Record<string, InstrumentAnswers>, text = 'Things are going fine.') {
    const entries = await survey();
    return Object.fromEntries(
      entries.map((entry) => {
        if (isSurveyInstrument(entry)) return [String(entry.id), blocks[entry.instrument_id] ?? {}];
        if (entry.question_type === 'text') return [String(entry.id), text];
        return [String(entry.id), entry.category === 'safety' ? '1' : '2'];
      }),
    );
  }
  const submit = (answers: Record<string, unknown>, email = 'sam@north.edu') =>
    new TestAgent(ctx.app).post<{ crisis_resources?: unknown; message: string }>(
      `/api/survey/link/${hashLink}/`,
      { student_name: 'Sam Student', school_email: email, answers },
    );
  const storedResults = () =>
    ctx.db.kysely
      .selectFrom('instrument_results')
      .select([
        'instrument_id',
        'scored_as',
        'item_answers',
        'total',
        'band',
        'tier',
        'reason',
        'safety_assessment',
      ])
      .orderBy('id')
      .execute();
  const submissions = () =>
    ctx.db.kysely.selectFrom('submissions').select(['tier', 'reasons']).orderBy('id').execute();
  const cases = async () => (await admin.get<CaseListResponse>('/api/cases/?status=open')).body.cases;

  describe('locked blocks in a template', () => {
    it('adds a whole instrument as one block beside the existing questions, listed with its name', async () => {
      const before = await templateQuestions();
      const added = await addInstrument('phq9', 3);
      expect(added.status).toBe(201);
      expect(added.body.question).toMatchObject({ kind: 'instrument', instrument_id: 'phq9', order: 3 });
      const after = await templateQuestions();
      expect(after).toHaveLength(before.length + 1);
      expect(after).toContainEqual(
        expect.objectContaining({ kind: 'instrument', instrument_id: 'phq9', name: INSTRUMENTS.phq9.name }),
      );
      // Old questions are listed exactly as before.
      for (const question of before) expect(after).toContainEqual(question);
    });

    it("serves each block of the survey with its own instrument's form from the library, and no other", async () => {
      await addInstrument('phq2', 3);
      await addInstrument('asq', 4);
      const blocks = (await survey()).filter(isSurveyInstrument);
      expect(blocks.map((block) => block.instrument_id)).toEqual(['phq2', 'asq']);
      for (const block of blocks) {
        const { name, instructions, items, conditionalItems, askConditionalItemsWhen, scale, licence } =
          INSTRUMENTS[block.instrument_id];
        expect(block.instrument).toEqual({
          name,
          instructions,
          items,
          conditionalItems,
          askConditionalItemsWhen,
          scale,
          licence,
        });
      }
    });

    it('refuses any attempt to set the wording, items or scale of a block, and changes nothing', async () => {
      const refusedAdd = await addInstrument('phq9', 3, { items: [{ id: 'phq9_1', text: 'Edited' }] });
      expectError(refusedAdd, 400, 'VALIDATION_FAILED', INSTRUMENT_LOCKED);
      const blockId = ((await addInstrument('phq9', 3)).body.question as { id: number }).id;
      const before = await templateQuestions();
      for (const change of [
        { question_text: 'Edited wording' },
        { order: 4, scale: [{ value: 0, label: 'Never' }] },
        { order: 4, items: [] },
        { instrument_id: 'gad7' },
      ]) {
        const response = await admin.request({
          method: 'PATCH',
          url: `/api/survey-templates/${templateId}/questions/${blockId}/`,
          payload: change,
        });
        expectError(response, 400, 'VALIDATION_FAILED', ONLY_ORDER_CHANGES);
      }
      expect(await templateQuestions()).toEqual(before);
      const stored = await ctx.db.kysely
        .selectFrom('questions')
        .select(['question_text', 'position', 'instrument_id'])
        .where('id', '=', blockId)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ question_text: INSTRUMENTS.phq9.name, position: 3, instrument_id: 'phq9' });
    });

    it('moves and removes a whole block', async () => {
      const blockId = ((await addInstrument('gad7', 3)).body.question as { id: number }).id;
      const moved = await admin.request({
        method: 'PATCH',
        url: `/api/survey-templates/${templateId}/questions/${blockId}/`,
        payload: { order: 1 },
      });
      expect(moved.status).toBe(200);
      expect((await templateQuestions()).find((entry) => entry.id === blockId)).toMatchObject({
        kind: 'instrument',
        order: 1,
      });
      const removed = await admin.request({
        method: 'DELETE',
        url: `/api/survey-templates/${templateId}/questions/`,
        payload: { question_id: blockId },
      });
      expect(removed.status).toBe(200);
      expect((await templateQuestions()).some((entry) => entry.id === blockId)).toBe(false);
    });

    it('refuses a second instrument that asks the same items, and an unknown instrument', async () => {
      expect((await addInstrument('phq9')).status).toBe(201);
      const twice = await addInstrument('phq2');
      expect(twice.status).toBe(409);
      expect((twice.body as unknown as { message: string }).message).toContain('PHQ-9');
      expectError(
        await addInstrument('cssrs'),
        400,
        'VALIDATION_FAILED',
        expect.stringContaining('Instrument must be one of'),
      );
    });

    it("is another institution's template: 404, nothing added", async () => {
      const other = await ctx.db.kysely
        .selectFrom('survey_templates')
        .select('id')
        .where('institution_id', '=', cast.b.id)
        .executeTakeFirstOrThrow();
      const response = await admin.post(`/api/survey-templates/${other.id}/instruments/`, {
        instrument_id: 'phq9',
        order: 1,
      });
      expect(response.status).toBe(404);
      expect(
        await ctx.db.kysely
          .selectFrom('questions')
          .select('id')
          .where('instrument_id', 'is not', null)
          .execute(),
      ).toEqual([]);
    });
  });

  describe('submitting instrument answers', () => {
    it('scores a PHQ-9 with item 9 answered and total 3 as urgent: crisis help, a case and an alert', async () => {
      await addInstrument('phq9');
      const response = await submit(await answersWith({ phq9: PHQ9_SELF_HARM_LOW_TOTAL }));
      expect(response.status).toBe(200);
      expect(response.body.crisis_resources).toBeDefined();
      const [result] = await storedResults();
      expect(result).toMatchObject({
        instrument_id: 'phq9',
        scored_as: 'phq9',
        total: 3,
        band: 'minimal depression',
        tier: 'urgent',
        safety_assessment: 1,
      });
      expect(JSON.parse(result?.item_answers ?? '{}')).toEqual(PHQ9_SELF_HARM_LOW_TOTAL);
      const [stored] = await submissions();
      expect(stored?.tier).toBe('urgent');
      expect(JSON.parse(stored?.reasons ?? '[]')).toEqual([
        SAFETY_ASSESSMENT_REASON,
        "PHQ-9 total 3 (minimal depression); item 9 answered 'Several days'",
      ]);
      expect(await cases()).toEqual([
        expect.objectContaining({ tier: 'urgent', claimed_name: 'Sam Student' }),
      ]);
      const alerts = await ctx.db.kysely.selectFrom('mail_outbox').select('to_address').execute();
      expect(alerts.map((mail) => mail.to_address)).toContain('admin@north.edu');
    });

    it('refuses a PHQ-2 of 3 without the rest of the PHQ-9, naming every missing question, and stores nothing', async () => {
      await addInstrument('phq2');
      const response = await submit(await answersWith({ phq2: { phq9_1: 2, phq9_2: 1 } }));
      expectError(
        response,
        400,
        'BAD_REQUEST',
        [3, 4, 5, 6, 7, 8, 9]
          .map((number) => `Patient Health Questionnaire-2 (PHQ-2): question ${number} needs an answer.`)
          .join(' '),
      );
      expect(await submissions()).toEqual([]);
      expect(await storedResults()).toEqual([]);
    });

    it('takes a PHQ-2 below its cut point alone, and refuses an answer to an item it did not ask', async () => {
      await addInstrument('phq2');
      const stale = await submit(await answersWith({ phq2: { phq9_1: 1, phq9_2: 1, phq9_3: 2 } }));
      expectError(stale, 400, 'BAD_REQUEST', expect.stringContaining('question 3 was not asked'));
      const response = await submit(await answersWith({ phq2: { phq9_1: 1, phq9_2: 1 } }));
      expect(response.status).toBe(200);
      expect(await storedResults()).toEqual([
        expect.objectContaining({ scored_as: 'phq2', total: 2, tier: 'none' }),
      ]);
    });

    it('takes an ASQ refusal only where the instrument allows one, and Q5 yes is urgent', async () => {
      await addInstrument('gad7', 40);
      await addInstrument('asq', 41);
      const declinedGad = await submit(
        await answersWith({
          gad7: { ...answersAll(INSTRUMENTS.gad7.items, 0), gad7_1: 'declined' },
          asq: answersAll(INSTRUMENTS.asq.items, 0),
        }),
      );
      expectError(declinedGad, 400, 'BAD_REQUEST', expect.stringContaining('question 1 cannot be declined'));
      const acute = await submit(
        await answersWith({
          gad7: answersAll(INSTRUMENTS.gad7.items, 0),
          asq: { asq_1: 'declined', asq_2: 0, asq_3: 0, asq_4: 0, asq_5: 1 },
        }),
      );
      expect(acute.status).toBe(200);
      expect((await submissions())[0]?.tier).toBe('urgent');
      expect((await storedResults()).map((result) => [result.instrument_id, result.tier])).toEqual([
        ['gad7', 'none'],
        ['asq', 'urgent'],
      ]);
    });

    it('raises a calm Likert submission to elevated for a GAD-7 of 10, and written crisis words still raise a calm GAD-7', async () => {
      await addInstrument('gad7');
      const gad10 = { ...answersAll(INSTRUMENTS.gad7.items, 1), gad7_1: 3, gad7_2: 3 };
      expect((await submit(await answersWith({ gad7: gad10 }))).status).toBe(200);
      const calmGad = answersAll(INSTRUMENTS.gad7.items, 0);
      const urgentText = await submit(
        await answersWith({ gad7: calmGad }, 'I want to kill myself'),
        'uri@north.edu',
      );
      expect(urgentText.status).toBe(200);
      expect((await submissions()).map((submission) => submission.tier)).toEqual(['elevated', 'urgent']);
    });

    it('records a monitor result without opening a case', async () => {
      await addInstrument('phq9');
      const monitor = { ...answersAll(PHQ9_ITEMS, 0), phq9_1: 3, phq9_2: 3 };
      expect((await submit(await answersWith({ phq9: monitor }))).status).toBe(200);
      expect((await submissions())[0]?.tier).toBe('monitor');
      expect(await cases()).toEqual([]);
    });

    it('stores each of several submissions sent at once with its own results, and none of one refused among them', async () => {
      await addInstrument('phq9');
      // Seven results: on SQLite, committed together, they are written as 4, 2 and 1 rows.
      const totals = [0, 5, 10, 15, 20, 3, 12];
      const valid = await Promise.all(
        totals.map((total) =>
          answersWith({ phq9: answersSumming(PHQ9_ITEMS, INSTRUMENTS.phq9.scale, total) }),
        ),
      );
      const refused = await answersWith({ phq9: { phq9_1: 1 } });
      const responses = await Promise.all([
        ...valid.map((answers, index) => submit(answers, `student${index}@north.edu`)),
        submit(refused, 'refused@north.edu'),
      ]);
      expect(responses.map((response) => response.status)).toEqual([...totals.map(() => 200), 400]);
      const stored = await ctx.db.kysely
        .selectFrom('instrument_results')
        .innerJoin('submissions', 'submissions.id', 'instrument_results.submission_id')
        .select(['submissions.school_email', 'instrument_results.total', 'instrument_results.band'])
        .orderBy('submissions.school_email')
        .execute();
      expect(stored).toEqual([
        { school_email: 'student0@north.edu', total: 0, band: 'minimal depression' },
        { school_email: 'student1@north.edu', total: 5, band: 'mild depression' },
        { school_email: 'student2@north.edu', total: 10, band: 'moderate depression' },
        { school_email: 'student3@north.edu', total: 15, band: 'moderately severe depression' },
        { school_email: 'student4@north.edu', total: 20, band: 'severe depression' },
        { school_email: 'student5@north.edu', total: 3, band: 'minimal depression' },
        { school_email: 'student6@north.edu', total: 12, band: 'moderate depression' },
      ]);
    });

    it('keeps instrument answers in a draft', async () => {
      await addInstrument('phq9');
      const student = new TestAgent(ctx.app);
      await student.login(cast.studentA.email, cast.studentA.password);
      const answers = await answersWith({ phq9: { phq9_1: 2, phq9_2: 'declined' } });
      const saved = await student.post('/api/autosave/', { template_id: templateId, answers });
      expect(saved.status).toBe(200);
      const loaded = await student.get<{ saved_data: { answers: unknown } }>(
        `/api/autosave/load/${templateId}/`,
      );
      expect(loaded.body.saved_data.answers).toEqual(answers);
    });
  });

  describe('what staff read', () => {
    it('shows each score with its band, items, reason and change from the previous one, marked as screening, and audits the read', async () => {
      await addInstrument('phq9');
      expect((await submit(await answersWith({ phq9: PHQ9_SELF_HARM_LOW_TOTAL }))).status).toBe(200);
      const severe = { ...answersAll(PHQ9_ITEMS, 1), phq9_1: 3, phq9_2: 3, phq9_3: 3, phq9_9: 0 };
      expect((await submit(await answersWith({ phq9: severe }))).status).toBe(200);
      const [opened] = await cases();
      const detail = await admin.get<CaseDetailResponse>(`/api/cases/${opened?.id}/`);
      expect(detail.status).toBe(200);
      const [first, second] = detail.body.case.submissions.map((submission) => submission.instruments[0]);
      expect(first).toMatchObject({
        scored_as: 'phq9',
        total: 3,
        band: 'minimal depression',
        tier: 'urgent',
        safety_assessment: true,
        change: null,
        disclaimer: 'screening result, not a diagnosis',
      });
      expect(first?.items.find((item) => item.item_id === 'phq9_9')).toMatchObject({
        number: 9,
        answer: 1,
        answer_label: 'Several days',
      });
      expect(second).toMatchObject({
        total: 14,
        band: 'moderate depression',
        tier: 'elevated',
        change: { previous: 3, change: 11, clinically_significant: true },
      });
      expect(second?.change?.description).toContain('clinically significant');
      const history = await admin.get<StudentHistoryResponse>(
        `/api/students/${detail.body.case.student_id}/history/`,
      );
      const totals = history.body.submissions.map((submission) => submission.instruments[0]?.total);
      expect(totals).toHaveLength(2);
      expect(totals).toEqual(expect.arrayContaining([3, 14]));
      const audited = await ctx.db.kysely.selectFrom('audit_log').select('action').execute();
      expect(audited.map((row) => row.action)).toEqual(
        expect.arrayContaining(['case.read', 'student.history.read']),
      );
    });
  });

  describe('the CSV export', () => {
    it('carries each instrument total, band and item answers in columns of their own', async () => {
      await addInstrument('phq9');
      expect((await submit(await answersWith({ phq9: PHQ9_SELF_HARM_LOW_TOTAL }))).status).toBe(200);
      const response = await admin.get('/api/dashboard/export.csv');
      expect(response.status).toBe(200);
      const [header, row] = parseCsv(response.text.replace(/^\uFEFF/, ''));
      const cell = (name: string) => row?.[header?.indexOf(name) ?? -1];
      expect(header).toEqual(
        expect.arrayContaining([
          'PHQ-9 total',
          'PHQ-9 band',
          ...PHQ9_ITEMS.map((item) => `PHQ-9 item ${item.number}`),
        ]),
      );
      expect(cell('PHQ-9 total')).toBe('3');
      expect(cell('PHQ-9 band')).toBe('minimal depression');
      expect(cell('PHQ-9 item 9')).toBe('1');
      expect(cell('PHQ-9 item 3')).toBe('0');
    });
  });

  describe('the dashboard', () => {
    it('counts proven students per instrument band and month, numbers only, a small band suppressed for a viewer', async () => {
      await addInstrument('phq9');
      const student = new TestAgent(ctx.app);
      await student.login(cast.studentA.email, cast.studentA.password);
      const moderate = { ...answersAll(PHQ9_ITEMS, 1), phq9_1: 3, phq9_2: 3, phq9_3: 3, phq9_9: 0 };
      const own = await student.post('/api/survey/', {
        survey_template_id: templateId,
        answers: await answersWith({ phq9: moderate }),
      });
      expect(own.status).toBe(200);
      // An unproven link submission counts for no one.
      expect((await submit(await answersWith({ phq9: moderate }), 'link@north.edu')).status).toBe(200);
      const viewer = await makeUser(ctx.db.kysely, {
        email: 'vera@north.edu',
        role: 'viewer',
        institutionId: cast.a.id,
        name: 'Vera Viewer',
      });
      const agent = new TestAgent(ctx.app);
      await agent.login(viewer.email, viewer.password);
      const response = await agent.get<InstrumentBandMonths>('/api/dashboard/instruments/');
      expect(response.status).toBe(200);
      const month = new Date().toISOString().slice(0, 7);
      const bandOf = (figure: unknown, mean: unknown) => [
        {
          instrument_id: 'phq9',
          name: INSTRUMENTS.phq9.name,
          months: [
            {
              month,
              bands: [{ band: 'moderate depression', students: figure }],
              students: figure,
              mean_total: mean,
              mean_change: null,
            },
          ],
        },
      ];
      // One student is fewer than the institution's five: the viewer gets the marker, not the 1,
      // nor the mean total, which would be that student's own score.
      const marker = { suppressed: true, fewer_than: 5 };
      expect(response.body.instruments).toEqual(bandOf(marker, marker));
      expect(JSON.stringify(response.body)).not.toContain(cast.studentA.email);
      expect((await admin.get<InstrumentBandMonths>('/api/dashboard/instruments/')).body.instruments).toEqual(
        bandOf(1, 14),
      );
    });

    it('gives each month the mean total, every student counted once, and its change from the month before', async () => {
      await addInstrument('phq9');
      const second = await makeUser(ctx.db.kysely, {
        email: 'rowan@north.edu',
        institutionId: cast.a.id,
        name: 'Rowan North',
      });
      /** A proven submission of the student's own with a PHQ-9 of `total`, dated `at`. */
      const answerAs = async (account: { email: string; password: string }, total: number, at: number) => {
        const student = new TestAgent(ctx.app);
        await student.login(account.email, account.password);
        const answers = answersSumming(PHQ9_ITEMS, INSTRUMENTS.phq9.scale, total);
        const response = await student.post('/api/survey/', {
          survey_template_id: templateId,
          answers: await answersWith({ phq9: { ...answers, phq9_9: 0 } }),
        });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        const latest = await ctx.db.kysely
          .selectFrom('instrument_results')
          .select('id')
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        await ctx.db.kysely
          .updateTable('instrument_results')
          .set({ created_at: at })
          .where('id', '=', latest.id)
          .execute();
      };
      const lastMonthAt = Date.now() - 40 * 24 * 60 * 60 * 1000;
      const lastMonth = new Date(lastMonthAt).toISOString().slice(0, 7);
      const thisMonth = new Date().toISOString().slice(0, 7);
      // Last month: Sam answered twice (10, then 4: his own mean 7), Rowan once (16).
      await answerAs(cast.studentA, 10, lastMonthAt);
      await answerAs(cast.studentA, 4, lastMonthAt + 1);
      await answerAs(second, 16, lastMonthAt + 2);
      // This month: Sam alone, at 5.
      await answerAs(cast.studentA, 5, Date.now());

      // The admin sees every figure; a viewer the same months with these few students hidden.
      const response = await admin.get<InstrumentBandMonths>('/api/dashboard/instruments/');
      expect(response.status).toBe(200);
      expect(response.body.instruments).toEqual([
        {
          instrument_id: 'phq9',
          name: INSTRUMENTS.phq9.name,
          months: [
            {
              month: lastMonth,
              bands: [
                { band: 'minimal depression', students: 1 },
                { band: 'moderate depression', students: 1 },
                { band: 'moderately severe depression', students: 1 },
              ],
              students: 2,
              mean_total: 11.5,
              mean_change: null,
            },
            {
              month: thisMonth,
              bands: [{ band: 'mild depression', students: 1 }],
              students: 1,
              mean_total: 5,
              mean_change: { from_month: lastMonth, change: -6.5 },
            },
          ],
        },
      ]);
      expect(JSON.stringify(response.body)).not.toMatch(/Sam North|Rowan North|north\.edu/);

      const viewer = await makeUser(ctx.db.kysely, {
        email: 'vera@north.edu',
        role: 'viewer',
        institutionId: cast.a.id,
      });
      const agent = new TestAgent(ctx.app);
      await agent.login(viewer.email, viewer.password);
      const hidden = { suppressed: true, fewer_than: 5 };
      const seen = await agent.get<InstrumentBandMonths>('/api/dashboard/instruments/');
      expect(seen.body.instruments[0]?.months).toEqual([
        {
          month: lastMonth,
          bands: [
            { band: 'minimal depression', students: hidden },
            { band: 'moderate depression', students: hidden },
            { band: 'moderately severe depression', students: hidden },
          ],
          students: hidden,
          mean_total: hidden,
          mean_change: null,
        },
        // The change would give last month's hidden mean away from this one's.
        {
          month: thisMonth,
          bands: [{ band: 'mild depression', students: hidden }],
          students: hidden,
          mean_total: hidden,
          mean_change: hidden,
        },
      ]);

      // The other institution's staff see none of it.
      const other = new TestAgent(ctx.app);
      await other.login(cast.adminB.email, cast.adminB.password);
      expect((await other.get<InstrumentBandMonths>('/api/dashboard/instruments/')).body.instruments).toEqual(
        [],
      );
    });
  });
});
