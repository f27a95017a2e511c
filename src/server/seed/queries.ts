import type { Updateable } from 'kysely';
import type { Executor } from '../db/executor';
import type { CasesTable, NewUser } from '../db/types';

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

/** The institution's open elevated cases, the longest waiting first. */
export function elevatedCasesOldestFirst(db: Executor, institutionId: number) {
  return db
    .selectFrom('cases')
    .select('id')
    .where('institution_id', '=', institutionId)
    .where('tier', '=', 'elevated')
    .where('resolved_at', 'is', null)
    .orderBy('first_submitted_at')
    .orderBy('id')
    .execute();
}

/** A case of the demo, as the seed rewrites its history. */
export function seededCase(db: Executor, caseId: number) {
  return db
    .selectFrom('cases')
    .select(['id', 'tier', 'respondent_id', 'first_submitted_at', 'outcome'])
    .where('id', '=', caseId)
    .executeTakeFirst();
}

/** The demo's open case of a check-in just seeded (the one it opened or joined). */
export function openCaseOfSubmission(db: Executor, institutionId: number, submittedAt: number) {
  return db
    .selectFrom('cases')
    .select('id')
    .where('institution_id', '=', institutionId)
    .where('resolved_at', 'is', null)
    .where('first_submitted_at', '=', submittedAt)
    .executeTakeFirst();
}

export async function backdateCase(db: Executor, caseId: number, changes: Updateable<CasesTable>) {
  await db.updateTable('cases').set(changes).where('id', '=', caseId).execute();
}

/** The events written when the case opened, moved to the check-in that opened it. */
export async function backdateCaseEvents(db: Executor, caseId: number, at: number) {
  await db.updateTable('case_events').set({ at }).where('case_id', '=', caseId).execute();
}

/** The case's alert mail, queued and sent at these past times (so the worker does not send it now). */
export async function markAlertsSent(
  db: Executor,
  caseId: number,
  times: { queuedAt: number; sentAt: number },
) {
  const mailIds = db
    .selectFrom('case_mails')
    .select('mail_id')
    .where('case_id', '=', caseId)
    .where('kind', '=', 'alert');
  await db
    .updateTable('mail_outbox')
    .set({
      status: 'sent',
      created_at: times.queuedAt,
      next_attempt_at: times.queuedAt,
      sent_at: times.sentAt,
    })
    .where('id', 'in', mailIds)
    .execute();
}
