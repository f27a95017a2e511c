import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions } from '../../../../test/helpers/factories';
import type { SavedDraft } from '../../../common/schemas/surveys';
import { DRAFT_CHANGED, DRAFT_SURVEY_NOT_FOUND, DRAFT_TOO_LARGE } from './service';

type Cast = Awaited<ReturnType<typeof makeTwoInstitutions>>;
type Loaded = { success: true; saved_data: SavedDraft | null };

describe.each(TEST_DIALECTS)('drafts on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Cast;
  let student: TestAgent;
  let templateId: number;
  let otherTemplateId: number;

  async function firstTemplate(institutionId: number) {
    const row = await ctx.db.kysely
      .selectFrom('survey_templates')
      .select('id')
      .where('institution_id', '=', institutionId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const draft = (answers: Record<string, string> = { '1': '3', '7': 'Half a thought' }) => ({
    template_id: templateId,
    student_name: 'Sam North',
    school_email: 'student@north.edu',
    answers,
  });

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    student = new TestAgent(ctx.app);
    await student.signInDirectly(ctx.db, cast.studentA.email);
    templateId = await firstTemplate(cast.a.id);
    otherTemplateId = await firstTemplate(cast.b.id);
  });

  afterEach(async () => {
    await ctx.close();
  });

  it('saves a draft and loads it back, with and without the trailing slash', async () => {
    const saved = await student.post('/api/autosave/', draft());
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      success: true,
      message: 'Draft saved',
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    for (const url of [`/api/autosave/load/${templateId}`, `/api/autosave/load/${templateId}/`]) {
      const loaded = await student.get<Loaded>(url);
      expect(loaded.status).toBe(200);
      expect(loaded.body).toEqual({
        success: true,
        saved_data: { ...draft(), updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      });
    }
  });

  it('replaces the previous draft of the same survey', async () => {
    await student.post('/api/autosave/', draft({ '1': '3' }));
    await student.post('/api/autosave/', draft({ '1': '4', '2': '5' }));
    const loaded = await student.get<Loaded>(`/api/autosave/load/${templateId}`);
    expect(loaded.body.saved_data?.answers).toEqual({ '1': '4', '2': '5' });
    expect(await ctx.db.kysely.selectFrom('drafts').select('user_id').execute()).toHaveLength(1);
  });

  describe('saves built on a version (two windows)', () => {
    type Saved = { success: true; updated_at: string };
    const save = (answers: Record<string, string>, base: string | null) =>
      student.post<Saved>('/api/autosave/', { ...draft(answers), base_updated_at: base });
    const stored = async () =>
      (await student.get<Loaded>(`/api/autosave/load/${templateId}`)).body.saved_data;

    it('each save answers its version, which the next save builds on', async () => {
      const first = await save({ '1': '3' }, null);
      expect(first.status).toBe(200);
      expect((await stored())?.updated_at).toBe(first.body.updated_at);
      const second = await save({ '1': '4' }, first.body.updated_at);
      expect(second.status).toBe(200);
      expect(Date.parse(second.body.updated_at)).toBeGreaterThan(Date.parse(first.body.updated_at));
      expect(await stored()).toMatchObject({ answers: { '1': '4' }, updated_at: second.body.updated_at });
    });

    it('409 and nothing changed when another window saved in between', async () => {
      const windowA = await save({ '1': '3' }, null);
      const windowB = await save({ '1': '3', '2': '5' }, windowA.body.updated_at);
      expect(windowB.status).toBe(200);
      // Window A still builds on the first version.
      expectError(await save({ '1': '2' }, windowA.body.updated_at), 409, 'CONFLICT', DRAFT_CHANGED);
      expect(await stored()).toMatchObject({ answers: { '1': '3', '2': '5' } });
      // Nor may a window that saw no draft create one over it.
      expectError(await save({ '3': '1' }, null), 409, 'CONFLICT', DRAFT_CHANGED);
      expect(await stored()).toMatchObject({ answers: { '1': '3', '2': '5' } });
    });

    it('409 once the draft is gone (submitted or cleared elsewhere): it does not come back', async () => {
      const saved = await save({ '1': '3' }, null);
      await student.delete(`/api/autosave/clear/${templateId}/`);
      expectError(await save({ '1': '3', '2': '4' }, saved.body.updated_at), 409, 'CONFLICT', DRAFT_CHANGED);
      expect(await stored()).toBeNull();
    });

    it('400 for a base that is not a time', async () => {
      const response = await student.post('/api/autosave/', { ...draft(), base_updated_at: 'yesterday' });
      expectError(response, 400, 'VALIDATION_FAILED', 'base_updated_at must be an ISO 8601 time');
      expect(await stored()).toBeNull();
    });
  });

  it('accepts a draft with only some answers and no name or email yet', async () => {
    const response = await student.post('/api/autosave/', { template_id: templateId, answers: {} });
    expect(response.status).toBe(200);
    const loaded = await student.get<Loaded>(`/api/autosave/load/${templateId}`);
    expect(loaded.body.saved_data).toMatchObject({ student_name: '', school_email: '', answers: {} });
  });

  it('answers null when there is no draft', async () => {
    const loaded = await student.get<Loaded>(`/api/autosave/load/${templateId}`);
    expect(loaded.body).toEqual({ success: true, saved_data: null });
  });

  it('keeps each user’s drafts apart', async () => {
    await student.post('/api/autosave/', draft());
    const classmate = await ctx.db.kysely
      .insertInto('users')
      .values({
        email: 'classmate@north.edu',
        name: 'Classmate',
        role: 'student',
        institution_id: cast.a.id,
        password_hash: 'x',
        created_at: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const other = new TestAgent(ctx.app);
    const { createSession, SESSION_COOKIE } = await import('../../lib/sessions');
    other.jar.set(SESSION_COOKIE, (await createSession(ctx.db.kysely, classmate.id)).sessionId);
    const loaded = await other.get<Loaded>(`/api/autosave/load/${templateId}`);
    expect(loaded.body.saved_data).toBeNull();
  });

  it('clears the draft, and clearing again still succeeds', async () => {
    await student.post('/api/autosave/', draft());
    const cleared = await student.delete(`/api/autosave/clear/${templateId}/`);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ success: true, message: 'Draft cleared' });
    expect((await student.get<Loaded>(`/api/autosave/load/${templateId}`)).body.saved_data).toBeNull();
    expect((await student.delete(`/api/autosave/clear/${templateId}/`)).status).toBe(200);
  });

  it('goes with its template when the template is deleted', async () => {
    await student.post('/api/autosave/', draft());
    await ctx.db.kysely.deleteFrom('survey_templates').where('id', '=', templateId).execute();
    expect(await ctx.db.kysely.selectFrom('drafts').select('user_id').execute()).toEqual([]);
  });

  it('refuses an oversize draft with 413 and keeps the previous one', async () => {
    await student.post('/api/autosave/', draft());
    const answers = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [String(i + 1), 'x'.repeat(4000)]),
    );
    expectError(
      await student.post('/api/autosave/', draft(answers)),
      413,
      'PAYLOAD_TOO_LARGE',
      DRAFT_TOO_LARGE,
    );
    const loaded = await student.get<Loaded>(`/api/autosave/load/${templateId}`);
    expect(loaded.body.saved_data?.answers).toEqual(draft().answers);
  });

  it.each([
    [{ answers: {} }, 'template_id is required'],
    [{ template_id: 'one', answers: {} }, 'template_id is required'],
    [{ template_id: 1 }, 'Answers must be an object keyed by question id'],
    [{ template_id: 1, answers: { q1: '3' } }, 'Answers must be keyed by question id'],
    [{ template_id: 1, answers: { '1': 3 } }, 'Each answer must be text: "1" to "5" or a written answer'],
    [{ template_id: 1, answers: { '1': 'x'.repeat(5001) } }, 'Each answer must be at most 5000 characters'],
    [
      { template_id: 1, answers: {}, student_name: 'n'.repeat(201) },
      'Full name must be at most 200 characters',
    ],
  ])('refuses %j with "%s"', async (body, message) => {
    expectError(await student.post('/api/autosave/', body), 400, 'VALIDATION_FAILED', message);
    expect(await ctx.db.kysely.selectFrom('drafts').select('user_id').execute()).toEqual([]);
  });

  it("answers 404 for another institution's template on save, load and clear", async () => {
    expectError(
      await student.post('/api/autosave/', { ...draft(), template_id: otherTemplateId }),
      404,
      'NOT_FOUND',
      DRAFT_SURVEY_NOT_FOUND,
    );
    expectError(
      await student.get(`/api/autosave/load/${otherTemplateId}`),
      404,
      'NOT_FOUND',
      DRAFT_SURVEY_NOT_FOUND,
    );
    expectError(
      await student.delete(`/api/autosave/clear/${otherTemplateId}/`),
      404,
      'NOT_FOUND',
      DRAFT_SURVEY_NOT_FOUND,
    );
    expect(await ctx.db.kysely.selectFrom('drafts').select('user_id').execute()).toEqual([]);
  });

  it('refuses a malformed template id in the path', async () => {
    expectError(await student.get('/api/autosave/load/abc'), 400, 'VALIDATION_FAILED', 'Id must be a number');
  });

  describe('visitors', () => {
    it.each([
      ['POST', '/api/autosave/', { template_id: 1, answers: {} }],
      ['POST', '/api/autosave/', { junk: true }],
      ['GET', '/api/autosave/load/1', undefined],
      ['DELETE', '/api/autosave/clear/1/', undefined],
    ] as const)('%s %s: 401', async (method, url, payload) => {
      const visitor = new TestAgent(ctx.app);
      const response = await visitor.request({ method, url, ...(payload ? { payload } : {}) });
      expectError(response, 401, 'UNAUTHENTICATED', 'Authentication required');
    });
  });
});
