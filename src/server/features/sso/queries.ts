import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/executor';
import type { SsoAttemptsTable, SsoLinkedBy, SsoLinkGrantsTable, SsoSettingsTable } from '../../db/types';

/** A sign-in on its way through the provider, as stored. */
export type SsoAttempt = Selectable<SsoAttemptsTable>;

export function ssoSettingsRow(db: Executor, institutionId: number) {
  return db
    .selectFrom('sso_settings')
    .innerJoin('institutions', 'institutions.id', 'sso_settings.institution_id')
    .selectAll('sso_settings')
    .select('institutions.name as institution_name')
    .where('sso_settings.institution_id', '=', institutionId)
    .executeTakeFirst();
}

export async function saveSsoSettings(db: Executor, row: Insertable<SsoSettingsTable>) {
  const { institution_id, ...fields } = row;
  await db
    .insertInto('sso_settings')
    .values(row)
    .onConflict((oc) => oc.column('institution_id').doUpdateSet(fields))
    .execute();
}

/** The institution's last passed connection test; a newer one replaces it. */
export async function savePassedTest(
  db: Executor,
  test: { institutionId: number; issuer: string; clientId: string; at: number },
) {
  const fields = { issuer: test.issuer, client_id: test.clientId, passed_at: test.at };
  await db
    .insertInto('sso_connection_tests')
    .values({ institution_id: test.institutionId, ...fields })
    .onConflict((oc) => oc.column('institution_id').doUpdateSet(fields))
    .execute();
}

/** Withdraws the institution's pass of this issuer and client, if that is the one it holds. */
export async function forgetPassedTest(
  db: Executor,
  test: { institutionId: number; issuer: string; clientId: string },
) {
  await db
    .deleteFrom('sso_connection_tests')
    .where('institution_id', '=', test.institutionId)
    .where('issuer', '=', test.issuer)
    .where('client_id', '=', test.clientId)
    .execute();
}

export function passedTest(db: Executor, institutionId: number) {
  return db
    .selectFrom('sso_connection_tests')
    .select(['issuer', 'client_id', 'passed_at'])
    .where('institution_id', '=', institutionId)
    .executeTakeFirst();
}

export async function deleteSsoSettings(db: Executor, institutionId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('sso_settings')
    .where('institution_id', '=', institutionId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertAttempt(db: Executor, attempt: SsoAttemptsTable) {
  await db.insertInto('sso_attempts').values(attempt).execute();
}

/**
 * Takes an attempt out: the one statement that both reads and deletes it, so of two callbacks
 * with the same state (on one instance or two), only one gets it.
 */
export function takeAttempt(db: Executor, stateHash: string): Promise<SsoAttempt | undefined> {
  return db.deleteFrom('sso_attempts').where('state_hash', '=', stateHash).returningAll().executeTakeFirst();
}

export async function deleteExpiredAttempts(db: Executor, at: number) {
  await db.deleteFrom('sso_attempts').where('expires_at', '<', at).execute();
}

/** The account a provider's identity is linked to, if any. */
export async function linkedUserId(
  db: Executor,
  identity: { issuer: string; subject: string },
): Promise<number | null> {
  const row = await db
    .selectFrom('sso_identities')
    .select('user_id')
    .where('issuer', '=', identity.issuer)
    .where('subject', '=', identity.subject)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

export async function linkIdentity(
  db: Executor,
  link: { issuer: string; subject: string; userId: number; linkedBy: SsoLinkedBy; at: number },
) {
  await db
    .insertInto('sso_identities')
    .values({
      issuer: link.issuer,
      subject: link.subject,
      user_id: link.userId,
      linked_by: link.linkedBy,
      linked_at: link.at,
    })
    .execute();
}

/** Whether the account already has an identity of this provider linked. */
export async function hasIdentityAt(db: Executor, userId: number, issuer: string): Promise<boolean> {
  const row = await db
    .selectFrom('sso_identities')
    .select('subject')
    .where('user_id', '=', userId)
    .where('issuer', '=', issuer)
    .executeTakeFirst();
  return row !== undefined;
}

/** An admin's permission for a member's next sign-in to link; a new one replaces the old. */
export async function saveLinkGrant(db: Executor, grant: SsoLinkGrantsTable) {
  const { user_id, ...fields } = grant;
  await db
    .insertInto('sso_link_grants')
    .values(grant)
    .onConflict((oc) => oc.column('user_id').doUpdateSet(fields))
    .execute();
}

/** Takes out the member's permission: true when one was still good at `at` (an expired one goes too). */
export async function takeLinkGrant(db: Executor, userId: number, at: number): Promise<boolean> {
  const taken = await db
    .deleteFrom('sso_link_grants')
    .where('user_id', '=', userId)
    .returning('expires_at')
    .executeTakeFirst();
  return taken !== undefined && Number(taken.expires_at) > at;
}

/** When each member's permission to link stops, for those who have one still good. */
export async function linkGrantsOf(db: Executor, userIds: number[], at: number) {
  if (userIds.length === 0) return new Map<number, number>();
  const rows = await db
    .selectFrom('sso_link_grants')
    .select(['user_id', 'expires_at'])
    .where('user_id', 'in', userIds)
    .where('expires_at', '>', at)
    .execute();
  return new Map(rows.map((row) => [row.user_id, Number(row.expires_at)]));
}

/** The members who have an identity linked at any provider. */
export async function linkedUserIds(db: Executor, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('sso_identities')
    .select('user_id')
    .distinct()
    .where('user_id', 'in', userIds)
    .execute();
  return new Set(rows.map((row) => row.user_id));
}

/** Addresses of the institution's admins who still have access: told of every sign-on change. */
export async function activeAdminEmails(db: Executor, institutionId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('email')
    .where('institution_id', '=', institutionId)
    .where('role', '=', 'institution_admin')
    .where('removed_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.email);
}

/** A removed member's institution identities and any permission to link one: none outlives them. */
export async function forgetIdentitiesOf(db: Executor, userId: number) {
  await db.deleteFrom('sso_identities').where('user_id', '=', userId).execute();
  await db.deleteFrom('sso_link_grants').where('user_id', '=', userId).execute();
}
