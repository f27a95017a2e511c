import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, makeUser } from '../../../../test/helpers/factories';
import { CASE_NOTE, leaveFootprint, URGENT_TEXT } from '../../../../test/helpers/student-footprint';
import { INSTRUMENTS } from '../../../common/instruments';
import type { StudentRecordsResponse } from '../../../common/schemas/records';

const PHQ2 = INSTRUMENTS.phq2;

const STUDENT = 'student@north.edu';
const OTHER = 'other@north.edu';

describe.each(TEST_DIALECTS)("a student's own records on %s", (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let admin: TestAgent;
  let student: TestAgent;
  let other: TestAgent;

  beforeEach(async () => {
    ctx = await createTestApp(dialect, {}, { jobs: { poll: false } });
    cast = await makeTwoInstitutions(ctx.db.kysely);
    admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, cast.adminA.email);
    student = new TestAgent(ctx.app);
    await student.signInDirectly(ctx.db, STUDENT);
    const otherUser = await makeUser(ctx.db.kysely, {
      email: OTHER,
      institutionId: cast.a.id,
      name: 'Olive Other',
    });
    other = new TestAgent(ctx.app);
    await other.signInDirectly(ctx.db, otherUser.email);
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('holds everything kept about the student, and nothing of anyone else or of the counsellors', async () => {
    const db = ctx.db.kysely;
    const mine = await leaveFootprint({
      db,
      institutionId: cast.a.id,
      student,
      email: STUDENT,
      admin,
      calmText: 'Mine: a steady week',
    });
    await leaveFootprint({
      db,
      institutionId: cast.a.id,
      student: other,
      email: OTHER,
      admin,
      calmText: 'Theirs: exams are close',
    });
    const requested = await admin.post('/api/records-requests/', {
      email: STUDENT,
      note: 'Asked at the desk',
    });
    expect(requested.status).toBe(200);

    const response = await student.get<StudentRecordsResponse>('/api/account/records/');
    expect(response.status).toBe(200);
    const records = response.body.records;
    expect(records.student).toMatchObject({
      name: 'Sam North',
      email: STUDENT,
      institution: 'North University',
    });
    expect(records.roster).toMatchObject({ name: 'Sam North', group: 'Year 2', left_at: null });

    // Both check-ins, each with every answer the student gave.
    expect(records.check_ins).toHaveLength(2);
    const stored = await db
      .selectFrom('answers')
      .innerJoin('submissions', 'submissions.id', 'answers.submission_id')
      .select('answers.value')
      .where('submissions.school_email', '=', STUDENT)
      .execute();
    const exported = records.check_ins.flatMap((checkIn) => checkIn.answers.map((answer) => answer.value));
    expect(exported.sort()).toEqual(stored.map((row) => row.value).sort());
    expect(exported).toContain('Mine: a steady week');
    expect(exported).toContain(URGENT_TEXT);
    expect(records.check_ins.every((checkIn) => checkIn.verified)).toBe(true);

    expect(records.drafts).toHaveLength(1);
    expect(records.drafts[0]?.survey_id).toBe(mine.templateId);
    expect(records.invitations).toEqual([
      expect.objectContaining({ campaign_id: mine.campaignId, round: 1, answered_at: null, reminders: 0 }),
    ]);
    expect(records.records_requests).toEqual([expect.objectContaining({ fulfilled_at: null })]);

    // Nothing of the other student, no counsellor's note, no screening tier or reason.
    const text = JSON.stringify(response.body);
    expect(text).not.toContain(OTHER);
    expect(text).not.toContain('Theirs: exams are close');
    expect(text).not.toContain(CASE_NOTE);
    expect(text).not.toContain('Asked at the desk');
    expect(text).not.toMatch(/"(tier|reasons|band|total|likert_mean)"/);

    // The download is recorded, by the student, in their institution's log.
    const entry = await db
      .selectFrom('audit_log')
      .select(['institution_id', 'actor_user_id', 'actor_email', 'subject_type'])
      .where('action', '=', 'records.download')
      .executeTakeFirstOrThrow();
    expect(entry).toEqual({
      institution_id: cast.a.id,
      actor_user_id: cast.studentA.id,
      actor_email: STUDENT,
      subject_type: 'user',
    });
  });

  it("gives the answers to a screening instrument in the publisher's wording, without its score or band", async () => {
    await leaveFootprint({ db: ctx.db.kysely, institutionId: cast.a.id, student, email: STUDENT, admin });
    const submission = await ctx.db.kysely
      .selectFrom('submissions')
      .select('id')
      .where('school_email', '=', STUDENT)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const [first, second] = PHQ2.items;
    if (!first || !second) throw new Error('the PHQ-2 has two items');
    await ctx.db.kysely
      .insertInto('instrument_results')
      .values({
        submission_id: submission.id,
        question_id: null,
        instrument_id: 'phq2',
        scored_as: 'phq2',
        item_answers: JSON.stringify({ [first.id]: 1, [second.id]: 0 }),
        total: 1,
        band: null,
        tier: 'none',
        reason: 'PHQ-2 total 1',
        acute: 0,
        safety_assessment: 0,
        created_at: Date.now(),
      })
      .execute();

    const records = (await student.get<StudentRecordsResponse>('/api/account/records/')).body.records;
    const label = (value: number) => PHQ2.scale.find((option) => option.value === value)?.label;
    expect(records.check_ins[0]?.screening_answers).toEqual([
      {
        instrument: PHQ2.name,
        items: [
          { item: first.text, answer: label(1) },
          { item: second.text, answer: label(0) },
        ],
      },
    ]);
    expect(JSON.stringify(records)).not.toContain('PHQ-2 total 1');
  });

  it("never gives another student's records: the student is the one signed in, whatever the request names", async () => {
    await leaveFootprint({
      db: ctx.db.kysely,
      institutionId: cast.a.id,
      student: other,
      email: OTHER,
      admin,
    });
    const otherId = (
      await ctx.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', OTHER)
        .executeTakeFirstOrThrow()
    ).id;

    const named = await student.get<StudentRecordsResponse>(`/api/account/records/?user_id=${otherId}`);
    expect(named.status).toBe(200);
    expect(named.body.records.student.email).toBe(STUDENT);
    expect(named.body.records.check_ins).toEqual([]);
    expect(JSON.stringify(named.body)).not.toContain(OTHER);
    expect((await student.get(`/api/account/records/${otherId}/`)).status).toBe(404);

    expectError(
      await admin.get('/api/account/records/'),
      403,
      'FORBIDDEN',
      'Only a student can download their own records',
    );
    expectError(
      await new TestAgent(ctx.app).get('/api/account/records/'),
      401,
      'UNAUTHENTICATED',
      'Authentication required',
    );
  });
});
