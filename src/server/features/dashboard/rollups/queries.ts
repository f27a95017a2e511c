import { type Insertable, sql } from 'kysely';
import { type Executor, isPostgres } from '../../../db/executor';
import { reusableQuery } from '../../../db/reusable-query';
import type {
  DashboardLatestDaysTable,
  DashboardMonthsTable,
  DashboardStudentMonthsTable,
  DashboardStudentsTable,
  DashboardTotalsTable,
} from '../../../db/types';

type Counters<T> = { [column in keyof T]: number };
export type TotalsCounters = Counters<Omit<DashboardTotalsTable, 'institution_id'>>;
export type MonthCounters = Counters<Omit<DashboardMonthsTable, 'institution_id' | 'month'>>;
type Increments<T> = Partial<Record<keyof T & string, number>>;

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
