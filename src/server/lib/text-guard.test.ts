import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentResponse, createTestApp, TestAgent, type TestContext } from '../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../test/helpers/databases';
import { makeTwoInstitutions } from '../../../test/helpers/factories';
import { hasUnstorableText, UNSTORABLE_TEXT } from './text-guard';

type Cast = Awaited<ReturnType<typeof makeTwoInstitutions>>;

function expectRefused(response: AgentResponse) {
  expect(response.status).toBe(400);
  expect(response.body).toEqual({ success: false, code: 'BAD_REQUEST', message: UNSTORABLE_TEXT });
}

describe('hasUnstorableText', () => {
  it('finds NUL and unpaired surrogates in strings, keys and nested values', () => {
    expect(hasUnstorableText('a\u0000b')).toBe(true);
    expect(hasUnstorableText('\ud800')).toBe(true);
    expect(hasUnstorableText('x\udc00')).toBe(true);
    expect(hasUnstorableText('\udc00\ud800')).toBe(true);
    expect(hasUnstorableText({ answers: { '1': ['ok', 'b\u0000'] } })).toBe(true);
    expect(hasUnstorableText({ 'key\u0000': 'value' })).toBe(true);
  });

  it('accepts every well-formed string, astral characters and joiners included', () => {
    for (const text of [
      '',
      'plain',
      '🙂',
      '👩‍👩‍👧‍👦',
      '\u202eעברית',
      '\u200b\u200d\ufeff',
      'e\u0301',
      '𝕏',
      '\u{10ffff}',
    ]) {
      expect(hasUnstorableText(text), JSON.stringify(text)).toBe(false);
    }
    expect(hasUnstorableText({ a: [1, null, true, { b: 'ok' }] })).toBe(false);
  });
});

describe.each(TEST_DIALECTS)('unstorable text on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Cast;
  let templateId: number;

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    const template = await ctx.db.kysely
      .selectFrom('active_templates')
      .select('template_id')
      .where('institution_id', '=', cast.a.id)
      .executeTakeFirstOrThrow();
    templateId = template.template_id;
  });

  afterEach(async () => {
    await ctx.close();
  });

  async function count(table: 'questions' | 'submissions' | 'users' | 'contact_requests') {
    const rows = await ctx.db.kysely.selectFrom(table).select('id').execute();
    return rows.length;
  }

  async function questions() {
    const rows = await ctx.db.kysely
      .selectFrom('questions')
      .select(['id', 'question_type'])
      .where('template_id', '=', templateId)
      .execute();
    return rows;
  }

  it('refuses NUL and unpaired surrogates in a question, and stores nothing', async () => {
    const admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, cast.adminA.email);
    const before = await count('questions');
    for (const text of ['How\u0000 are you?', 'How are you?\ud800', '\udfff']) {
      expectRefused(
        await admin.post(`/api/survey-templates/${templateId}/questions/`, {
          question_text: text,
          question_type: 'likert',
          order: 1,
        }),
      );
    }
    expectRefused(
      await admin.post(`/api/survey-templates/${templateId}/questions/`, {
        question_text: 'Fine',
        question_type: 'likert',
        order: 1,
        answer_choices: { '1': 'Great\u0000' },
      }),
    );
    expect(await count('questions')).toBe(before);
  });

  it('keeps emoji, right-to-left and zero-width text exactly as written', async () => {
    const admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, cast.adminA.email);
    const text = 'How are you 🙂👩‍👩‍👧‍👦 \u202eשלום\u202c e\u0301 \u200b𝕏?';
    const created = await admin.post<{ question: { id: number } }>(
      `/api/survey-templates/${templateId}/questions/`,
      {
        question_text: text,
        question_type: 'likert',
        order: 1,
      },
    );
    expect(created.status).toBe(201);
    const listed = await admin.get<{ questions: { id: number; question_text: string }[] }>(
      `/api/survey-templates/${templateId}/questions/`,
    );
    expect(
      listed.body.questions.find((question) => question.id === created.body.question.id)?.question_text,
    ).toBe(text);
  });

  it('refuses NUL in a written answer, a link visitor name, a registration and the contact form', async () => {
    const answers = (written: string) =>
      questions().then((rows) =>
        Object.fromEntries(
          rows.map((row) => [String(row.id), row.question_type === 'likert' ? '1' : written]),
        ),
      );
    const student = new TestAgent(ctx.app);
    await student.signInDirectly(ctx.db, cast.studentA.email);
    expectRefused(
      await student.post('/api/survey/', {
        survey_template_id: templateId,
        answers: await answers('ok\u0000'),
      }),
    );

    const hashLink = await ctx.db.kysely
      .selectFrom('survey_templates')
      .select('hash_link')
      .where('id', '=', templateId)
      .executeTakeFirstOrThrow();
    const visitor = new TestAgent(ctx.app);
    expectRefused(
      await visitor.post(`/api/survey/link/${hashLink.hash_link}/`, {
        student_name: 'Visitor\u0000',
        school_email: 'visitor@north.edu',
        answers: await answers('ok'),
      }),
    );
    expect(await count('submissions')).toBe(0);

    const usersBefore = await count('users');
    expectRefused(
      await visitor.post('/api/register/', {
        institution_name: 'North University',
        name: 'Nora\u0000',
        email: 'nora@north.edu',
        password: 'a-long-enough-passphrase',
        confirm_password: 'a-long-enough-passphrase',
      }),
    );
    expect(await count('users')).toBe(usersBefore);

    const contact = await visitor.request({
      method: 'POST',
      url: '/api/contact/',
      payload: 'name=Dana&email=dana%40east.edu&message=Hello%00there',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      csrf: false,
    });
    expectRefused(contact);
    expect(await count('contact_requests')).toBe(0);
  });

  it('refuses NUL in a link path with 400 rather than a database error', async () => {
    const visitor = new TestAgent(ctx.app);
    expectRefused(await visitor.get('/api/get-user-survey-questions/abc%00def/'));
  });

  it('leaves access checks first: a student still gets 403 from an admin route', async () => {
    const student = new TestAgent(ctx.app);
    await student.signInDirectly(ctx.db, cast.studentA.email);
    const response = await student.post(`/api/survey-templates/${templateId}/questions/`, {
      question_text: 'x\u0000',
      question_type: 'likert',
      order: 1,
    });
    expect(response.status).toBe(403);
  });
});
