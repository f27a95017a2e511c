import { sql } from 'kysely';
import type { Executor } from '../../db/executor';
import { containsPattern } from '../../db/like';
import type { RosterRow } from './csv';

/** Rows per insert: within both databases' limits on bound parameters. */
const BATCH = 1_000;

/** The addresses already on the institution's roster. */
export async function rosterEmails(db: Executor, institutionId: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('roster_students')
    .select('email')
    .where('institution_id', '=', institutionId)
    .execute();
  return new Set(rows.map((row) => row.email));
}

/** The addresses of the institution's staff accounts, and of the service's super users. */
export async function staffEmails(db: Executor, institutionId: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('users')
    .select('email')
    .where('role', '!=', 'student')
    .where((eb) => eb.or([eb('institution_id', '=', institutionId), eb('institution_id', 'is', null)]))
    .execute();
  return new Set(rows.map((row) => row.email));
}

/**
 * Adds the rows' students and updates the names (and groups, when the file has a group column)
 * of those already there: one row per address, whatever the file repeats.
 */
export async function upsertStudents(
  db: Executor,
  institutionId: number,
  rows: readonly RosterRow[],
  options: { withGroups: boolean; at: number },
): Promise<void> {
  const { withGroups, at } = options;
  for (let start = 0; start < rows.length; start += BATCH) {
    const values = rows.slice(start, start + BATCH).map((row) => ({
      institution_id: institutionId,
      email: row.email,
      name: row.name,
      group_name: row.group ?? null,
      created_at: at,
      updated_at: at,
    }));
    await db
      .insertInto('roster_students')
      .values(values)
      .onConflict((conflict) =>
        conflict.columns(['institution_id', 'email']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          // Listed by the registrar again: back on the roster.
          left_at: null,
          updated_at: eb.ref('excluded.updated_at'),
          ...(withGroups ? { group_name: eb.ref('excluded.group_name') } : {}),
        })),
      )
      .execute();
  }
}

interface RosterFilter {
  institutionId: number;
  search?: string;
  group?: string;
}

function filtered(db: Executor, filter: RosterFilter) {
  let query = db
    .selectFrom('roster_students')
    .where('roster_students.institution_id', '=', filter.institutionId);
  if (filter.group !== undefined) query = query.where('roster_students.group_name', '=', filter.group);
  if (filter.search) {
    const pattern = containsPattern(filter.search);
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`lower(roster_students.name) like ${pattern} escape '\\'`,
        sql<boolean>`roster_students.email like ${pattern} escape '\\'`,
      ]),
    );
  }
  return query;
}

export async function countStudents(db: Executor, filter: RosterFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** A page of students by name, with when each was last invited and last answered. */
export function listStudents(db: Executor, filter: RosterFilter, page: { offset: number; limit: number }) {
  return filtered(db, filter)
    .leftJoin('dashboard_students', (join) =>
      join
        .onRef('dashboard_students.institution_id', '=', 'roster_students.institution_id')
        .onRef('dashboard_students.email', '=', 'roster_students.email'),
    )
    .select([
      'roster_students.id',
      'roster_students.left_at',
      'roster_students.name',
      'roster_students.email',
      'roster_students.group_name',
      'roster_students.last_invited_at',
      'dashboard_students.latest_at',
    ])
    .orderBy('roster_students.name')
    .orderBy('roster_students.id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

/**
 * Marks as left, at `at`, the institution's students still on the roster whose address is not in
 * `keep`. Returns how many.
 */
export async function markMissingAsLeft(
  db: Executor,
  institutionId: number,
  keep: ReadonlySet<string>,
  at: number,
): Promise<number> {
  const active = await db
    .selectFrom('roster_students')
    .select(['id', 'email'])
    .where('institution_id', '=', institutionId)
    .where('left_at', 'is', null)
    .execute();
  const missing = active.filter((row) => !keep.has(row.email)).map((row) => row.id);
  for (let start = 0; start < missing.length; start += BATCH) {
    await db
      .updateTable('roster_students')
      .set({ left_at: at, updated_at: at })
      .where('id', 'in', missing.slice(start, start + BATCH))
      .execute();
  }
  return missing.length;
}

/** One student of the institution's roster, as the roster list shows them. */
export function findStudent(db: Executor, institutionId: number, studentId: number) {
  return db
    .selectFrom('roster_students')
    .leftJoin('dashboard_students', (join) =>
      join
        .onRef('dashboard_students.institution_id', '=', 'roster_students.institution_id')
        .onRef('dashboard_students.email', '=', 'roster_students.email'),
    )
    .select([
      'roster_students.id',
      'roster_students.left_at',
      'roster_students.name',
      'roster_students.email',
      'roster_students.group_name',
      'roster_students.last_invited_at',
      'dashboard_students.latest_at',
    ])
    .where('roster_students.institution_id', '=', institutionId)
    .where('roster_students.id', '=', studentId)
    .executeTakeFirst();
}

export async function setLeft(db: Executor, studentId: number, leftAt: number | null, at: number) {
  await db
    .updateTable('roster_students')
    .set({ left_at: leftAt, updated_at: at })
    .where('id', '=', studentId)
    .execute();
}

export async function listGroups(db: Executor, institutionId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('roster_students')
    .select('group_name')
    .distinct()
    .where('institution_id', '=', institutionId)
    .where('group_name', 'is not', null)
    .where('left_at', 'is', null)
    .orderBy('group_name')
    .execute();
  return rows.map((row) => row.group_name as string);
}
