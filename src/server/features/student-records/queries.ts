import { sql } from 'kysely';
import type { Executor } from '../../db/executor';

/**
 * What the institution holds about one signed-in student, found as erasure finds it (their
 * account, and their address in lower case), so the download shows what an erasure removes.
 */

const lower = (column: string) => sql<string>`lower(${sql.ref(column)})`;

export function studentAccount(db: Executor, userId: number) {
  return db
    .selectFrom('users')
    .innerJoin('institutions', 'institutions.id', 'users.institution_id')
    .select([
      'users.id',
      'users.name',
      'users.email',
      'users.created_at',
      'users.institution_id',
      'institutions.name as institution',
    ])
    .where('users.id', '=', userId)
    .where('users.role', '=', 'student')
    .executeTakeFirst();
}

export function rosterEntry(db: Executor, institutionId: number, email: string) {
  return db
    .selectFrom('roster_students')
    .select(['id', 'name', 'group_name', 'created_at', 'last_invited_at', 'left_at'])
    .where('institution_id', '=', institutionId)
    .where(lower('email'), '=', email)
    .orderBy('id')
    .executeTakeFirst();
}

export function submissionsOf(db: Executor, institutionId: number, userId: number, email: string) {
  return db
    .selectFrom('submissions')
    .leftJoin('respondents', 'respondents.id', 'submissions.respondent_id')
    .select(['submissions.id', 'submissions.created_at', 'submissions.verified_at'])
    .where('submissions.institution_id', '=', institutionId)
    .where((eb) =>
      eb.or([
        eb('submissions.user_id', '=', userId),
        eb('respondents.user_id', '=', userId),
        eb(lower('submissions.school_email'), '=', email),
        eb(lower('respondents.email'), '=', email),
      ]),
    )
    .orderBy('submissions.created_at')
    .orderBy('submissions.id')
    .execute();
}

export function answersOf(db: Executor, submissionIds: number[]) {
  if (submissionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('answers')
    .select(['submission_id', 'question_text', 'question_type', 'category', 'value'])
    .where('submission_id', 'in', submissionIds)
    .orderBy('id')
    .execute();
}

export function instrumentAnswersOf(db: Executor, submissionIds: number[]) {
  if (submissionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('instrument_results')
    .select(['submission_id', 'instrument_id', 'scored_as', 'item_answers'])
    .where('submission_id', 'in', submissionIds)
    .orderBy('id')
    .execute();
}

export function draftsOf(db: Executor, userId: number) {
  return db
    .selectFrom('drafts')
    .select(['template_id', 'data', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('updated_at')
    .execute();
}

export function invitationsOf(db: Executor, rosterId: number) {
  return db
    .selectFrom('campaign_invitations')
    .select(['campaign_id', 'round', 'invited_at', 'expires_at', 'answered_at', 'reminders'])
    .where('student_id', '=', rosterId)
    .orderBy('invited_at')
    .orderBy('id')
    .execute();
}
