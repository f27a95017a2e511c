import { sql } from 'kysely';
import type { Executor } from '../../db/executor';
import type { NewUser, PendingRegistrationsTable } from '../../db/types';

function accounts(db: Executor) {
  return db
    .selectFrom('users')
    .leftJoin('institutions', 'institutions.id', 'users.institution_id')
    .select([
      'users.id',
      'users.email',
      'users.name',
      'users.role',
      'users.password_hash',
      'users.institution_id',
      'users.removed_at',
      'users.language',
      'institutions.name as institution_name',
      'institutions.time_zone as institution_time_zone',
    ]);
}

export function findUserByEmail(db: Executor, email: string) {
  return accounts(db).where('users.email', '=', email).executeTakeFirst();
}

export function findUserById(db: Executor, id: number) {
  return accounts(db).where('users.id', '=', id).executeTakeFirst();
}

export async function insertUser(db: Executor, user: NewUser): Promise<number> {
  const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findInstitutionByName(db: Executor, name: string) {
  return db
    .selectFrom('institutions')
    .select(['id', 'name'])
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
}

/**
 * A link respondent who registers later is the same student: attach the account, and her own
 * name replaces whatever an unproven sender of that address may have claimed.
 */
export async function linkRespondentToUser(
  db: Executor,
  institutionId: number,
  email: string,
  account: { id: number; name: string },
) {
  await db
    .updateTable('respondents')
    .set({ user_id: account.id, name: account.name })
    .where('institution_id', '=', institutionId)
    .where('email', '=', email)
    .execute();
}

export async function insertPendingRegistration(
  db: Executor,
  registration: Omit<PendingRegistrationsTable, 'id'>,
) {
  await db.insertInto('pending_registrations').values(registration).execute();
}

export async function deleteLapsedRegistrations(db: Executor, before: number) {
  await db.deleteFrom('pending_registrations').where('created_at', '<', before).execute();
}

export function newestPendingRegistration(
  db: Executor,
  proof: { visitorHash: string; email: string; since: number },
) {
  return db
    .selectFrom('pending_registrations')
    .select(['institution_id', 'name', 'password_hash', 'language'])
    .where('email', '=', proof.email)
    .where('visitor_hash', '=', proof.visitorHash)
    .where('created_at', '>=', proof.since)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function deletePendingRegistrationsOf(db: Executor, email: string) {
  await db.deleteFrom('pending_registrations').where('email', '=', email).execute();
}
