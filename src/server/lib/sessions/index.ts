import crypto from 'node:crypto';
import type { Executor } from '../../db/executor';
import type { Role, SignInMethod } from '../../db/types';
import { isSingleFactor } from '../guards';
import { HOUR, MINUTE, now } from '../time';
import * as queries from './queries';

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
  /** The institution's time zone as stored (IANA name), in which staff read every time. */
  institutionTimeZone: string | null;
  /** The language they chose for the product's mail; null for none (English). */
  language: string | null;
  /** How this session was signed in (design section 11). */
  signInMethod: SignInMethod;
  /** Whether the user has a second factor set up (an authenticator app). */
  hasSecondFactor: boolean;
}

export interface Session {
  idHash: string;
  user: SessionUser;
  /** When a second factor was last proven in this session; null when none ever was. */
  factorProvenAt?: number | null;
}

function hashSessionId(sessionId: string): string {
  return crypto.createHash('sha256').update(sessionId).digest('hex');
}

/** Creates a session and returns the cookie value: 256 random bits; only its hash is stored. */
export async function createSession(
  db: Executor,
  userId: number,
  signInMethod: SignInMethod = 'password',
): Promise<{ sessionId: string; idHash: string }> {
  const sessionId = crypto.randomBytes(32).toString('base64url');
  const idHash = hashSessionId(sessionId);
  const at = now();
  // A sign-in with more than one factor proved a second factor just now.
  const factorProvenAt = isSingleFactor(signInMethod) ? null : at;
  await queries.insertSession(db, { idHash, userId, at, signInMethod, factorProvenAt });
  return { sessionId, idHash };
}

/**
 * Replaces a session with a stronger one once the user proved more (a second factor): a new id,
 * so that a session id seen before the proof is worth nothing after it.
 */
export async function strengthenSession(
  db: Executor,
  previous: Session,
  signInMethod: SignInMethod,
): Promise<{ sessionId: string; idHash: string; user: SessionUser }> {
  await deleteSession(db, previous.idHash);
  const created = await createSession(db, previous.user.id, signInMethod);
  return { ...created, user: { ...previous.user, signInMethod, hasSecondFactor: true } };
}

export { deleteSessionsOfUser, userHasSecondFactor } from './queries';

/** The staff member proved a second factor again in this session (a step-up). */
export async function markFactorProven(db: Executor, idHash: string, at = now()): Promise<void> {
  await queries.setFactorProven(db, idHash, at);
}

/** The one expiry rule: idle for too long, or open for too long, whichever comes first. */
function hasExpired(times: { created_at: number; last_seen_at: number }, at: number): boolean {
  return at - times.last_seen_at > IDLE_TIMEOUT || at - times.created_at > ABSOLUTE_TIMEOUT;
}

export async function findSession(db: Executor, sessionId: string): Promise<Session | null> {
  if (sessionId.length > 100) return null;
  const idHash = hashSessionId(sessionId);
  const row = await queries.sessionWithUser(db, idHash);
  if (!row) return null;
  const at = now();
  if (hasExpired(row, at)) {
    await deleteSession(db, idHash);
    return null;
  }
  if (at - row.last_seen_at > TOUCH_INTERVAL) await queries.touchSession(db, idHash, at);
  return {
    idHash,
    factorProvenAt: row.factor_proven_at === null ? null : Number(row.factor_proven_at),
    user: {
      id: row.id,
      email: row.email,
      name: row.name,
      role: row.role,
      institutionId: row.institution_id,
      institutionName: row.institution_name,
      institutionTimeZone: row.institution_time_zone,
      language: row.language,
      signInMethod: row.sign_in_method,
      hasSecondFactor: Boolean(row.has_second_factor),
    },
  };
}

/** Whether a session still stands, without refreshing it: an open dashboard tab is not activity. */
export async function isSessionLive(db: Executor, idHash: string, at = now()): Promise<boolean> {
  const times = await queries.sessionTimes(db, idHash);
  return times !== undefined && !hasExpired(times, at);
}

export async function deleteSession(db: Executor, idHash: string): Promise<void> {
  await queries.deleteSession(db, idHash);
}

/** The user's sessions that still stand (expired ones are left to the sweep), newest use first. */
export async function liveSessionsOf(db: Executor, userId: number, at = now()) {
  const rows = await queries.sessionsOfUser(db, userId);
  return rows
    .map((row) => ({ ...row, created_at: Number(row.created_at), last_seen_at: Number(row.last_seen_at) }))
    .filter((row) => !hasExpired(row, at))
    .sort((a, b) => b.last_seen_at - a.last_seen_at);
}

/** Ends every session of the user but `keepIdHash`; answers how many ended. */
export async function deleteOtherSessions(db: Executor, userId: number, keepIdHash: string): Promise<number> {
  return queries.deleteOtherSessions(db, userId, keepIdHash);
}
