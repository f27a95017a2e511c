import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions } from '../../../../test/helpers/factories';
import type { Question, TemplateSummary } from '../../../common/schemas/templates';
import { MAX_QUESTIONS_PER_TEMPLATE } from '../../../common/schemas/templates';
import { DEFAULT_QUESTIONS } from './default-template';
import { QUESTION_NOT_FOUND, TEMPLATE_NOT_FOUND } from './service';

type Cast = Awaited<ReturnType<typeof makeTwoInstitutions>>;
type TemplateList = { success: true; templates: TemplateSummary[] };
type QuestionList = { success: true; questions: Question[] };

const likertQuestion = {
  question_text: 'How rested do you feel?',
  question_type: 'likert',
  question_category: 'sleep',
  order: 2,
};

describe.each(TEST_DIALECTS)('template management on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Cast;
  let admin: TestAgent;

  async function agentFor(user: { email: string; password: string } | null) {
    const agent = new TestAgent(ctx.app);
    if (user) await agent.signInDirectly(ctx.db, user.email);
    return agent;
  }

  async function templates(agent = admin) {
    const response = await agent.get<TemplateList>('/api/survey-templates/');
    expect(response.status).toBe(200);
    return response.body.templates;
  }

  async function questions(templateId: number, agent = admin) {
    const response = await agent.get<QuestionList>(`/api/survey-templates/${templateId}/questions/`);
    expect(response.status).toBe(200);
    return response.body.questions;
  }

  async function createTemplate(agent = admin) {
    const response = await agent.post<{ template: TemplateSummary }>('/api/survey-templates/');
    expect(response.status).toBe(201);
    return response.body.template;
  }

  async function activeTemplateIds(institutionId: number) {
    const rows = await ctx.db.kysely
      .selectFrom('active_templates')
      .select('template_id')
      .where('institution_id', '=', institutionId)
      .execute();
    return rows.map((row) => row.template_id);
  }

  async function templateOf(institutionId: number) {
    const row = await ctx.db.kysely
      .selectFrom('survey_templates')
      .select('id')
      .where('institution_id', '=', institutionId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    admin = await agentFor(cast.adminA);
  });

  afterEach(async () => {
    await ctx.close();
  });

  describe('who may manage templates', () => {
    const endpoints = [
      ['GET', '/api/survey-templates/', undefined],
      ['POST', '/api/survey-templates/', undefined],
      ['DELETE', '/api/survey-templates/', { template_id: 1 }],
      ['POST', '/api/survey-templates/1/use/', undefined],
      ['GET', '/api/survey-templates/1/questions/', undefined],
      ['POST', '/api/survey-templates/1/questions/', likertQuestion],
      ['DELETE', '/api/survey-templates/1/questions/', { question_id: 1 }],
    ] as const;

    it.each(endpoints)('%s %s: 401 for visitors', async (method, url, payload) => {
      const response = await (await agentFor(null)).request({ method, url, ...(payload ? { payload } : {}) });
      expectError(response, 401, 'UNAUTHENTICATED', 'Authentication required');
    });

    it.each(endpoints)('%s %s: 403 "Admin access required" for students', async (method, url, payload) => {
      const response = await (await agentFor(cast.studentA)).request({
        method,
        url,
        ...(payload ? { payload } : {}),
      });
      expectError(response, 403, 'FORBIDDEN', 'Admin access required');
    });

    it('refuses students before looking at their input', async () => {
      const student = await agentFor(cast.studentA);
      const response = await student.request({
        method: 'DELETE',
        url: '/api/survey-templates/',
        payload: { template_id: 'x' },
      });
      expectError(response, 403, 'FORBIDDEN', 'Admin access required');
    });

    it('refuses a request without the CSRF token', async () => {
      const response = await admin.request({ method: 'POST', url: '/api/survey-templates/', csrf: false });
      expect(response.status).toBe(403);
      expect(await templates()).toHaveLength(1);
    });
  });

  describe('GET /api/survey-templates/', () => {
    it("lists the institution's starter template as used, with its link and question count", async () => {
      const list = await templates();
      expect(list).toEqual([
        {
          id: await templateOf(cast.a.id),
          used: true,
          hash_link: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
          question_count: DEFAULT_QUESTIONS.length,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ]);
    });

    it("never shows another institution's templates", async () => {
      const [own] = await templates();
      const [other] = await templates(await agentFor(cast.adminB));
      expect(own?.id).not.toBe(other?.id);
      expect(own?.hash_link).not.toBe(other?.hash_link);
    });
  });

  describe('POST /api/survey-templates/', () => {
    it('creates an empty, inactive template with its own link', async () => {
      const response = await admin.post<{ success: true; message: string; template: TemplateSummary }>(
        '/api/survey-templates/',
      );
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ success: true, message: 'Template created!' });
      expect(response.body.template).toMatchObject({ used: false, question_count: 0 });
      const list = await templates();
      expect(list.map((t) => t.id)).toEqual([await templateOf(cast.a.id), response.body.template.id]);
      expect(new Set(list.map((t) => t.hash_link)).size).toBe(2);
      expect(await questions(response.body.template.id)).toEqual([]);
    });

    it('accepts an empty JSON object as the body', async () => {
      const response = await admin.post('/api/survey-templates/', {});
      expect(response.status).toBe(201);
    });
  });

  describe('DELETE /api/survey-templates/', () => {
    it('deletes the template and its questions; the institution is then left with no active template', async () => {
      const templateId = await templateOf(cast.a.id);
      const response = await admin.delete('/api/survey-templates/', { template_id: templateId });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, message: 'Template deleted!' });
      expect(await templates()).toEqual([]);
      expect(await activeTemplateIds(cast.a.id)).toEqual([]);
      const left = await ctx.db.kysely
        .selectFrom('questions')
        .select('id')
        .where('template_id', '=', templateId)
        .execute();
      expect(left).toEqual([]);
    });

    it('keeps the active template when an inactive one is deleted', async () => {
      const extra = await createTemplate();
      await admin.delete('/api/survey-templates/', { template_id: extra.id });
      expect(await activeTemplateIds(cast.a.id)).toEqual([await templateOf(cast.a.id)]);
    });

    it('accepts the id as a numeric string, as forms send it', async () => {
      const extra = await createTemplate();
      const response = await admin.delete('/api/survey-templates/', { template_id: String(extra.id) });
      expect(response.status).toBe(200);
    });

    it("answers 404 for another institution's template and leaves it alone", async () => {
      const theirs = await templateOf(cast.b.id);
      expectError(
        await admin.delete('/api/survey-templates/', { template_id: theirs }),
        404,
        'NOT_FOUND',
        TEMPLATE_NOT_FOUND,
      );
      expect(await templates(await agentFor(cast.adminB))).toHaveLength(1);
    });

    it('answers 404 for an unknown template', async () => {
      expectError(
        await admin.delete('/api/survey-templates/', { template_id: 999_999 }),
        404,
        'NOT_FOUND',
        TEMPLATE_NOT_FOUND,
      );
    });

    it.each([
      [{}, 'template_id is required'],
      [{ template_id: 'abc' }, 'template_id is required'],
      [{ template_id: 0 }, 'template_id must be positive'],
      [{ template_id: 1.5 }, 'template_id must be a whole number'],
    ])('refuses %j with "%s"', async (payload, message) => {
      expectError(await admin.delete('/api/survey-templates/', payload), 400, 'VALIDATION_FAILED', message);
      expect(await templates()).toHaveLength(1);
    });
  });

  describe('POST /api/survey-templates/{id}/use/', () => {
    it('activates the template and deactivates the one that was active', async () => {
      const extra = await createTemplate();
      const response = await admin.post(`/api/survey-templates/${extra.id}/use/`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, message: 'Template activated successfully!' });
      const list = await templates();
      expect(list.filter((t) => t.used).map((t) => t.id)).toEqual([extra.id]);
    });

    it('is harmless on the template that is already active', async () => {
      const current = await templateOf(cast.a.id);
      expect((await admin.post(`/api/survey-templates/${current}/use/`)).status).toBe(200);
      expect(await activeTemplateIds(cast.a.id)).toEqual([current]);
    });

    it('activates a template after the active one was deleted', async () => {
      const extra = await createTemplate();
      await admin.delete('/api/survey-templates/', { template_id: await templateOf(cast.a.id) });
      expect((await admin.post(`/api/survey-templates/${extra.id}/use/`)).status).toBe(200);
      expect(await activeTemplateIds(cast.a.id)).toEqual([extra.id]);
    });

    it('leaves exactly one active template after 20 simultaneous calls', async () => {
      const created = [];
      for (let i = 0; i < 19; i++) created.push(await createTemplate());
      const ids = [await templateOf(cast.a.id), ...created.map((t) => t.id)];
      const responses = await Promise.all(ids.map((id) => admin.post(`/api/survey-templates/${id}/use/`)));
      expect(responses.map((r) => r.status)).toEqual(ids.map(() => 200));
      const active = await activeTemplateIds(cast.a.id);
      expect(active).toHaveLength(1);
      expect(ids).toContain(active[0]);
      expect((await templates()).filter((t) => t.used)).toHaveLength(1);
    });

    it("answers 404 for another institution's template and changes nothing", async () => {
      const theirs = await templateOf(cast.b.id);
      expectError(
        await admin.post(`/api/survey-templates/${theirs}/use/`),
        404,
        'NOT_FOUND',
        TEMPLATE_NOT_FOUND,
      );
      expect(await activeTemplateIds(cast.a.id)).toEqual([await templateOf(cast.a.id)]);
      expect(await activeTemplateIds(cast.b.id)).toEqual([theirs]);
    });

    it.each([
      ['abc', 'Id must be a number'],
      ['0', 'Id must be positive'],
      ['99999999999', 'Id is out of range'],
    ])('refuses the id %s with "%s"', async (id, message) => {
      expectError(await admin.post(`/api/survey-templates/${id}/use/`), 400, 'VALIDATION_FAILED', message);
    });
  });

  describe('GET /api/survey-templates/{id}/questions/', () => {
    it('lists the questions with the spec fields, by order then id', async () => {
      const templateId = await templateOf(cast.a.id);
      const list = await questions(templateId);
      expect(list).toHaveLength(DEFAULT_QUESTIONS.length);
      expect(list[0]).toEqual({
        id: expect.any(Number),
        order: 1,
        question_text: DEFAULT_QUESTIONS[0]?.question_text,
        question_type: 'likert',
        category: 'general',
        answer_choices: null,
        translations: [{ language: 'es', status: 'missing', question_text: null, answer_choices: null }],
      });
      const safety = list.find((q) => q.category === 'safety');
      expect(safety?.answer_choices).toMatchObject({ '1': 'Never', '5': 'Almost always' });
      expect(list.at(-1)).toMatchObject({ question_type: 'text', category: 'general' });

      const first = await admin.post<{ question: Question }>(
        `/api/survey-templates/${templateId}/questions/`,
        {
          ...likertQuestion,
          order: 1,
        },
      );
      const reordered = await questions(templateId);
      expect(reordered.map((q) => q.order)).toEqual([1, 1, 2, 3, 4, 5, 6, 7]);
      // Same order: the older question (smaller id) first.
      expect(reordered[1]?.id).toBe(first.body.question.id);
    });

    it("answers 404 for another institution's template", async () => {
      const theirs = await templateOf(cast.b.id);
      expectError(
        await admin.get(`/api/survey-templates/${theirs}/questions/`),
        404,
        'NOT_FOUND',
        TEMPLATE_NOT_FOUND,
      );
    });
  });

  describe('POST /api/survey-templates/{id}/questions/', () => {
    let templateId: number;
    const url = () => `/api/survey-templates/${templateId}/questions/`;

    beforeEach(async () => {
      templateId = (await createTemplate()).id;
    });

    it('adds a likert question with custom answer choices', async () => {
      const response = await admin.post<{ success: true; message: string; question: Question }>(url(), {
        question_text: '  How often do you feel rested?  ',
        question_type: 'likert',
        question_category: 'sleep',
        order: '3',
        answer_choices: { '1': ' Always ', '5': 'Never' },
      });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        success: true,
        message: 'Question added!',
        question: {
          id: expect.any(Number),
          order: 3,
          question_text: 'How often do you feel rested?',
          question_type: 'likert',
          category: 'sleep',
          answer_choices: { '1': 'Always', '5': 'Never' },
        },
      });
      expect(await questions(templateId)).toEqual([
        {
          ...response.body.question,
          translations: [{ language: 'es', status: 'missing', question_text: null, answer_choices: null }],
        },
      ]);
    });

    it('adds a text question in the general category, which is the default', async () => {
      const response = await admin.post<{ question: Question }>(url(), {
        question_text: 'Anything else?',
        question_type: 'text',
        order: 1,
      });
      expect(response.status).toBe(201);
      expect(response.body.question).toMatchObject({
        question_type: 'text',
        category: 'general',
        answer_choices: null,
      });
    });

    it('stores an empty answer_choices object as the default labels', async () => {
      const response = await admin.post<{ question: Question }>(url(), {
        ...likertQuestion,
        answer_choices: {},
      });
      expect(response.body.question.answer_choices).toBeNull();
    });

    it('accepts the safety category for likert questions', async () => {
      const response = await admin.post<{ question: Question }>(url(), {
        ...likertQuestion,
        question_category: 'safety',
      });
      expect(response.status).toBe(201);
      expect(response.body.question.category).toBe('safety');
    });

    it.each([
      [{ ...likertQuestion, question_text: undefined }, 'Question text is required'],
      [{ ...likertQuestion, question_text: '   ' }, 'Question text is required'],
      [
        { ...likertQuestion, question_text: 'x'.repeat(1001) },
        'Question text must be at most 1000 characters',
      ],
      [{ ...likertQuestion, question_type: 'choice' }, 'Question type must be likert or text'],
      [
        { ...likertQuestion, question_category: 'mood' },
        'Category must be one of general, sleep, stress, support, safety',
      ],
      [{ ...likertQuestion, order: 0 }, 'Order must be at least 1'],
      [{ ...likertQuestion, order: 1.5 }, 'Order must be a whole number'],
      [{ ...likertQuestion, order: 'first' }, 'Order must be a number'],
      [{ ...likertQuestion, order: undefined }, 'Order must be a number'],
      [{ ...likertQuestion, order: 10_001 }, 'Order must be at most 10000'],
      [
        { ...likertQuestion, answer_choices: { '6': 'Off the scale' } },
        'Answer choices must be keyed 1 to 5',
      ],
      [{ ...likertQuestion, answer_choices: { '1': '  ' } }, 'Answer choices must not be blank'],
      [{ ...likertQuestion, answer_choices: { '1': 5 } }, 'Each answer choice must be text'],
      [
        { ...likertQuestion, answer_choices: { '1': 'x'.repeat(101) } },
        'Each answer choice must be at most 100 characters',
      ],
      [{ ...likertQuestion, answer_choices: ['Great'] }, 'Answer choices must be an object keyed 1 to 5'],
    ])('refuses %j with "%s" and adds nothing', async (payload, message) => {
      expectError(await admin.post(url(), payload), 400, 'VALIDATION_FAILED', message);
      expect(await questions(templateId)).toEqual([]);
    });

    it.each([
      [
        { question_text: 'Tell us more', question_type: 'text', question_category: 'sleep', order: 1 },
        'Text questions can only use the general category',
      ],
      [
        { question_text: 'Tell us more', question_type: 'text', order: 1, answer_choices: { '1': 'Great' } },
        'Custom answer choices are only for likert questions',
      ],
    ])('refuses %j with "%s" (a rule of the product) and adds nothing', async (payload, message) => {
      expectError(await admin.post(url(), payload), 400, 'BAD_REQUEST', message);
      expect(await questions(templateId)).toEqual([]);
    });

    it("answers 404 for another institution's template and adds nothing there", async () => {
      const theirs = await templateOf(cast.b.id);
      expectError(
        await admin.post(`/api/survey-templates/${theirs}/questions/`, likertQuestion),
        404,
        'NOT_FOUND',
        TEMPLATE_NOT_FOUND,
      );
      expect(await questions(theirs, await agentFor(cast.adminB))).toHaveLength(DEFAULT_QUESTIONS.length);
    });

    it(`refuses more than ${MAX_QUESTIONS_PER_TEMPLATE} questions in a template`, async () => {
      await ctx.db.kysely
        .insertInto('questions')
        .values(
          Array.from({ length: MAX_QUESTIONS_PER_TEMPLATE }, (_, index) => ({
            template_id: templateId,
            question_text: `Question ${index + 1}`,
            question_type: 'likert' as const,
            category: 'general' as const,
            answer_choices: null,
            position: index + 1,
            created_at: Date.now(),
          })),
        )
        .execute();
      expectError(
        await admin.post(url(), likertQuestion),
        409,
        'CONFLICT',
        `A template can have at most ${MAX_QUESTIONS_PER_TEMPLATE} questions`,
      );
    });
  });

  describe('DELETE /api/survey-templates/{id}/questions/', () => {
    it('deletes the question', async () => {
      const templateId = await templateOf(cast.a.id);
      const [first, ...rest] = await questions(templateId);
      const response = await admin.delete(`/api/survey-templates/${templateId}/questions/`, {
        question_id: first?.id,
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, message: 'Question deleted!' });
      expect(await questions(templateId)).toEqual(rest);
    });

    it('answers 404 when the question belongs to another template of the institution', async () => {
      const templateId = await templateOf(cast.a.id);
      const [first] = await questions(templateId);
      const other = await createTemplate();
      expectError(
        await admin.delete(`/api/survey-templates/${other.id}/questions/`, { question_id: first?.id }),
        404,
        'NOT_FOUND',
        QUESTION_NOT_FOUND,
      );
      expect(await questions(templateId)).toHaveLength(DEFAULT_QUESTIONS.length);
    });

    it("answers 404 for another institution's template and question", async () => {
      const theirs = await templateOf(cast.b.id);
      const [theirQuestion] = await questions(theirs, await agentFor(cast.adminB));
      expectError(
        await admin.delete(`/api/survey-templates/${theirs}/questions/`, { question_id: theirQuestion?.id }),
        404,
        'NOT_FOUND',
        TEMPLATE_NOT_FOUND,
      );
      const own = await templateOf(cast.a.id);
      expectError(
        await admin.delete(`/api/survey-templates/${own}/questions/`, { question_id: theirQuestion?.id }),
        404,
        'NOT_FOUND',
        QUESTION_NOT_FOUND,
      );
      expect(await questions(theirs, await agentFor(cast.adminB))).toHaveLength(DEFAULT_QUESTIONS.length);
    });

    it.each([
      [{}, 'question_id is required'],
      [{ question_id: -1 }, 'question_id must be positive'],
    ])('refuses %j with "%s"', async (payload, message) => {
      const templateId = await templateOf(cast.a.id);
      expectError(
        await admin.delete(`/api/survey-templates/${templateId}/questions/`, payload),
        400,
        'VALIDATION_FAILED',
        message,
      );
    });
  });
});
