import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions } from '../../../../test/helpers/factories';
import type { SurveyEntry } from '../../../common/schemas/surveys';
import type { ListedTemplateQuestion, QuestionTranslation } from '../../../common/schemas/templates';
import { DEFAULT_LANGUAGE_IS_THE_QUESTION, INSTRUMENT_NOT_TRANSLATABLE, QUESTION_NOT_FOUND } from './service';

type Cast = Awaited<ReturnType<typeof makeTwoInstitutions>>;
type Survey = { success: true; questions: SurveyEntry[]; template_id: number };
type Listed = Extract<ListedTemplateQuestion, { translations: unknown }>;

const SPANISH_TEXT = '¿Cómo te sientes en general?';
const SAFETY_CHOICES_ES = {
  '1': 'Nunca',
  '2': 'Rara vez',
  '3': 'A veces',
  '4': 'A menudo',
  '5': 'Casi siempre',
};

describe.each(TEST_DIALECTS)('question translations on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Cast;
  let admin: TestAgent;
  let template: { id: number; hash_link: string };

  async function agentFor(user: { email: string } | null) {
    const agent = new TestAgent(ctx.app);
    if (user) await agent.signInDirectly(ctx.db, user.email);
    return agent;
  }

  async function firstTemplate(institutionId: number) {
    return ctx.db.kysely
      .selectFrom('survey_templates')
      .select(['id', 'hash_link'])
      .where('institution_id', '=', institutionId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
  }

  async function listed(templateId = template.id, agent = admin): Promise<Listed[]> {
    const response = await agent.get<{ questions: ListedTemplateQuestion[] }>(
      `/api/survey-templates/${templateId}/questions/`,
    );
    expect(response.status).toBe(200);
    return response.body.questions.filter((entry): entry is Listed => 'translations' in entry);
  }

  async function questionWhere(predicate: (question: Listed) => boolean, templateId = template.id) {
    const question = (await listed(templateId)).find(predicate);
    if (!question) throw new Error('no such question in the template');
    return question;
  }

  const translationUrl = (questionId: number, language: string, templateId = template.id) =>
    `/api/survey-templates/${templateId}/questions/${questionId}/translations/${language}/`;

  function put(questionId: number, language: string, body: unknown, agent = admin, templateId = template.id) {
    return agent.request<{ translation: QuestionTranslation }>({
      method: 'PUT',
      url: translationUrl(questionId, language, templateId),
      payload: body as string,
    });
  }

  async function storedTranslations() {
    return ctx.db.kysely
      .selectFrom('question_translations')
      .select(['question_id', 'language', 'question_text', 'answer_choices', 'source_fingerprint'])
      .orderBy('id')
      .execute();
  }

  async function linkSurvey(query = '', headers: Record<string, string> = {}) {
    return new TestAgent(ctx.app).request<Survey>({
      method: 'GET',
      url: `/api/get-user-survey-questions/${template.hash_link}/${query}`,
      headers,
    });
  }

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    admin = await agentFor(cast.adminA);
    template = await firstTemplate(cast.a.id);
  });

  afterEach(async () => {
    await ctx.close();
  });

  it('saves a translation, lists it as current, and a Spanish answer records the language each question was shown in', async () => {
    const first = await questionWhere((q) => q.order === 1);
    expect(first.translations).toEqual([
      { language: 'es', status: 'missing', question_text: null, answer_choices: null },
    ]);

    const saved = await put(first.id, 'es', { question_text: `  ${SPANISH_TEXT} ` });
    expect(saved.status).toBe(200);
    expect(saved.body.translation).toEqual({
      language: 'es',
      status: 'current',
      question_text: SPANISH_TEXT,
      answer_choices: null,
    });
    expect((await questionWhere((q) => q.id === first.id)).translations).toEqual([saved.body.translation]);

    // The survey in Spanish: the translated question whole in Spanish, every other one whole in English.
    const survey = await linkSurvey('?language=es');
    expect(survey.status).toBe(200);
    for (const entry of survey.body.questions) {
      if ('kind' in entry) continue;
      if (entry.id === first.id) expect(entry).toMatchObject({ text: SPANISH_TEXT, language: 'es' });
      else expect(entry.language).toBe('en');
    }
    const safety = survey.body.questions.find((q) => !('kind' in q) && q.category === 'safety');
    expect(safety).toMatchObject({ language: 'en', answer_choices: { '1': 'Never' } });

    const student = await agentFor(cast.studentA);
    const answers = Object.fromEntries(
      survey.body.questions.map((q) => [
        String(q.id),
        'question_type' in q && q.question_type === 'text' ? 'Todo bien.' : '2',
      ]),
    );
    const submitted = await student.post('/api/survey/', {
      survey_template_id: template.id,
      answers,
      language: 'es',
    });
    expect(submitted.status).toBe(200);
    const stored = await ctx.db.kysely
      .selectFrom('answers')
      .select(['question_id', 'language', 'question_text'])
      .execute();
    expect(stored).toHaveLength(survey.body.questions.length);
    for (const answer of stored) {
      expect(answer.language).toBe(answer.question_id === first.id ? 'es' : 'en');
    }
    // What staff read stays the question's own wording.
    expect(stored.find((answer) => answer.question_id === first.id)?.question_text).toBe(first.question_text);
  });

  it('records English for every answer given without a language the survey has translations in', async () => {
    const first = await questionWhere((q) => q.order === 1);
    expect((await put(first.id, 'es', { question_text: SPANISH_TEXT })).status).toBe(200);
    const survey = (await linkSurvey('?language=en')).body;
    expect(survey.questions.every((q) => q.language === 'en')).toBe(true);
    const student = await agentFor(cast.studentA);
    const answers = Object.fromEntries(
      survey.questions.map((q) => [
        String(q.id),
        'question_type' in q && q.question_type === 'text' ? 'Fine.' : '3',
      ]),
    );
    const submitted = await student.post('/api/survey/', { survey_template_id: template.id, answers });
    expect(submitted.status).toBe(200);
    const languages = await ctx.db.kysely.selectFrom('answers').select('language').execute();
    expect(new Set(languages.map((row) => row.language))).toEqual(new Set(['en']));
  });

  it('serves the language the browser asks for when the survey is asked for in none', async () => {
    const first = await questionWhere((q) => q.order === 1);
    await put(first.id, 'es', { question_text: SPANISH_TEXT });
    const survey = await linkSurvey('', { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' });
    expect(survey.status).toBe(200);
    expect(survey.body.questions.find((q) => q.id === first.id)).toMatchObject({
      text: SPANISH_TEXT,
      language: 'es',
    });
    const english = await linkSurvey('', { 'accept-language': 'fr' });
    expect(english.body.questions.find((q) => q.id === first.id)).toMatchObject({ language: 'en' });
  });

  it('translates custom answer choices with the question, and shows them together', async () => {
    const safety = await questionWhere((q) => q.category === 'safety');
    const saved = await put(safety.id, 'es', {
      question_text: '¿Has pensado en hacerte daño?',
      answer_choices: SAFETY_CHOICES_ES,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.translation.answer_choices).toEqual(SAFETY_CHOICES_ES);
    const survey = await linkSurvey('?language=es');
    expect(survey.body.questions.find((q) => q.id === safety.id)).toMatchObject({
      text: '¿Has pensado en hacerte daño?',
      answer_choices: SAFETY_CHOICES_ES,
      language: 'es',
    });
  });

  it('reports a translation outdated once the question changed, and still shows it whole', async () => {
    const first = await questionWhere((q) => q.order === 1);
    await put(first.id, 'es', { question_text: SPANISH_TEXT });
    await ctx.db.kysely
      .updateTable('questions')
      .set({ question_text: 'How are you feeling overall this week?' })
      .where('id', '=', first.id)
      .execute();
    expect((await questionWhere((q) => q.id === first.id)).translations).toEqual([
      { language: 'es', status: 'outdated', question_text: SPANISH_TEXT, answer_choices: null },
    ]);
    const survey = await linkSurvey('?language=es');
    expect(survey.body.questions.find((q) => q.id === first.id)).toMatchObject({
      text: SPANISH_TEXT,
      language: 'es',
    });

    // Saved again, it is current.
    await put(first.id, 'es', { question_text: '¿Cómo te sientes esta semana?' });
    expect((await questionWhere((q) => q.id === first.id)).translations[0]?.status).toBe('current');
  });

  it('deletes a translation: the question is missing it again, and shown in English', async () => {
    const first = await questionWhere((q) => q.order === 1);
    await put(first.id, 'es', { question_text: SPANISH_TEXT });
    const deleted = await admin.delete(translationUrl(first.id, 'es'));
    expect(deleted.status).toBe(200);
    expect((await questionWhere((q) => q.id === first.id)).translations[0]?.status).toBe('missing');
    expect(await storedTranslations()).toEqual([]);
    const survey = await linkSurvey('?language=es');
    expect(survey.body.questions.find((q) => q.id === first.id)).toMatchObject({
      text: first.question_text,
      language: 'en',
    });
    expectError(await admin.delete(translationUrl(first.id, 'es')), 404, 'NOT_FOUND', expect.any(String));
  });

  describe('refuses what is not a translation, and changes nothing', () => {
    let before: Awaited<ReturnType<typeof storedTranslations>>;
    let first: Listed;

    beforeEach(async () => {
      first = await questionWhere((q) => q.order === 1);
      expect((await put(first.id, 'es', { question_text: SPANISH_TEXT })).status).toBe(200);
      before = await storedTranslations();
    });

    afterEach(async () => {
      expect(await storedTranslations()).toEqual(before);
    });

    it('a language the product does not offer', async () => {
      const response = await put(first.id, 'fr', { question_text: 'Comment allez-vous ?' });
      expectError(response, 400, 'BAD_REQUEST', expect.any(String));
      expect(response.body).toMatchObject({ message: expect.stringContaining('es') });
      expectError(await admin.delete(translationUrl(first.id, 'fr')), 400, 'BAD_REQUEST', expect.any(String));
    });

    it('something that is no language tag', async () => {
      expectError(
        await put(first.id, 'ES!', { question_text: 'x' }),
        400,
        'VALIDATION_FAILED',
        expect.any(String),
      );
    });

    it('the default language, which is the question itself', async () => {
      expectError(
        await put(first.id, 'en', { question_text: 'How do you feel?' }),
        400,
        'BAD_REQUEST',
        DEFAULT_LANGUAGE_IS_THE_QUESTION,
      );
    });

    it('a blank text', async () => {
      expectError(
        await put(first.id, 'es', { question_text: '   ' }),
        400,
        'VALIDATION_FAILED',
        expect.any(String),
      );
    });

    it('choices other than the question has', async () => {
      const safety = await questionWhere((q) => q.category === 'safety');
      expectError(
        await put(safety.id, 'es', { question_text: '¿Daño?', answer_choices: { '1': 'Nunca' } }),
        400,
        'BAD_REQUEST',
        expect.any(String),
      );
      expectError(
        await put(safety.id, 'es', { question_text: '¿Daño?' }),
        400,
        'BAD_REQUEST',
        expect.any(String),
      );
      expectError(
        await put(first.id, 'es', { question_text: SPANISH_TEXT, answer_choices: { '1': 'Excelente' } }),
        400,
        'BAD_REQUEST',
        expect.any(String),
      );
    });

    it("another institution's question, through either template", async () => {
      const theirs = await firstTemplate(cast.b.id);
      const adminB = await agentFor(cast.adminB);
      const theirQuestion = (await listed(theirs.id, adminB))[0] as Listed;
      // B's admin, at A's template and question.
      expectError(
        await put(first.id, 'es', { question_text: 'x' }, adminB),
        404,
        'NOT_FOUND',
        expect.any(String),
      );
      expectError(
        await adminB.request({ method: 'DELETE', url: translationUrl(first.id, 'es') }),
        404,
        'NOT_FOUND',
        expect.any(String),
      );
      // A's admin, at A's own template with B's question, and at B's template.
      expectError(
        await put(theirQuestion.id, 'es', { question_text: 'x' }),
        404,
        'NOT_FOUND',
        QUESTION_NOT_FOUND,
      );
      expectError(
        await put(theirQuestion.id, 'es', { question_text: 'x' }, admin, theirs.id),
        404,
        'NOT_FOUND',
        expect.any(String),
      );
    });

    it("an instrument's items", async () => {
      const added = await admin.post<{ question: { id: number } }>(
        `/api/survey-templates/${template.id}/instruments/`,
        { instrument_id: 'phq2', order: 20 },
      );
      expect(added.status).toBe(201);
      expectError(
        await put(added.body.question.id, 'es', { question_text: 'PHQ-2' }),
        400,
        'BAD_REQUEST',
        INSTRUMENT_NOT_TRANSLATABLE,
      );
    });

    it('a student or a visitor', async () => {
      expectError(
        await put(first.id, 'es', { question_text: 'x' }, await agentFor(cast.studentA)),
        403,
        'FORBIDDEN',
        expect.any(String),
      );
      expectError(
        await put(first.id, 'es', { question_text: 'x' }, await agentFor(null)),
        401,
        'UNAUTHENTICATED',
        expect.any(String),
      );
    });
  });

  it('refuses a survey, or a submission, in a language the product does not offer', async () => {
    expectError(await linkSurvey('?language=fr'), 400, 'BAD_REQUEST', expect.any(String));
    expectError(await linkSurvey('?language=Spanish'), 400, 'VALIDATION_FAILED', expect.any(String));
    const survey = (await linkSurvey('?language=en')).body;
    const student = await agentFor(cast.studentA);
    const answers = Object.fromEntries(
      survey.questions.map((q) => [
        String(q.id),
        'question_type' in q && q.question_type === 'text' ? 'Fine.' : '3',
      ]),
    );
    const refused = await student.post('/api/survey/', {
      survey_template_id: template.id,
      answers,
      language: 'fr',
    });
    expectError(refused, 400, 'BAD_REQUEST', expect.any(String));
    expect(await ctx.db.kysely.selectFrom('submissions').select('id').execute()).toEqual([]);
  });
});
