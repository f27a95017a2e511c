import crypto from 'node:crypto';
import type { Executor } from '../../db/executor';
import { reusableQuery } from '../../db/reusable-query';
import type { Role } from '../../db/types';
import { HOUR, MINUTE, now } from '../time';

export const SESSION_COOKIE = 'sessionid';
export const IDLE_TIMEOUT = 30 * MINUTE;
export const ABSOLUTE_TIMEOUT = 12 * HOUR;
/** Refreshing last-seen on every request would turn every read into a write. */
const TOUCH_INTERVAL = MINUTE;

export interface SessionUser {
  id: number;
  email: string;
  name: string;
  role: Role;
  institutionId: number | null;
  institutionName: string | null;
}

export interface Session {
  idHash: string;
  user: SessionUser;
}

export function hashSessionId(sessionId: string): string {
  return crypto.createHash('sha256').update(sessionId).digest('hex');
}

/** Creates a session and returns the cookie value: 256 random bits; only its hash is stored. */
export async function createSession(
  db: Executor,
  userId: number,
): Promise<{ sessionId: string; idHash: string }> {
  const sessionId = crypto.randomBytes(32).toString('base64url');
  const idHash = hashSessionId(sessionId);
  const at = now();
  await db
    .insertInto('sessions')
    .values({ id_hash: idHash, user_id: userId, created_at: at, last_seen_at: at })
    .execute();
  return { sessionId, idHash };
}

const sessionQuery = reusableQuery((db, session: { idHash: string }) =>
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

const touchSessionQuery = reusableQuery((db, session: { idHash: string; at: number }) =>
  db.updateTable('sessions').set({ last_seen_at: session.at }).where('id_hash', '=', session.idHash),
);

export async function findSession(db: Executor, sessionId: string): Promise<Session | null> {
  if (sessionId.length > 100) return null;
  const idHash = hashSessionId(sessionId);
  const {
    rows: [row],
  } = await sessionQuery(db, { idHash });
  if (!row) return null;
  const at = now();
  if (at - row.last_seen_at > IDLE_TIMEOUT || at - row.created_at > ABSOLUTE_TIMEOUT) {
    await deleteSession(db, idHash);
    return null;
  }
  if (at - row.last_seen_at > TOUCH_INTERVAL) {
    await touchSessionQuery(db, { idHash, at });
  }
  return {
    idHash,
    user: {
      id: row.id,
      email: row.email,
      name: row.name,
      role: row.role,
      institutionId: row.institution_id,
      institutionName: row.institution_name,
    },
  };
}

export async function deleteSession(db: Executor, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}
