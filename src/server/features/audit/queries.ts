import { type SelectQueryBuilder, sql } from 'kysely';
import type { Executor } from '../../db/executor';
import { containsPattern } from '../../db/like';
import type { Database } from '../../db/types';

export interface AuditSelection {
  institutionId: number;
  actor?: string | undefined;
  action?: string | undefined;
  /** Text in the name or email of the student an entry is about (a case's, a history's). */
  student?: string | undefined;
  /** Epoch milliseconds, `from` included and `to` excluded. */
  from?: number | undefined;
  to?: number | undefined;
}

type Joined = Database & {
  actor: Database['users'];
  subject_case: Database['cases'];
  subject_student: Database['respondents'];
  subject_user: Database['users'];
};

/**
 * The log joined to the people its entries name, all of the same institution: the actor; the
 * student (respondent) a case or a history read is about; a user an entry concerns (a staff
 * member whose role changed). Ids are stored as text, so they are compared as text.
 */
function joined(db: Executor, institutionId: number) {
  return db
    .selectFrom('audit_log')
    .leftJoin('users as actor', (join) =>
      join.onRef('actor.id', '=', 'audit_log.actor_user_id').on('actor.institution_id', '=', institutionId),
    )
    .leftJoin('cases as subject_case', (join) =>
      join
        .on('audit_log.subject_type', '=', 'case')
        .on(sql`cast(subject_case.id as text)`, '=', sql.ref('audit_log.subject_id'))
        .on('subject_case.institution_id', '=', institutionId),
    )
    .leftJoin('respondents as subject_student', (join) =>
      join
        .on((eb) =>
          eb.or([
            eb('subject_student.id', '=', eb.ref('subject_case.respondent_id')),
            eb.and([
              eb('audit_log.subject_type', '=', 'student'),
              eb(sql`cast(subject_student.id as text)`, '=', eb.ref('audit_log.subject_id')),
            ]),
          ]),
        )
        .on('subject_student.institution_id', '=', institutionId),
    )
    .leftJoin('users as subject_user', (join) =>
      join
        .on('audit_log.subject_type', '=', 'user')
        .on(sql`cast(subject_user.id as text)`, '=', sql.ref('audit_log.subject_id'))
        .on('subject_user.institution_id', '=', institutionId),
    );
}

function filtered<O>(
  query: SelectQueryBuilder<
    Joined,
    'audit_log' | 'actor' | 'subject_case' | 'subject_student' | 'subject_user',
    O
  >,
  selection: AuditSelection,
) {
  let q = query.where('audit_log.institution_id', '=', selection.institutionId);
  if (selection.actor) q = q.where('audit_log.actor_email', '=', selection.actor.toLowerCase());
  const action = selection.action;
  if (action)
    q = q.where((eb) =>
      eb.or([eb('audit_log.action', '=', action), eb('audit_log.action', 'like', `${action}.%`)]),
    );
  const student = selection.student;
  if (student) {
    const pattern = sql<string>`${containsPattern(student)} escape '\\'`;
    q = q.where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['subject_student.name']), 'like', pattern),
        eb(eb.fn('lower', ['subject_student.email']), 'like', pattern),
      ]),
    );
  }
  if (selection.from !== undefined) q = q.where('audit_log.at', '>=', selection.from);
  if (selection.to !== undefined) q = q.where('audit_log.at', '<', selection.to);
  return q;
}

export async function countEntries(db: Executor, selection: AuditSelection): Promise<number> {
  const row = await filtered(joined(db, selection.institutionId), selection)
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Newest first; the id breaks ties between entries of the same millisecond. `before` continues
 * after the last entry read, so rows written meanwhile never shift a page.
 */
export function entriesPage(
  db: Executor,
  selection: AuditSelection,
  page: { offset?: number; before?: { at: number; id: number }; limit: number },
) {
  let q = filtered(joined(db, selection.institutionId), selection);
  const before = page.before;
  if (before)
    q = q.where((eb) =>
      eb.or([
        eb('audit_log.at', '<', before.at),
        eb.and([eb('audit_log.at', '=', before.at), eb('audit_log.id', '<', before.id)]),
      ]),
    );
  return q
    .selectAll('audit_log')
    .select([
      'actor.name as actor_name',
      'subject_student.name as student_name',
      'subject_user.name as user_name',
      'subject_user.role as user_role',
    ])
    .orderBy('audit_log.at', 'desc')
    .orderBy('audit_log.id', 'desc')
    .limit(page.limit)
    .offset(page.offset ?? 0)
    .execute();
}
