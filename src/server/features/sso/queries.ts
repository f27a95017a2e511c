import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor';
import type { SsoAttemptsTable, SsoSettingsTable } from '../../db/types';

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

export async function saveSsoSettings(db: Executor, row: SsoSettingsTable) {
  const { institution_id, ...fields } = row;
  await db
    .insertInto('sso_settings')
    .values(row)
    .onConflict((oc) => oc.column('institution_id').doUpdateSet(fields))
    .execute();
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
