import type { Executor } from '../../db/executor';
import { reusableQuery } from '../../db/reusable-query';

export async function insertSession(
  db: Executor,
  session: { idHash: string; userId: number; at: number },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id_hash: session.idHash,
      user_id: session.userId,
      created_at: session.at,
      last_seen_at: session.at,
    })
    .execute();
}

const sessionWithUserQuery = reusableQuery((db, session: { idHash: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('institutions', 'institutions.id', 'users.institution_id')
    .select([
      'sessions.created_at',
      'sessions.last_seen_at',
      'users.id',
      'users.email',
      'users.name',
      'users.role',
      'users.institution_id',
      'institutions.name as institution_name',
    ])
    .where('sessions.id_hash', '=', session.idHash),
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
