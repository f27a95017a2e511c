import type { Executor } from '../db/executor';
import type { NewUser } from '../db/types';

export function usersByEmail(db: Executor, emails: readonly string[]) {
  return db.selectFrom('users').select(['id', 'password_hash']).where('email', 'in', emails).execute();
}

export async function setPasswordHash(db: Executor, userIds: number[], passwordHash: string) {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', 'in', userIds).execute();
}

/** Accounts made directly, without registration (the demo's logins). */
export async function insertUsers(db: Executor, users: NewUser[]) {
  await db.insertInto('users').values(users).execute();
}

/** The institution's first student account, if any. */
export function firstStudent(db: Executor, institutionId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'name'])
    .where('institution_id', '=', institutionId)
    .where('role', '=', 'student')
    .orderBy('id')
    .executeTakeFirst();
}

/** The institution's first admin account, if any. */
export function firstAdmin(db: Executor, institutionId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'name'])
    .where('institution_id', '=', institutionId)
    .where('role', '=', 'institution_admin')
    .orderBy('id')
    .executeTakeFirst();
}

export function elevatedCasesOldestFirst(db: Executor, institutionId: number) {
  return db
    .selectFrom('cases')
    .select('id')
    .where('institution_id', '=', institutionId)
    .where('tier', '=', 'elevated')
    .orderBy('first_submitted_at')
    .orderBy('id')
    .execute();
}
