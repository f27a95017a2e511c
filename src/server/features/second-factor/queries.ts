import { sql } from 'kysely';
import type { Executor } from '../../db/executor';

export function findTotp(db: Executor, userId: number) {
  return db
    .selectFrom('totp_credentials')
    .select([
      'secret_sealed',
      'confirmed_at',
      'last_time_step',
      'replacement_secret_sealed',
      'replacement_started_at',
    ])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Starts (or restarts) an enrolment that is not confirmed yet; never replaces a confirmed app. */
export async function putPendingTotp(db: Executor, userId: number, secretSealed: string, at: number) {
  await db
    .deleteFrom('totp_credentials')
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is', null)
    .execute();
  await db
    .insertInto('totp_credentials')
    .values({
      user_id: userId,
      secret_sealed: secretSealed,
      confirmed_at: null,
      last_time_step: null,
      created_at: at,
    })
    .execute();
}

/**
 * Records the step of an accepted code, only if it is newer than the last one: of two requests
 * racing with the same code, one wins. Returns whether this one did.
 */
export async function claimTimeStep(
  db: Executor,
  userId: number,
  step: number,
  confirmAt: number | null,
): Promise<boolean> {
  const result = await db
    .updateTable('totp_credentials')
    .set({
      last_time_step: step,
      ...(confirmAt === null ? {} : { confirmed_at: sql<number>`coalesce(confirmed_at, ${confirmAt})` }),
    })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_time_step', 'is', null), eb('last_time_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A new app waits beside the confirmed one, which keeps working; a newer start replaces it. */
export async function putReplacementTotp(db: Executor, userId: number, secretSealed: string, at: number) {
  await db
    .updateTable('totp_credentials')
    .set({ replacement_secret_sealed: secretSealed, replacement_started_at: at })
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .execute();
}

/**
 * The waiting app becomes the app and the old one stops working, only if the replacement is still
 * the one whose code was checked: of two confirmations racing, or a confirmation racing a new
 * start, one wins. Returns whether this one did.
 */
export async function swapInReplacementTotp(
  db: Executor,
  userId: number,
  replacement: { secretSealed: string; step: number; at: number },
): Promise<boolean> {
  const result = await db
    .updateTable('totp_credentials')
    .set({
      secret_sealed: replacement.secretSealed,
      last_time_step: replacement.step,
      confirmed_at: replacement.at,
      replacement_secret_sealed: null,
      replacement_started_at: null,
    })
    .where('user_id', '=', userId)
    .where('replacement_secret_sealed', '=', replacement.secretSealed)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function replaceRecoveryCodes(db: Executor, userId: number, hashes: string[], at: number) {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null, created_at: at })))
    .execute();
}

/** Spends a recovery code: true once per code, whoever asks at the same moment. */
export async function spendRecoveryCode(db: Executor, userId: number, codeHash: string, at: number) {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countUnusedRecoveryCodes(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** A staff member of the institution, by id; undefined for anyone else. */
export function findInstitutionMember(db: Executor, institutionId: number, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'role'])
    .where('id', '=', userId)
    .where('institution_id', '=', institutionId)
    .executeTakeFirst();
}

/** Any account by its address, removed members aside, for the operator's reset. */
export function findStaffByEmail(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'role', 'institution_id'])
    .where('email', '=', email)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
}

export async function deleteSecondFactors(db: Executor, userId: number) {
  await db.deleteFrom('totp_credentials').where('user_id', '=', userId).execute();
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('passkeys').where('user_id', '=', userId).execute();
}
