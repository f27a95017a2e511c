import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { rollupSnapshot } from '../../../../test/helpers/dashboard-data';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, makeUser } from '../../../../test/helpers/factories';
import { CASE_NOTE, leaveFootprint } from '../../../../test/helpers/student-footprint';
import type { ErasurePreviewResponse, ErasureResponse } from '../../../common/schemas/records';
import { rebuildDashboardRollups } from '../dashboard';

const STUDENT = 'student@north.edu';
const OTHER = 'other@north.edu';

describe.each(TEST_DIALECTS)('erasure of one student on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let admin: TestAgent;
  let student: TestAgent;

  beforeEach(async () => {
    ctx = await createTestApp(dialect, {}, { jobs: { poll: false } });
    cast = await makeTwoInstitutions(ctx.db.kysely);
    admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, cast.adminA.email);
    student = new TestAgent(ctx.app);
    await student.signInDirectly(ctx.db, STUDENT);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const db = () => ctx.db.kysely;
  const seed = async () => {
    const mine = await leaveFootprint({ db: db(), institutionId: cast.a.id, student, email: STUDENT, admin });
    await makeUser(db(), { email: OTHER, institutionId: cast.a.id, name: 'Olive Other' });
    const other = new TestAgent(ctx.app);
    await other.signInDirectly(ctx.db, OTHER);
    const theirs = await leaveFootprint({
      db: db(),
      institutionId: cast.a.id,
      student: other,
      email: OTHER,
      admin,
    });
    const southStudent = new TestAgent(ctx.app);
    await southStudent.signInDirectly(ctx.db, cast.studentB.email);
    const adminB = new TestAgent(ctx.app);
    await adminB.signInDirectly(ctx.db, cast.adminB.email);
    await leaveFootprint({
      db: db(),
      institutionId: cast.b.id,
      student: southStudent,
      email: cast.studentB.email,
      admin: adminB,
    });
    return { mine, theirs };
  };

  /** Rows anywhere that still name the address, table by table (empty when none do). */
  async function tablesNaming(email: string): Promise<string[]> {
    const checks: [string, string][] = [
      ['users', 'email'],
      ['respondents', 'email'],
      ['submissions', 'school_email'],
      ['roster_students', 'email'],
      ['verification_codes', 'email'],
      ['address_proofs', 'email'],
      ['mail_outbox', 'to_address'],
      ['dashboard_students', 'email'],
      ['audit_log', 'actor_email'],
      ['audit_log', 'detail'],
    ];
    const naming: string[] = [];
    for (const [table, column] of checks) {
      const row = await sql<{
        count: number | string;
      }>`select count(*) as count from ${sql.table(table)} where lower(${sql.ref(column)}) like ${`%${email}%`}`.execute(
        db(),
      );
      if (Number(row.rows[0]?.count ?? 0) > 0) naming.push(`${table}.${column}`);
    }
    return naming;
  }

  const count = async (
    table: 'answers' | 'instrument_results' | 'drafts' | 'cases' | 'case_events' | 'campaign_invitations',
  ) =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );

  it('names what will go, removes it all, keeps everyone else, recounts the dashboard and records only that it happened', async () => {
    const { mine } = await seed();
    const before = {
      answers: await count('answers'),
      drafts: await count('drafts'),
      cases: await count('cases'),
      invitations: await count('campaign_invitations'),
    };
    const responsesBefore = (await rollupSnapshot(db(), cast.a.id)).totals?.responses;
    expect(responsesBefore).toBe(4);

    const preview = await admin.post<ErasurePreviewResponse>('/api/erasures/preview/', { email: STUDENT });
    expect(preview.status).toBe(200);
    expect(preview.body.blocked_by).toBeNull();
    const counts = preview.body.counts;
    expect(counts).toMatchObject({
      accounts: 1,
      submissions: 2,
      drafts: 1,
      verification: 2,
      invitations: 1,
      roster_entries: 1,
      cases: 1,
      pending_mail: 1,
    });
    expect(counts.question_answers).toBeGreaterThan(0);
    // Opened, the urgent submission, the alert, the note: at least the note and the opening.
    expect(counts.case_entries).toBeGreaterThanOrEqual(2);

    const erased = await admin.post<ErasureResponse>('/api/erasures/', { email: STUDENT.toUpperCase() });
    expect(erased.status).toBe(200);
    expect(erased.body.counts).toEqual(counts);

    // Gone: every row that named the student, their case and its note, their sign-in.
    expect(await tablesNaming(STUDENT)).toEqual([]);
    expect(await db().selectFrom('cases').select('id').where('id', '=', mine.caseId).execute()).toEqual([]);
    expect(
      await db().selectFrom('case_events').select('id').where('case_id', '=', mine.caseId).execute(),
    ).toEqual([]);
    // The same note on the other student's case and on the other institution's stays.
    const notes = await db().selectFrom('case_events').select('detail').where('kind', '=', 'note').execute();
    expect(notes.filter((row) => row.detail?.includes(CASE_NOTE))).toHaveLength(2);
    expect(
      await db().selectFrom('roster_students').select('id').where('id', '=', mine.rosterId).execute(),
    ).toEqual([]);
    expect((await student.get('/api/user/')).status).toBe(401);

    // Kept: the other student of the institution and the other institution, whole.
    expect(await count('answers')).toBe(before.answers - counts.question_answers);
    expect(await count('drafts')).toBe(before.drafts - 1);
    expect(await count('cases')).toBe(before.cases - 1);
    expect(await count('campaign_invitations')).toBe(before.invitations - 1);
    expect(await tablesNaming(OTHER)).toEqual(expect.arrayContaining(['users.email', 'respondents.email']));
    expect(await tablesNaming(cast.studentB.email)).toEqual(
      expect.arrayContaining(['users.email', 'submissions.school_email', 'dashboard_students.email']),
    );

    // The dashboard equals a recount of what is left.
    const after = await rollupSnapshot(db(), cast.a.id);
    expect(after.totals?.responses).toBe(2);
    expect(after.totals?.students).toBe(1);
    await rebuildDashboardRollups(db(), cast.a.id);
    expect(await rollupSnapshot(db(), cast.a.id)).toEqual(after);

    // The audit log keeps who erased, when, and the student's hashed identifier; nothing else.
    const entry = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'student.erase')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      institution_id: cast.a.id,
      actor_user_id: cast.adminA.id,
      actor_email: cast.adminA.email,
      subject_type: 'erased_student',
    });
    expect(entry.subject_id).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(entry.at)).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.parse(entry.detail ?? '{}')).toEqual(counts);
    const previewEntry = await db()
      .selectFrom('audit_log')
      .select('subject_id')
      .where('action', '=', 'erasure.preview')
      .executeTakeFirstOrThrow();
    expect(previewEntry.subject_id).toBe(entry.subject_id);
  });

  it('is refused while a legal hold or an open records request exists, and removes nothing', async () => {
    await seed();
    const answersBefore = await count('answers');

    const hold = await admin.post<{ hold: { id: number } }>('/api/legal-holds/', {
      email: STUDENT,
      reason: 'Litigation',
    });
    expect(hold.status).toBe(200);
    const held = await admin.post<ErasurePreviewResponse>('/api/erasures/preview/', { email: STUDENT });
    expect(held.body.blocked_by).toBe('legal_hold');
    expectError(
      await admin.post('/api/erasures/', { email: STUDENT }),
      409,
      'LEGAL_HOLD',
      "This student's data is under a legal hold and cannot be erased. Lift the hold first.",
    );
    expect(await count('answers')).toBe(answersBefore);
    await admin.post(`/api/legal-holds/${hold.body.hold.id}/lift/`, { reason: 'Settled' });

    const request = await admin.post<{ request: { id: number } }>('/api/records-requests/', {
      email: STUDENT,
    });
    expect(request.status).toBe(200);
    const requested = await admin.post<ErasurePreviewResponse>('/api/erasures/preview/', { email: STUDENT });
    expect(requested.body.blocked_by).toBe('records_request');
    expectError(
      await admin.post('/api/erasures/', { email: STUDENT }),
      409,
      'RECORDS_REQUEST_OPEN',
      'This student has an open records request. Mark it fulfilled before erasing their data.',
    );
    expect(await count('answers')).toBe(answersBefore);
    expect(
      await db().selectFrom('audit_log').select('id').where('action', '=', 'student.erase').execute(),
    ).toEqual([]);

    // Once fulfilled the request no longer stops it, and afterwards names the student by hash.
    expect((await admin.post(`/api/records-requests/${request.body.request.id}/fulfil/`)).status).toBe(200);
    expect((await admin.post('/api/erasures/', { email: STUDENT })).status).toBe(200);
    const kept = await db()
      .selectFrom('records_requests')
      .select(['email', 'fulfilled_at'])
      .executeTakeFirstOrThrow();
    expect(kept.email).toMatch(/^erased student [0-9a-f]{16}$/);
    expect(kept.fulfilled_at).not.toBeNull();
    expect(await tablesNaming(STUDENT)).toEqual([]);
  });

  it('takes a registered student who never checked in off the dashboard too', async () => {
    await makeUser(db(), { email: 'quiet@north.edu', institutionId: cast.a.id, name: 'Quinn Quiet' });
    expect(await tablesNaming('quiet@north.edu')).toEqual(['users.email', 'dashboard_students.email']);
    expect((await rollupSnapshot(db(), cast.a.id)).totals?.students).toBe(2);

    const erased = await admin.post<ErasureResponse>('/api/erasures/', { email: 'quiet@north.edu' });
    expect(erased.body.counts).toMatchObject({ accounts: 1, submissions: 0 });
    expect(await tablesNaming('quiet@north.edu')).toEqual([]);
    const after = await rollupSnapshot(db(), cast.a.id);
    expect(after.totals?.students).toBe(1);
    await rebuildDashboardRollups(db(), cast.a.id);
    expect(await rollupSnapshot(db(), cast.a.id)).toEqual(after);
  });

  it("reaches only the admin's own institution, and only admins", async () => {
    await seed();
    const adminB = new TestAgent(ctx.app);
    await adminB.signInDirectly(ctx.db, cast.adminB.email);
    const answersBefore = await count('answers');

    const foreign = await adminB.post<ErasureResponse>('/api/erasures/', { email: STUDENT });
    expect(foreign.status).toBe(200);
    expect(Object.values(foreign.body.counts).every((value) => value === 0)).toBe(true);
    expect(await count('answers')).toBe(answersBefore);
    expect(await tablesNaming(STUDENT)).toEqual(
      expect.arrayContaining(['users.email', 'mail_outbox.to_address']),
    );

    await makeUser(db(), { email: 'casey@north.edu', role: 'counsellor', institutionId: cast.a.id });
    const counsellor = new TestAgent(ctx.app);
    await counsellor.signInDirectly(ctx.db, 'casey@north.edu');
    expectError(
      await counsellor.post('/api/erasures/', { email: STUDENT }),
      403,
      'FORBIDDEN',
      'Admin access required',
    );
    expectError(
      await student.post('/api/erasures/preview/', { email: STUDENT }),
      403,
      'FORBIDDEN',
      'Admin access required',
    );
    const invalid = await admin.post('/api/erasures/', { email: 'not an address' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Enter a valid email address' });
    expect(await count('answers')).toBe(answersBefore);
  });
});
