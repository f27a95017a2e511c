import { type Insertable, PostgresAdapter, sql } from 'kysely';
import { FLAGGED_TIERS } from '../../../common/risk/tiers';
import type { Executor } from '../../db/executor';
import { reusableQuery } from '../../db/reusable-query';
import type {
  DashboardLatestDaysTable,
  DashboardMonthsTable,
  DashboardStudentMonthsTable,
  DashboardStudentsTable,
  DashboardTotalsTable,
  QuestionsTable,
} from '../../db/types';

type Counters<T> = { [column in keyof T]: number };
export type TotalsCounters = Counters<Omit<DashboardTotalsTable, 'institution_id'>>;
export type MonthCounters = Counters<Omit<DashboardMonthsTable, 'institution_id' | 'month'>>;
type Increments<T> = Partial<Record<keyof T & string, number>>;

/** PostgreSQL channel of dashboard change notices; the payload is "<schema>:<institution id>". */
export const CHANGE_CHANNEL = 'dashboard_changes';

export function isPostgres(db: Executor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** `SET col = table.col + excluded.col` for each counter: atomic under concurrent submissions. */
function addExcluded(table: string, increments: Record<string, number>) {
  return Object.fromEntries(
    Object.keys(increments).map((column) => [
      column,
      sql<number>`${sql.ref(`${table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`,
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// Write side: called inside the submission (or registration) transaction.

const insertStudentQuery = reusableQuery((db, student: Insertable<DashboardStudentsTable>) =>
  db
    .insertInto('dashboard_students')
    .values(student)
    .onConflict((oc) => oc.columns(['institution_id', 'email']).doNothing())
    .returning('id'),
);

/** Inserts the student unless known; returns the new id, or undefined when the email was known. */
export async function insertStudentIfAbsent(
  db: Executor,
  student: Insertable<DashboardStudentsTable>,
): Promise<number | undefined> {
  const { rows } = await insertStudentQuery(db, student);
  return rows[0]?.id;
}

const lockStudentQuery = reusableQuery((db, student: { institutionId: number; email: string }) =>
  db
    .selectFrom('dashboard_students')
    .selectAll()
    .where('institution_id', '=', student.institutionId)
    .where('email', '=', student.email)
    .$if(isPostgres(db), (query) => query.forUpdate()),
);

/**
 * The student's rollup row, locked on PostgreSQL so concurrent submissions update it in turn;
 * undefined when the email is not known yet.
 */
export async function lockStudent(db: Executor, institutionId: number, email: string) {
  const { rows } = await lockStudentQuery(db, { institutionId, email });
  return rows[0];
}

type StudentChanges = Partial<Omit<Insertable<DashboardStudentsTable>, 'id' | 'institution_id' | 'email'>>;

const updateStudentQuery = reusableQuery((db, values: StudentChanges & { studentId: number }) => {
  const { studentId, ...changes } = values;
  return db.updateTable('dashboard_students').set(changes).where('id', '=', studentId);
});

export async function updateStudent(db: Executor, studentId: number, changes: StudentChanges) {
  await updateStudentQuery(db, { ...changes, studentId });
}

const markStudentMonthQuery = reusableQuery((db, row: { student_id: number; month: number }) =>
  db
    .insertInto('dashboard_student_months')
    .values(row)
    .onConflict((oc) => oc.columns(['student_id', 'month']).doNothing())
    .returning('month'),
);

/** Records that the student submitted in that month; true the first time only. */
export async function markStudentMonth(db: Executor, studentId: number, month: number): Promise<boolean> {
  const { rows } = await markStudentMonthQuery(db, { student_id: studentId, month });
  return rows.length > 0;
}

const addToMonthQuery = reusableQuery(
  (db, values: Increments<MonthCounters> & { institution_id: number; month: number }) => {
    const { institution_id, month, ...increments } = values;
    return db
      .insertInto('dashboard_months')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['institution_id', 'month']).doUpdateSet(addExcluded('dashboard_months', increments)),
      );
  },
);

export async function addToMonth(
  db: Executor,
  institutionId: number,
  month: number,
  increments: Increments<MonthCounters>,
) {
  await addToMonthQuery(db, { institution_id: institutionId, month, ...increments });
}

const addToTotalsQuery = reusableQuery(
  (db, values: Increments<TotalsCounters> & { institution_id: number }) => {
    const { institution_id, ...increments } = values;
    return db
      .insertInto('dashboard_totals')
      .values(values)
      .onConflict((oc) =>
        oc.column('institution_id').doUpdateSet(addExcluded('dashboard_totals', increments)),
      );
  },
);

export async function addToTotals(
  db: Executor,
  institutionId: number,
  increments: Increments<TotalsCounters>,
) {
  await addToTotalsQuery(db, { institution_id: institutionId, ...increments });
}

const addToLatestDayQuery = reusableQuery(
  (db, values: { institution_id: number; day: number; students: number }) =>
    db
      .insertInto('dashboard_latest_days')
      .values(values)
      .onConflict((oc) =>
        oc
          .columns(['institution_id', 'day'])
          .doUpdateSet(addExcluded('dashboard_latest_days', { students: values.students })),
      ),
);

export async function addToLatestDay(db: Executor, institutionId: number, day: number, students: number) {
  await addToLatestDayQuery(db, { institution_id: institutionId, day, students });
}

/** PostgreSQL delivers a NOTIFY issued inside a transaction at its commit, and never on rollback. */
export async function notifyChange(db: Executor, institutionId: number) {
  await sql`select pg_notify(${CHANGE_CHANNEL}, current_schema() || ':' || ${String(institutionId)})`.execute(
    db,
  );
}

// ---------------------------------------------------------------------------------------------
// Read side: a fixed handful of indexed lookups per dashboard, whatever the data size.

export function totalsRow(db: Executor, institutionId: number) {
  return db
    .selectFrom('dashboard_totals')
    .selectAll()
    .where('institution_id', '=', institutionId)
    .executeTakeFirst();
}

/** Month rows from `fromMonth` on (the dashboard's window, plus any dated later). */
export function monthRowsFrom(db: Executor, institutionId: number, fromMonth: number) {
  return db
    .selectFrom('dashboard_months')
    .selectAll()
    .where('institution_id', '=', institutionId)
    .where('month', '>=', fromMonth)
    .orderBy('month')
    .execute();
}

export interface ActivityWindow {
  /** Whole days after this one are summed from the per-day buckets. */
  afterDay: number;
  /** [edgeFrom, edgeTo): the partial day at the window's start, counted exactly. */
  edgeFrom: number;
  edgeTo: number;
}

/**
 * Every single-value figure of the dashboard in one statement: the counters, the students active
 * in the response-rate window, and which analytic categories the current templates ask about.
 */
export async function dashboardFigures(db: Executor, institutionId: number, window: ActivityWindow) {
  const asks = (category: QuestionsTable['category']) =>
    db
      .selectFrom('questions')
      .innerJoin('survey_templates', 'survey_templates.id', 'questions.template_id')
      .select('questions.id')
      .where('survey_templates.institution_id', '=', institutionId)
      .where('questions.category', '=', category);
  const row = await db
    .selectFrom('institutions')
    .leftJoin('dashboard_totals as totals', 'totals.institution_id', 'institutions.id')
    .select((eb) => [
      'totals.responses',
      'totals.students',
      'totals.flagged_students',
      'totals.stable_students',
      'totals.good_sleep',
      'totals.poor_sleep',
      'totals.low_stress',
      'totals.moderate_stress',
      'totals.high_stress',
      eb
        .selectFrom('dashboard_latest_days')
        .select((sub) => sub.fn.sum<number>('students').as('students'))
        .where('institution_id', '=', institutionId)
        .where('day', '>', window.afterDay)
        .as('active_whole_days'),
      eb
        .selectFrom('dashboard_students')
        .select((sub) => sub.fn.countAll<number>().as('students'))
        .where('institution_id', '=', institutionId)
        .where('latest_at', '>=', window.edgeFrom)
        .where('latest_at', '<', window.edgeTo)
        .as('active_edge_day'),
      eb.exists(asks('sleep')).as('asks_sleep'),
      eb.exists(asks('support')).as('asks_support'),
      eb.exists(asks('stress')).as('asks_stress'),
    ])
    .where('institutions.id', '=', institutionId)
    .executeTakeFirst();
  const counter = (value: number | string | null | undefined) => Number(value ?? 0);
  return {
    totals: {
      responses: counter(row?.responses),
      students: counter(row?.students),
      flagged_students: counter(row?.flagged_students),
      stable_students: counter(row?.stable_students),
      good_sleep: counter(row?.good_sleep),
      poor_sleep: counter(row?.poor_sleep),
      low_stress: counter(row?.low_stress),
      moderate_stress: counter(row?.moderate_stress),
      high_stress: counter(row?.high_stress),
    } satisfies TotalsCounters,
    activeStudents: counter(row?.active_whole_days) + counter(row?.active_edge_day),
    // SQLite answers EXISTS with 1/0, PostgreSQL with true/false.
    asks: {
      sleep: Boolean(row?.asks_sleep),
      support: Boolean(row?.asks_support),
      stress: Boolean(row?.asks_stress),
    },
  };
}

/** Flagged students in dashboard order (urgent first, then newest), read off an index. */
export function flaggedStudents(db: Executor, institutionId: number, offset: number, limit: number) {
  // The page is picked from the index first and only then joined: however the planner estimates
  // the tables, it never has to join every flagged student to sort them.
  const page = db
    .selectFrom('dashboard_students')
    .select(['id', 'email', 'latest_submission_id', 'latest_tier', 'latest_at', 'latest_priority'])
    .where('institution_id', '=', institutionId)
    .where('latest_priority', '>', 0)
    .orderBy('latest_priority', 'desc')
    .orderBy('latest_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset);
  return db
    .selectFrom(page.as('student'))
    .innerJoin('submissions as latest', 'latest.id', 'student.latest_submission_id')
    .select([
      'student.email',
      'student.latest_tier as tier',
      'student.latest_at as submitted_at',
      'latest.student_name as name',
      'latest.reasons',
    ])
    .orderBy('student.latest_priority', 'desc')
    .orderBy('student.latest_at', 'desc')
    .orderBy('student.id', 'desc')
    .execute();
}

/** Flagged submissions not (yet) proven, newest first: shown to staff, counted nowhere. */
export function unverifiedFlagged(db: Executor, institutionId: number, since: number, limit: number) {
  return db
    .selectFrom('submissions')
    .select(['student_name as name', 'school_email as email', 'tier', 'reasons', 'created_at'])
    .where('institution_id', '=', institutionId)
    .where('verified_at', 'is', null)
    .where('created_at', '>=', since)
    .where('tier', 'in', FLAGGED_TIERS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// CSV export: keyset pages, so memory stays flat however many submissions there are.

/** Every question ever answered at the institution, by its text, in order of first appearance. */
export async function answeredQuestionTexts(db: Executor, institutionId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('answers')
    .innerJoin('submissions', 'submissions.id', 'answers.submission_id')
    .select(['answers.question_text', (eb) => eb.fn.min('answers.id').as('first_id')])
    .where('submissions.institution_id', '=', institutionId)
    .groupBy('answers.question_text')
    .orderBy('first_id')
    .execute();
  return rows.map((row) => row.question_text);
}

export interface SubmissionCursor {
  createdAt: number;
  id: number;
}

export function submissionsPage(
  db: Executor,
  institutionId: number,
  after: SubmissionCursor | null,
  limit: number,
) {
  return db
    .selectFrom('submissions')
    .select(['id', 'created_at', 'student_name', 'school_email', 'template_id', 'tier', 'reasons'])
    .where('institution_id', '=', institutionId)
    .$if(after !== null, (query) =>
      query.where((eb) =>
        eb.or([
          eb('created_at', '>', after?.createdAt ?? 0),
          eb.and([eb('created_at', '=', after?.createdAt ?? 0), eb('id', '>', after?.id ?? 0)]),
        ]),
      ),
    )
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export function answersOf(db: Executor, submissionIds: number[]) {
  if (submissionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('answers')
    .select(['submission_id', 'question_text', 'value'])
    .where('submission_id', 'in', submissionIds)
    .orderBy('id')
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Full rebuild from the source tables (operators, seeding, benchmarks).

export function studentUsers(db: Executor, institutionId: number) {
  return db
    .selectFrom('users')
    .select(['email', 'created_at'])
    .where('institution_id', '=', institutionId)
    .where('role', '=', 'student')
    .execute();
}

export function respondentEmails(db: Executor, institutionId: number) {
  return db
    .selectFrom('respondents')
    .select(['id', 'email'])
    .where('institution_id', '=', institutionId)
    .execute();
}

/** Proven submissions only: an unproven one counts for no one until its address is proven. */
export function submissionsAfterId(db: Executor, institutionId: number, afterId: number, limit: number) {
  return db
    .selectFrom('submissions')
    .select(['id', 'respondent_id', 'created_at', 'tier'])
    .where('institution_id', '=', institutionId)
    .where('verified_at', 'is not', null)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export function answerFacts(db: Executor, submissionIds: number[]) {
  if (submissionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('answers')
    .select(['submission_id', 'category', 'question_type', 'value'])
    .where('submission_id', 'in', submissionIds)
    .execute();
}

export async function deleteRollups(db: Executor, institutionId: number) {
  await db.deleteFrom('dashboard_latest_days').where('institution_id', '=', institutionId).execute();
  await db.deleteFrom('dashboard_months').where('institution_id', '=', institutionId).execute();
  await db.deleteFrom('dashboard_totals').where('institution_id', '=', institutionId).execute();
  // Student months go with their students (foreign key cascade).
  await db.deleteFrom('dashboard_students').where('institution_id', '=', institutionId).execute();
}

/**
 * Fresh planner statistics after a bulk rewrite, so PostgreSQL keeps reading the flagged list off
 * its index rather than sorting every flagged student (autovacuum would get there, later).
 */
export async function refreshPlannerStatistics(db: Executor) {
  if (!isPostgres(db)) return;
  await sql`analyze dashboard_totals, dashboard_months, dashboard_students, dashboard_student_months, dashboard_latest_days`.execute(
    db,
  );
}

/** Rows per INSERT: well under SQLite's 32,766 bound parameters for the widest table. */
const INSERT_BATCH = 500;

async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += INSERT_BATCH)
    await insert(rows.slice(start, start + INSERT_BATCH));
}

/** Returns each new id by email: RETURNING promises no row order. */
export async function insertStudents(
  db: Executor,
  rows: Insertable<DashboardStudentsTable>[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  await insertInBatches(rows, async (batch) => {
    const inserted = await db
      .insertInto('dashboard_students')
      .values(batch)
      .returning(['id', 'email'])
      .execute();
    for (const row of inserted) ids.set(row.email, row.id);
  });
  return ids;
}

export async function insertStudentMonths(db: Executor, rows: DashboardStudentMonthsTable[]) {
  await insertInBatches(rows, (batch) => db.insertInto('dashboard_student_months').values(batch).execute());
}

export async function insertMonths(db: Executor, rows: Insertable<DashboardMonthsTable>[]) {
  await insertInBatches(rows, (batch) => db.insertInto('dashboard_months').values(batch).execute());
}

export async function insertLatestDays(db: Executor, rows: Insertable<DashboardLatestDaysTable>[]) {
  await insertInBatches(rows, (batch) => db.insertInto('dashboard_latest_days').values(batch).execute());
}

export async function insertTotals(db: Executor, row: Insertable<DashboardTotalsTable>) {
  await db.insertInto('dashboard_totals').values(row).execute();
}

// ---------------------------------------------------------------------------------------------
// Live updates.

/** The schema this database's tables live in: instances sharing a PostgreSQL database but not a schema must not hear each other. */
export async function currentSchema(db: Executor): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? 'public';
}

/** When the session was created and last used; undefined once it is gone (logout, expiry). */
export function sessionTimes(db: Executor, idHash: string) {
  return db
    .selectFrom('sessions')
    .select(['created_at', 'last_seen_at'])
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
}
