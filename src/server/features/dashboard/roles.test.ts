import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { notSigningIn } from '../../../../test/helpers/audit';
import { activeQuestions, addSubmission } from '../../../../test/helpers/dashboard-data';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { EventStreamClient } from '../../../../test/helpers/event-stream-client';
import { makeTwoInstitutions, makeUser } from '../../../../test/helpers/factories';
import type { DashboardData } from '../../../common/schemas/dashboard';
import { STAFF_CANNOT_SUBMIT } from '../surveys';

describe.each(TEST_DIALECTS)('roles on the dashboard on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  const agents: Record<'admin' | 'counsellor' | 'viewer', TestAgent> = {} as never;

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    const db = ctx.db.kysely;
    const questions = await activeQuestions(db, cast.a.id);
    await addSubmission(db, {
      institutionId: cast.a.id,
      email: 'una@north.edu',
      name: 'Una Urgent',
      at: Date.now() - 60_000,
      tier: 'urgent',
      reasons: ['Crisis language in a written answer'],
      answers: [{ question: questions.safety, value: '5' }],
    });
    await makeUser(db, {
      email: 'coun@north.edu',
      role: 'counsellor',
      institutionId: cast.a.id,
      name: 'Cora',
    });
    await makeUser(db, { email: 'view@north.edu', role: 'viewer', institutionId: cast.a.id, name: 'Vic' });
    for (const [role, email] of [
      ['admin', cast.adminA.email],
      ['counsellor', 'coun@north.edu'],
      ['viewer', 'view@north.edu'],
    ] as const) {
      agents[role] = new TestAgent(ctx.app);
      await agents[role].signInDirectly(ctx.db, email);
    }
  });
  afterEach(async () => {
    await ctx.close();
  });

  const auditActions = async (email: string) =>
    (
      await ctx.db.kysely
        .selectFrom('audit_log')
        .select('action')
        .where('actor_email', '=', email)
        .where(notSigningIn)
        .orderBy('id')
        .execute()
    ).map((row) => row.action);

  it('/api/user/ names each role as the API does', async () => {
    expect((await agents.admin.get('/api/user/')).body).toMatchObject({
      role: 'admin',
      is_institution_admin: true,
    });
    expect((await agents.counsellor.get('/api/user/')).body).toMatchObject({
      role: 'counsellor',
      is_institution_admin: false,
      is_superuser: false,
    });
    expect((await agents.viewer.get('/api/user/')).body).toMatchObject({ role: 'viewer' });
  });

  it('a counsellor sees names and emails, and the read is recorded', async () => {
    const response = await agents.counsellor.get<DashboardData>('/api/dashboard/');
    expect(response.status).toBe(200);
    expect(response.body.identities_shown).toBe(true);
    expect(response.body.flagged_students).toEqual([['Una Urgent', 'una@north.edu']]);
    expect((await agents.counsellor.get('/api/dashboard/flagged/')).status).toBe(200);
    expect((await agents.counsellor.get('/api/dashboard/export.csv')).text).toContain('una@north.edu');
    expect(await auditActions('coun@north.edu')).toEqual([
      'dashboard.read',
      'dashboard.flagged.read',
      'submissions.export',
    ]);
  });

  it('a viewer sees the numbers and no name or email, and reads nothing identifiable', async () => {
    const response = await agents.viewer.get<DashboardData>('/api/dashboard/');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      identities_shown: false,
      // One flagged student is a small group: a viewer learns only that it is fewer than five.
      num_flagged_students: { suppressed: true, fewer_than: 5 },
      flagged_students: [],
      flagged_details: [],
      unverified_flagged: [],
    });
    expect(response.text).not.toContain('Una');
    expect(response.text).not.toContain('una@north.edu');
    expectError(
      await agents.viewer.get('/api/dashboard/flagged/'),
      403,
      'FORBIDDEN',
      'Staff access required',
    );
    expectError(
      await agents.viewer.get('/api/dashboard/export.csv'),
      403,
      'FORBIDDEN',
      'Staff access required',
    );
    expect(await auditActions('view@north.edu')).toEqual([]);
  });

  it("the live dashboard shows each role what it may see, and ends when a member's role changes", async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    const cookieOf = (agent: TestAgent) => `sessionid=${agent.jar.get('sessionid')}`;
    const viewer = await EventStreamClient.open(baseUrl, cookieOf(agents.viewer));
    const counsellor = await EventStreamClient.open(baseUrl, cookieOf(agents.counsellor));
    try {
      await viewer.waitForEvents(1, 5_000);
      await counsellor.waitForEvents(1, 5_000);
      const questions = await activeQuestions(ctx.db.kysely, cast.a.id);
      await addSubmission(ctx.db.kysely, {
        institutionId: cast.a.id,
        email: 'noor@north.edu',
        name: 'Noor New',
        at: Date.now(),
        tier: 'urgent',
        answers: [{ question: questions.safety, value: '4' }],
      });
      const [, seenByViewer] = await viewer.waitForEvents(2, 5_000);
      const [, seenByCounsellor] = await counsellor.waitForEvents(2, 5_000);
      expect(seenByViewer?.data).toMatchObject({
        identities_shown: false,
        num_flagged_students: { suppressed: true, fewer_than: 5 },
        flagged_students: [],
      });
      expect(seenByCounsellor?.data.num_flagged_students).toBe(2);
      expect(JSON.stringify(viewer.events)).not.toMatch(/Noor|noor@|Una|una@/);
      expect(seenByCounsellor?.data.flagged_students.map(([name]) => name)).toContain('Noor New');

      const counsellorId = (
        await ctx.db.kysely
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'coun@north.edu')
          .executeTakeFirstOrThrow()
      ).id;
      const changed = await agents.admin.request({
        method: 'PUT',
        url: `/api/staff/${counsellorId}/`,
        payload: { role: 'viewer' },
      });
      expect(changed.status).toBe(200);
      await addSubmission(ctx.db.kysely, {
        institutionId: cast.a.id,
        email: 'omar@north.edu',
        name: 'Omar Other',
        at: Date.now(),
        tier: 'urgent',
        answers: [{ question: questions.safety, value: '4' }],
      });
      expect(await counsellor.waitForEnd(5_000)).toBe(true);
      expect(JSON.stringify(counsellor.events)).not.toContain('Omar');
    } finally {
      viewer.close();
      counsellor.close();
    }
  });

  it('counsellors and viewers may not open templates, and may not submit surveys', async () => {
    for (const role of ['counsellor', 'viewer'] as const) {
      expectError(
        await agents[role].get('/api/survey-templates/'),
        403,
        'FORBIDDEN',
        'Admin access required',
      );
      expectError(
        await agents[role].post('/api/survey-templates/', {}),
        403,
        'FORBIDDEN',
        'Admin access required',
      );
      const link = await ctx.db.kysely
        .selectFrom('survey_templates')
        .select('hash_link')
        .where('institution_id', '=', cast.a.id)
        .executeTakeFirstOrThrow();
      expectError(
        await agents[role].post(`/api/survey/link/${link.hash_link}/`, { answers: { '1': '1' } }),
        403,
        'FORBIDDEN',
        STAFF_CANNOT_SUBMIT,
      );
    }
  });

  it('every template change an admin makes is recorded with who and from where', async () => {
    const created = await agents.admin.post<{ template: { id: number } }>('/api/survey-templates/', {});
    expect(created.status).toBe(201);
    const id = created.body.template.id;
    const question = await agents.admin.post<{ question: { id: number } }>(
      `/api/survey-templates/${id}/questions/`,
      {
        question_text: 'How rested do you feel?',
        question_type: 'likert',
        question_category: 'sleep',
        order: 1,
      },
    );
    expect(question.status).toBe(201);
    expect(
      (
        await agents.admin.delete(`/api/survey-templates/${id}/questions/`, {
          question_id: question.body.question.id,
        })
      ).status,
    ).toBe(200);
    expect((await agents.admin.post(`/api/survey-templates/${id}/use/`)).status).toBe(200);
    expect((await agents.admin.delete('/api/survey-templates/', { template_id: id })).status).toBe(200);
    // A refused change leaves no row.
    expect((await agents.admin.delete('/api/survey-templates/', { template_id: id })).status).toBe(404);
    const rows = await ctx.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'subject_type', 'subject_id', 'actor_user_id', 'institution_id', 'address'])
      .where('actor_email', '=', cast.adminA.email)
      .where(notSigningIn)
      .orderBy('id')
      .execute();
    expect(rows.map((row) => [row.action, row.subject_type])).toEqual([
      ['template.create', 'template'],
      ['question.add', 'question'],
      ['question.delete', 'question'],
      ['template.use', 'template'],
      ['template.delete', 'template'],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ actor_user_id: cast.adminA.id, institution_id: cast.a.id });
      expect(row.address).toBeTruthy();
    }
  });
});
