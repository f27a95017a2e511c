import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, makeUser } from '../../../../test/helpers/factories';
import type { RecordsRequestResponse, RecordsRequestsResponse } from '../../../common/schemas/records';
import { DAY } from '../../lib/time';

describe.each(TEST_DIALECTS)('records requests on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let admin: TestAgent;
  let adminB: TestAgent;

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, cast.adminA.email);
    adminB = new TestAgent(ctx.app);
    await adminB.signInDirectly(ctx.db, cast.adminB.email);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const list = async (agent = admin) =>
    (await agent.get<RecordsRequestsResponse>('/api/records-requests/')).body.requests;

  it('shows each request with its 45-day deadline until it is marked fulfilled', async () => {
    const before = Date.now();
    const opened = await admin.post<RecordsRequestResponse>('/api/records-requests/', {
      email: ' Student@North.edu ',
      note: 'Letter of 3 November',
    });
    expect(opened.status).toBe(200);
    const request = opened.body.request;
    expect(request).toMatchObject({
      email: 'student@north.edu',
      note: 'Letter of 3 November',
      opened_by: 'admin',
      fulfilled_at: null,
      overdue: false,
    });
    const openedAt = Date.parse(request.opened_at);
    expect(openedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(request.due_at) - openedAt).toBe(45 * DAY);
    expect(await list()).toEqual([request]);

    // One open request per student at a time.
    expectError(
      await admin.post('/api/records-requests/', { email: 'student@north.edu' }),
      409,
      'CONFLICT',
      'This student already has an open records request',
    );

    // Past its deadline it says so.
    await ctx.db.kysely
      .updateTable('records_requests')
      .set({ due_at: Date.now() - DAY })
      .where('id', '=', request.id)
      .execute();
    expect((await list())[0]?.overdue).toBe(true);

    const fulfilled = await admin.post(`/api/records-requests/${request.id}/fulfil/`);
    expect(fulfilled.status).toBe(200);
    const [done] = await list();
    expect(done?.fulfilled_at).not.toBeNull();
    expect(done?.overdue).toBe(false);
    expectError(
      await admin.post(`/api/records-requests/${request.id}/fulfil/`),
      409,
      'CONFLICT',
      'This records request is already fulfilled',
    );
    // Once fulfilled, the student may ask again.
    expect((await admin.post('/api/records-requests/', { email: 'student@north.edu' })).status).toBe(200);

    const actions = (
      await ctx.db.kysely
        .selectFrom('audit_log')
        .select(['action', 'actor_user_id'])
        .where('action', 'like', 'records_request.%')
        .orderBy('id')
        .execute()
    ).map((row) => row.action);
    expect(actions).toEqual(
      expect.arrayContaining(['records_request.open', 'records_request.list', 'records_request.fulfil']),
    );
  });

  it("is kept to the admin's own institution and to admins", async () => {
    const opened = await admin.post<RecordsRequestResponse>('/api/records-requests/', {
      email: 'student@north.edu',
    });
    const id = opened.body.request.id;
    expect(await list(adminB)).toEqual([]);
    expectError(
      await adminB.post(`/api/records-requests/${id}/fulfil/`),
      404,
      'NOT_FOUND',
      'Records request not found',
    );
    expect((await list())[0]?.fulfilled_at).toBeNull();

    await makeUser(ctx.db.kysely, { email: 'casey@north.edu', role: 'counsellor', institutionId: cast.a.id });
    const counsellor = new TestAgent(ctx.app);
    await counsellor.signInDirectly(ctx.db, 'casey@north.edu');
    expectError(await counsellor.get('/api/records-requests/'), 403, 'FORBIDDEN', 'Admin access required');
    const student = new TestAgent(ctx.app);
    await student.signInDirectly(ctx.db, cast.studentA.email);
    expectError(
      await student.post('/api/records-requests/', { email: 'student@north.edu' }),
      403,
      'FORBIDDEN',
      'Admin access required',
    );
    const tooLong = await admin.post('/api/records-requests/', {
      email: 'x@north.edu',
      note: 'n'.repeat(1001),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ message: 'note must be at most 1000 characters' });
  });
});
