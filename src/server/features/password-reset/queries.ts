import { sql } from 'kysely';
import type { Executor } from '../../db/executor';

export async function insertReset(
  db: Executor,
  reset: { userId: number; tokenHash: string; at: number; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({
      user_id: reset.userId,
      token_hash: reset.tokenHash,
      created_at: reset.at,
      expires_at: reset.expiresAt,
      used_at: null,
    })
    .execute();
}

/** A link by its token's hash, with the account it is for. */
export function findReset(db: Executor, tokenHash: string) {
  return db
    .selectFrom('password_resets')
    .innerJoin('users', 'users.id', 'password_resets.user_id')
    .leftJoin('institutions', 'institutions.id', 'users.institution_id')
    .select([
      'password_resets.id',
      'password_resets.expires_at',
      'password_resets.used_at',
      'users.id as user_id',
      'users.email',
      'users.name',
      'users.role',
      'users.removed_at',
      'users.institution_id',
      'institutions.name as institution_name',
    ])
    .where('password_resets.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Uses the link up, if it is still usable at `at`: one statement, so of two requests with the
 * same link only one changes the password. Returns whether this one did.
 */
export async function useReset(db: Executor, id: number, at: number): Promise<boolean> {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Every other link of the account stops working: the password it was sent to replace is gone. */
export async function retireResetsOf(db: Executor, userId: number, at: number): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

export async function setPassword(db: Executor, userId: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

/** Forgets every limit counter whose key starts with `prefix` (compared as text on both databases). */
export async function clearLimitsStartingWith(db: Executor, prefix: string): Promise<void> {
  await db
    .deleteFrom('limit_counters')
    .where(sql<string>`substr(key, 1, ${prefix.length})`, '=', prefix)
    .execute();
}
