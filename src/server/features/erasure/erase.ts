import { sql } from 'kysely';
import { type Executor, isPostgres } from '../../db/executor';
import { containsPattern } from '../../db/like';
import { rebuildRollupsIn } from '../dashboard';
import type { Footprint } from './footprint';

const lower = (column: string) => sql<string>`lower(${sql.ref(column)})`;

/** Tables of a sign-in account that hold nothing but the account's own sign-in state. */
const ACCOUNT_TABLES = [
  'sessions',
  'password_resets',
  'sso_identities',
  'sso_link_grants',
  'stream_slots',
  'passkey_challenges',
  'recovery_codes',
  'totp_credentials',
  'passkeys',
] as const;

/**
 * Deletes the footprint of one student, children before parents. Cases go whole, notes and
 * history with them: a note names the student and the case row points at them, and the
 * follow-up figures count cases as they are, so they equal a recount afterwards.
 */
export async function deleteFootprint(
  trx: Executor,
  institutionId: number,
  email: string,
  footprint: Footprint,
): Promise<void> {
  const { userIds, respondentIds, submissionIds, caseIds, rosterIds, ownDomain } = footprint;
  if (caseIds.length > 0) {
    await trx.deleteFrom('case_events').where('case_id', 'in', caseIds).execute();
    await trx.deleteFrom('case_mails').where('case_id', 'in', caseIds).execute();
    await trx.deleteFrom('cases').where('id', 'in', caseIds).execute();
  }
  if (submissionIds.length > 0) {
    await trx.deleteFrom('case_events').where('submission_id', 'in', submissionIds).execute();
    await trx.deleteFrom('answers').where('submission_id', 'in', submissionIds).execute();
    await trx.deleteFrom('instrument_results').where('submission_id', 'in', submissionIds).execute();
    await trx.deleteFrom('submissions').where('id', 'in', submissionIds).execute();
  }
  if (respondentIds.length > 0)
    await trx.deleteFrom('respondents').where('id', 'in', respondentIds).execute();
  if (rosterIds.length > 0) {
    await trx.deleteFrom('campaign_invitations').where('student_id', 'in', rosterIds).execute();
    await trx.deleteFrom('roster_students').where('id', 'in', rosterIds).execute();
  }
  if (userIds.length > 0) {
    await trx.deleteFrom('drafts').where('user_id', 'in', userIds).execute();
    await trx.deleteFrom('sso_attempts').where('link_user_id', 'in', userIds).execute();
    for (const table of ACCOUNT_TABLES) await trx.deleteFrom(table).where('user_id', 'in', userIds).execute();
    await trx.deleteFrom('users').where('id', 'in', userIds).execute();
  }
  await trx
    .deleteFrom('pending_registrations')
    .where('institution_id', '=', institutionId)
    .where(lower('email'), '=', email)
    .execute();
  // Codes, proofs and mail carry an address and no institution: the institution's own domains
  // decide that they are its to delete.
  if (ownDomain) {
    await trx.deleteFrom('verification_codes').where(lower('email'), '=', email).execute();
    await trx.deleteFrom('address_proofs').where(lower('email'), '=', email).execute();
    await trx.deleteFrom('mail_outbox').where(lower('to_address'), '=', email).execute();
  }
}

/**
 * The audit log keeps what happened, not who it happened to: the student's address, as the
 * actor of their own entries or in any entry's detail, becomes their hashed identifier.
 */
export async function forgetInAuditLog(
  trx: Executor,
  institutionId: number,
  email: string,
  footprint: Footprint,
  label: string,
): Promise<void> {
  if (footprint.userIds.length > 0)
    await trx
      .updateTable('audit_log')
      .set({ actor_user_id: null, actor_email: label })
      .where('institution_id', '=', institutionId)
      .where('actor_user_id', 'in', footprint.userIds)
      .execute();
  await trx
    .updateTable('audit_log')
    .set({ actor_email: label })
    .where('institution_id', '=', institutionId)
    .where(lower('actor_email'), '=', email)
    .execute();
  const naming = await trx
    .selectFrom('audit_log')
    .select(['id', 'detail'])
    .where('institution_id', '=', institutionId)
    .where(lower('detail'), 'like', sql<string>`${containsPattern(email)} escape '\\'`)
    .execute();
  const pattern = new RegExp(email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
  for (const row of naming)
    await trx
      .updateTable('audit_log')
      .set({ detail: (row.detail ?? '').replace(pattern, label) })
      .where('id', '=', row.id)
      .execute();
}

/** The dashboard without the student: a recount of what is left, as the purge does. */
export async function recountRollups(trx: Executor, institutionId: number): Promise<void> {
  // See purgeInstitution: on PostgreSQL the recount holds off submissions until it commits.
  if (isPostgres(trx))
    await sql`lock table dashboard_students, dashboard_totals in share row exclusive mode`.execute(trx);
  await rebuildRollupsIn(trx, institutionId);
}
