import type { Insertable } from 'kysely';
import type { Executor } from '../../db/executor';
import type { StaffInvitationsTable, StaffRole } from '../../db/types';

const STAFF: StaffRole[] = ['institution_admin', 'counsellor', 'viewer'];

/**
 * Staff changes of one institution happen one at a time: the row lock taken here (a no-op update
 * of the institution) makes "never remove the last admin" hold when two admins act at once.
 */
export async function lockInstitutionStaff(db: Executor, institutionId: number): Promise<void> {
  await db
    .updateTable('institutions')
    .set((eb) => ({ name: eb.ref('name') }))
    .where('id', '=', institutionId)
    .execute();
}

export function listMembers(db: Executor, institutionId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'role', 'created_at'])
    .where('institution_id', '=', institutionId)
    .where('role', 'in', STAFF)
    .where('removed_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export function findMember(db: Executor, institutionId: number, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'role', 'created_at'])
    .where('id', '=', userId)
    .where('institution_id', '=', institutionId)
    .where('role', 'in', STAFF)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
}

export async function countAdmins(db: Executor, institutionId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('institution_id', '=', institutionId)
    .where('role', '=', 'institution_admin')
    .where('removed_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function setRole(db: Executor, userId: number, role: StaffRole): Promise<void> {
  await db.updateTable('users').set({ role }).where('id', '=', userId).execute();
}

export async function markRemoved(db: Executor, userId: number, at: number): Promise<void> {
  await db.updateTable('users').set({ removed_at: at }).where('id', '=', userId).execute();
}

/** Ends every session of a user: a changed or removed member starts again from their new rights. */
export async function endSessionsOf(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

export function findUserByEmail(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'institution_id', 'role', 'removed_at', 'language'])
    .where('email', '=', email)
    .executeTakeFirst();
}

/** Invitations still waiting for an answer, whether or not their link has lapsed. */
export function listPendingInvitations(db: Executor, institutionId: number) {
  return db
    .selectFrom('staff_invitations')
    .selectAll()
    .where('institution_id', '=', institutionId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function findPendingInvitation(db: Executor, institutionId: number, id: number) {
  return db
    .selectFrom('staff_invitations')
    .selectAll()
    .where('id', '=', id)
    .where('institution_id', '=', institutionId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export function findPendingInvitationByEmail(db: Executor, institutionId: number, email: string) {
  return db
    .selectFrom('staff_invitations')
    .select('id')
    .where('institution_id', '=', institutionId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export function findInvitationByToken(db: Executor, tokenHash: string) {
  return db
    .selectFrom('staff_invitations')
    .innerJoin('institutions', 'institutions.id', 'staff_invitations.institution_id')
    .selectAll('staff_invitations')
    .select(['institutions.name as institution_name', 'institutions.time_zone as institution_time_zone'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function insertInvitation(
  db: Executor,
  invitation: Insertable<StaffInvitationsTable>,
): Promise<number> {
  const row = await db
    .insertInto('staff_invitations')
    .values(invitation)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A re-send: a new token and a new week; the old link stops working. */
export async function renewInvitation(
  db: Executor,
  id: number,
  renewal: { tokenHash: string; createdAt: number; expiresAt: number },
): Promise<void> {
  await db
    .updateTable('staff_invitations')
    .set({ token_hash: renewal.tokenHash, created_at: renewal.createdAt, expires_at: renewal.expiresAt })
    .where('id', '=', id)
    .execute();
}

export async function revokeInvitation(db: Executor, id: number, at: number): Promise<void> {
  await db.updateTable('staff_invitations').set({ revoked_at: at }).where('id', '=', id).execute();
}

/** Marks the invitation used, once: false when another request used it first. */
export async function acceptInvitation(db: Executor, id: number, at: number): Promise<boolean> {
  const result = await db
    .updateTable('staff_invitations')
    .set({ accepted_at: at })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertMember(
  db: Executor,
  member: {
    institutionId: number;
    email: string;
    name: string;
    role: StaffRole;
    passwordHash: string;
    at: number;
  },
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      institution_id: member.institutionId,
      email: member.email,
      name: member.name,
      role: member.role,
      password_hash: member.passwordHash,
      created_at: member.at,
      removed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A removed member invited again comes back with the new role and password. */
export async function restoreMember(
  db: Executor,
  userId: number,
  member: { name: string; role: StaffRole; passwordHash: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ name: member.name, role: member.role, password_hash: member.passwordHash, removed_at: null })
    .where('id', '=', userId)
    .execute();
}
