import type { ExpressionBuilder } from 'kysely';
import type { Executor } from '../../db/executor';
import { reusableQuery } from '../../db/reusable-query';
import type { Database, SignInMethod } from '../../db/types';

export async function insertSession(
  db: Executor,
  session: {
    idHash: string;
    userId: number;
    at: number;
    signInMethod: SignInMethod;
    factorProvenAt: number | null;
  },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id_hash: session.idHash,
      user_id: session.userId,
      created_at: session.at,
      last_seen_at: session.at,
      sign_in_method: session.signInMethod,
      factor_proven_at: session.factorProvenAt,
    })
    .execute();
}

export async function setFactorProven(db: Executor, idHash: string, at: number): Promise<void> {
  await db.updateTable('sessions').set({ factor_proven_at: at }).where('id_hash', '=', idHash).execute();
}

/** Whether the user has a second factor they can sign in with: a confirmed authenticator app or a passkey. */
function hasSecondFactorOf(eb: ExpressionBuilder<Database, 'users'>) {
  return eb
    .or([
      eb.exists(
        eb
          .selectFrom('totp_credentials')
          .select('totp_credentials.user_id')
          .whereRef('totp_credentials.user_id', '=', 'users.id')
          .where('totp_credentials.confirmed_at', 'is not', null),
      ),
      eb.exists(
        eb.selectFrom('passkeys').select('passkeys.id').whereRef('passkeys.user_id', '=', 'users.id'),
      ),
    ])
    .as('has_second_factor');
}

/** Whether a user has a second factor, for a sign-in that has not opened a session yet. */
export async function userHasSecondFactor(db: Executor, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select((eb) => hasSecondFactorOf(eb))
    .where('users.id', '=', userId)
    .executeTakeFirst();
  return Boolean(row?.has_second_factor);
}

const sessionWithUserQuery = reusableQuery((db, session: { idHash: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('institutions', 'institutions.id', 'users.institution_id')
    .select([
      'sessions.created_at',
      'sessions.last_seen_at',
      'sessions.sign_in_method',
      'sessions.factor_proven_at',
      'users.id',
      'users.email',
      'users.name',
      'users.role',
      'users.institution_id',
      'users.language',
      'institutions.name as institution_name',
      'institutions.time_zone as institution_time_zone',
      hasSecondFactorOf,
    ])
    .where('sessions.id_hash', '=', session.idHash)
    // A member whose access was removed is signed out everywhere, even by a session left behind.
    .where('users.removed_at', 'is', null),
);

/** The session and its user; undefined once the session is gone (logout, expiry). */
export async function sessionWithUser(db: Executor, idHash: string) {
  const { rows } = await sessionWithUserQuery(db, { idHash });
  return rows[0];
}

const touchSessionQuery = reusableQuery((db, session: { idHash: string; at: number }) =>
  db.updateTable('sessions').set({ last_seen_at: session.at }).where('id_hash', '=', session.idHash),
);

export async function touchSession(db: Executor, idHash: string, at: number): Promise<void> {
  await touchSessionQuery(db, { idHash, at });
}

/** When the session was created and last used; undefined once it is gone (logout, expiry). */
export function sessionTimes(db: Executor, idHash: string) {
  return db
    .selectFrom('sessions')
    .select(['created_at', 'last_seen_at'])
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
}

export async function deleteSession(db: Executor, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

/** Ends every session of a user (their second factor was reset: whoever holds one must sign in again). */
export async function deleteSessionsOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

export function sessionsOfUser(db: Executor, userId: number) {
  return db
    .selectFrom('sessions')
    .select(['id_hash', 'created_at', 'last_seen_at', 'sign_in_method'])
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteOtherSessions(db: Executor, userId: number, keepIdHash: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('id_hash', '!=', keepIdHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
