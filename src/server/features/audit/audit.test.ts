import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, makeUser, TEST_PASSWORD } from '../../../../test/helpers/factories';
import type { AuditPage } from '../../../common/schemas/audit';
import { recordAudit } from '../../lib/audit';
import { listAuditEntries } from './service';

const DAY1 = Date.parse('2026-03-01T10:00:00Z');
const DAY2 = Date.parse('2026-03-02T23:59:00Z');
const DAY3 = Date.parse('2026-03-03T00:00:00Z');

describe.each(TEST_DIALECTS)('the audit log API on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let admin: TestAgent;

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    const db = ctx.db.kysely;
    // A history written by the audit module itself, at known times.
    vi.useFakeTimers({ toFake: ['Date'] });
    const north = (email: string) => ({ institutionId: cast.a.id, userId: 1, email, address: '203.0.113.9' });
    const rows: [number, string, string][] = [
      [DAY1, 'admin@north.edu', 'template.create'],
      [DAY1 + 1, 'coun@north.edu', 'dashboard.read'],
      [DAY2, 'admin@north.edu', 'staff.invite'],
      [DAY2, 'admin@north.edu', 'staff.role.change'],
      [DAY3, 'coun@north.edu', 'submissions.export'],
    ];
    for (const [at, email, action] of rows) {
      vi.setSystemTime(at);
      await recordAudit(db, north(email), { action, detail: { note: `${action} at ${at}` } });
    }
    await recordAudit(
      db,
      { institutionId: cast.b.id, userId: 2, email: 'admin@south.edu', address: null },
      {
        action: 'staff.invite',
      },
    );
    vi.useRealTimers();
    admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, cast.adminA.email);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await ctx.close();
  });

  const list = async (query = '') => {
    const response = await admin.get<AuditPage>(`/api/audit/${query}`);
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  /**
   * The history written above, without what the admin's own sign-in and readings of the log
   * record today (they are tested below): a filter by `to` that ends with the history's month.
   */
  const history = (query = '') =>
    list(query.includes('to=') ? query : `${query}${query ? '&' : '?'}to=2026-03-31`);
  const actions = (page: AuditPage) => page.entries.map((entry) => entry.action);

  it("lists the institution's entries newest first, paged, and nothing of another institution", async () => {
    const all = await history();
    expect(all.total).toBe(5);
    expect(actions(all)).toEqual([
      'submissions.export',
      'staff.role.change',
      'staff.invite',
      'dashboard.read',
      'template.create',
    ]);
    expect(all.entries[0]).toMatchObject({
      actor_email: 'coun@north.edu',
      at: new Date(DAY3).toISOString(),
      address: '203.0.113.9',
      detail: { note: `submissions.export at ${DAY3}` },
    });
    const second = await history('?page=2&page_size=2');
    expect(second).toMatchObject({ total: 5, page: 2, page_size: 2 });
    expect(actions(second)).toEqual(['staff.invite', 'dashboard.read']);
    expect(JSON.stringify(all)).not.toContain('south.edu');
  });

  it('filters by actor, by action or family of actions, and by days (UTC, both ends included)', async () => {
    expect(actions(await history('?actor=COUN@north.edu'))).toEqual(['submissions.export', 'dashboard.read']);
    expect(actions(await history('?action=staff'))).toEqual(['staff.role.change', 'staff.invite']);
    expect(actions(await history('?action=staff.invite'))).toEqual(['staff.invite']);
    expect(actions(await history('?action=sta'))).toEqual([]);
    expect(actions(await history('?from=2026-03-02&to=2026-03-02'))).toEqual([
      'staff.role.change',
      'staff.invite',
    ]);
    expect(actions(await history('?from=2026-03-03'))).toEqual(['submissions.export']);
    expect(actions(await history('?to=2026-03-01&actor=admin@north.edu'))).toEqual(['template.create']);
  });

  it('refuses bad filters with a message', async () => {
    for (const [query, message] of [
      ['?page=0', 'page must be at least 1'],
      ['?page_size=1000', 'page_size must be at most 200'],
      ['?page=abc', 'page must be a number'],
      ['?from=yesterday', 'from must be a date like 2026-01-31'],
      ['?from=2026-02-31x', 'from must be a date like 2026-01-31'],
      ['?from=2026-03-05&to=2026-03-01', 'from must not be after to'],
      ['?action=DROP%20TABLE', 'action may hold lower-case letters, dots and underscores only'],
    ] as const) {
      const response = await admin.get(`/api/audit/${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body, query).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
      expect((response.body as { message: string }).message, query).toContain(message);
    }
  });

  it('exports the filtered log as CSV, and records the export', async () => {
    const response = await admin.get('/api/audit/export.csv?action=staff&to=2026-03-31');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = response.text.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe(
      'Time (UTC),Actor,Actor name,Action,Subject,Subject id,Subject name,Detail,Address',
    );
    expect(lines.slice(1).map((line) => line.split(',')[3])).toEqual(['staff.role.change', 'staff.invite']);
    const exported = (await list('?action=audit.export')).entries;
    expect(exported).toHaveLength(1);
    expect(exported[0]).toMatchObject({
      actor_email: 'admin@north.edu',
      detail: { filters: { action: 'staff', to: '2026-03-31' } },
    });
  });

  it('records every reading of the log, who read it, from where and with which filters', async () => {
    await list('?action=staff&page=1');
    await list('?actor=coun@north.edu');
    const readings = (await list('?action=audit.read')).entries;
    // The third reading lists the two before it; its own is recorded after its page is read.
    expect(readings.map((entry) => entry.detail)).toEqual([
      { filters: { actor: 'coun@north.edu' }, page: 1 },
      { filters: { action: 'staff' }, page: 1 },
    ]);
    expect(readings[0]).toMatchObject({ actor_email: 'admin@north.edu', address: expect.any(String) });
    expect((await list('?action=audit.read')).total).toBe(3);
  });

  it('is for admins only', async () => {
    await makeUser(ctx.db.kysely, { email: 'c@north.edu', role: 'counsellor', institutionId: cast.a.id });
    await makeUser(ctx.db.kysely, { email: 'v@north.edu', role: 'viewer', institutionId: cast.a.id });
    for (const email of ['c@north.edu', 'v@north.edu', cast.studentA.email]) {
      const agent = new TestAgent(ctx.app);
      await agent.signInDirectly(ctx.db, email);
      expectError(await agent.get('/api/audit/'), 403, 'FORBIDDEN', 'Admin access required');
      expectError(await agent.get('/api/audit/export.csv'), 403, 'FORBIDDEN', 'Admin access required');
    }
    expectError(
      await new TestAgent(ctx.app).get('/api/audit/'),
      401,
      'UNAUTHENTICATED',
      'Authentication required',
    );
  });
});

describe.each(TEST_DIALECTS)("the audit log's people and days on %s", (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let admin: TestAgent;
  let caseOfSam: number;

  // New York leaves summer time at 02:00 on 2026-11-01 (06:00 UTC): its 1 November runs from
  // 04:00 UTC that day to 05:00 UTC the next, 25 hours.
  const LATE_OCT_31 = Date.parse('2026-11-01T03:30:00Z'); // 23:30 on 31 October in New York
  const EARLY_NOV_1 = Date.parse('2026-11-01T04:30:00Z'); // 00:30 on 1 November, summer time
  const LATE_NOV_1 = Date.parse('2026-11-02T04:30:00Z'); // 23:30 on 1 November, winter time
  const EARLY_NOV_2 = Date.parse('2026-11-02T05:30:00Z'); // 00:30 on 2 November

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    const db = ctx.db.kysely;
    await db
      .updateTable('institutions')
      .set({ time_zone: 'America/New_York' })
      .where('id', '=', cast.a.id)
      .execute();
    const counsellor = await makeUser(db, {
      email: 'cora@north.edu',
      role: 'counsellor',
      institutionId: cast.a.id,
      name: 'Cora Counsellor',
    });
    const opened = Date.parse('2026-10-30T12:00:00Z');
    const respondent = async (institutionId: number, email: string, name: string) =>
      (
        await db
          .insertInto('respondents')
          .values({ institution_id: institutionId, email, name, user_id: null, created_at: opened })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const sam = await respondent(cast.a.id, 'sam.north@north.edu', 'Sam North');
    const pat = await respondent(cast.a.id, 'pat@north.edu', 'Pat 100%_Other');
    const sky = await respondent(cast.b.id, 'sky@south.edu', 'Sky South');
    const inserted = await db
      .insertInto('cases')
      .values({
        institution_id: cast.a.id,
        respondent_id: sam,
        open_respondent_id: sam,
        tier: 'urgent',
        status: 'new',
        verified_at: opened,
        first_submitted_at: opened,
        opened_at: opened,
        acknowledge_by: opened,
        next_escalation_at: null,
        acknowledged_at: null,
        acknowledged_by: null,
        assigned_to: null,
        resolved_at: null,
        outcome: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    caseOfSam = inserted.id;
    const byCora = {
      institutionId: cast.a.id,
      userId: counsellor.id,
      email: counsellor.email,
      address: null,
    };
    const rows: [number, Parameters<typeof recordAudit>[2]][] = [
      [LATE_OCT_31, { action: 'case.read', subject: { type: 'case', id: caseOfSam } }],
      [EARLY_NOV_1, { action: 'student.history.read', subject: { type: 'student', id: sam } }],
      [LATE_NOV_1, { action: 'student.history.read', subject: { type: 'student', id: pat } }],
      // Another institution's student by id: never named here, never found by name.
      [EARLY_NOV_2, { action: 'student.history.read', subject: { type: 'student', id: sky } }],
    ];
    vi.useFakeTimers({ toFake: ['Date'] });
    for (const [at, entry] of rows) {
      vi.setSystemTime(at);
      await recordAudit(db, byCora, entry);
    }
    vi.useRealTimers();
    admin = new TestAgent(ctx.app);
    await admin.login(cast.adminA.email, TEST_PASSWORD);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await ctx.close();
  });

  const list = async (query: string) => {
    const response = await admin.get<AuditPage>(`/api/audit/${query}`);
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  const times = (page: AuditPage) => page.entries.map((entry) => Date.parse(entry.at));

  it("takes the date filters as the institution's days, across a daylight-saving change", async () => {
    const page = await list('?from=2026-11-01&to=2026-11-01');
    expect(page.time_zone).toBe('America/New_York');
    expect(times(page)).toEqual([LATE_NOV_1, EARLY_NOV_1]);
    expect(times(await list('?from=2026-10-31&to=2026-10-31'))).toEqual([LATE_OCT_31]);
    expect(times(await list('?from=2026-11-02&to=2026-11-02&action=student'))).toEqual([EARLY_NOV_2]);
  });

  it('names the actor and the student beside their ids, through a case too, and no one of another institution', async () => {
    const page = await list('?from=2026-10-31&to=2026-11-02');
    expect(
      page.entries.map(({ actor_name, subject_type, subject_name }) => ({
        actor_name,
        subject_type,
        subject_name,
      })),
    ).toEqual([
      { actor_name: 'Cora Counsellor', subject_type: 'student', subject_name: null },
      { actor_name: 'Cora Counsellor', subject_type: 'student', subject_name: 'Pat 100%_Other' },
      { actor_name: 'Cora Counsellor', subject_type: 'student', subject_name: 'Sam North' },
      { actor_name: 'Cora Counsellor', subject_type: 'case', subject_name: 'Sam North' },
    ]);
    expect(JSON.stringify(page)).not.toContain('Sky South');
  });

  it("finds who looked at a student by part of the student's name or email, case aside, in the institution only", async () => {
    const sam = [EARLY_NOV_1, LATE_OCT_31];
    expect(times(await list('?student=sam%20NORTH'))).toEqual(sam);
    expect(times(await list('?student=SAM.north@'))).toEqual(sam);
    // Wildcards are letters like any other.
    expect(times(await list('?student=100%25_'))).toEqual([LATE_NOV_1]);
    expect(times(await list('?student=%25'))).toEqual([LATE_NOV_1]);
    expect((await list('?student=south')).total).toBe(0);
    expect((await list('?student=Cora')).total).toBe(0);
    const tooLong = await admin.get(`/api/audit/?student=${'x'.repeat(201)}`);
    expectError(tooLong, 400, 'VALIDATION_FAILED', 'student is too long');
  });

  it("gives a reader who may not see students' names none, and no finding by them", async () => {
    const page = await listAuditEntries({
      db: ctx.db.kysely,
      reader: { institutionId: cast.a.id, timeZone: 'America/New_York', seesStudentNames: false },
      filters: { student: 'Sam' },
      page: 1,
      pageSize: 50,
    });
    expect(page.total).toBeGreaterThanOrEqual(4);
    expect(page.entries.map((entry) => entry.subject_name)).not.toContain('Sam North');
    expect(JSON.stringify(page)).not.toMatch(/Sam North|Pat 100/);
    expect(page.entries.map((entry) => entry.actor_name)).toContain('Cora Counsellor');
  });
});
