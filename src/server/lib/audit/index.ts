import type { FastifyRequest } from 'fastify';
import type { Executor } from '../../db/executor';
import type { SessionUser } from '../sessions';
import { now } from '../time';
import { insertAuditEntry, lastIdenticalEntryAt } from './queries';

/**
 * The audit log (design section 9): append-only, one row for every read of identifiable student
 * data and every change, with who, when and from which address. Written in the transaction of
 * the change it records, so a change and its record are kept together or not at all.
 */

/** Who acted: a staff member from a request, or the product itself (a job) with no user. */
export interface AuditActor {
  institutionId: number;
  userId: number | null;
  email: string | null;
  address: string | null;
}

export interface AuditEntry {
  /** What happened, as `thing.verb`: `case.read`, `case.acknowledge`, `staff.invite`, ... */
  action: string;
  subject?: { type: string; id: string | number };
  /** What a reader of the log needs to understand the entry later; never answers or notes. */
  detail?: Record<string, unknown>;
}

/** The signed-in staff member behind a request, at the address the request came from. */
export function auditActor(
  request: FastifyRequest,
  user: SessionUser & { institutionId: number },
): AuditActor {
  return { institutionId: user.institutionId, userId: user.id, email: user.email, address: request.ip };
}

export async function recordAudit(db: Executor, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await insertAuditEntry(db, {
    institution_id: actor.institutionId,
    actor_user_id: actor.userId,
    actor_email: actor.email,
    action: entry.action,
    subject_type: entry.subject?.type ?? null,
    subject_id: entry.subject === undefined ? null : String(entry.subject.id),
    detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
    address: actor.address,
    at: now(),
  });
}

/**
 * How long a reading is one reading: the same person reading the same thing (same action, subject
 * and detail, so the same answers) again within this is not recorded again. One screen load reads
 * a case more than once (the screen refetches as it mounts, after a change elsewhere, on a retry),
 * and the log must say "read it once at 14:05", not three times. A read after the window, or
 * of other answers, is a new row.
 */
export const READ_REPEAT_WINDOW_MS = 60_000;

/**
 * Records a read of identifiable data, once per READ_REPEAT_WINDOW_MS for the same reader and
 * thing. Two requests at the same instant may both record: a duplicate, never a missing row.
 */
export async function recordRead(db: Executor, actor: AuditActor, entry: AuditEntry): Promise<void> {
  const detail = entry.detail === undefined ? null : JSON.stringify(entry.detail);
  const at = now();
  const last = await lastIdenticalEntryAt(db, {
    institution_id: actor.institutionId,
    actor_user_id: actor.userId,
    action: entry.action,
    subject_type: entry.subject?.type ?? null,
    subject_id: entry.subject === undefined ? null : String(entry.subject.id),
    detail,
    since: at - READ_REPEAT_WINDOW_MS,
  });
  if (last !== undefined) return;
  await recordAudit(db, actor, entry);
}

/**
 * A user acting for themselves (signing in, proving a factor) from `address`; null for an
 * account of no institution (a superuser), whose actions have no institution's log to go to.
 */
export function selfActor(
  user: { id: number; email: string; institutionId: number | null },
  address: string | null,
): AuditActor | null {
  if (user.institutionId === null) return null;
  return { institutionId: user.institutionId, userId: user.id, email: user.email, address };
}

/** Records an entry when there is a log to record it in (see selfActor). */
export async function recordAuditIf(
  db: Executor,
  actor: AuditActor | null,
  entry: AuditEntry,
): Promise<void> {
  if (actor) await recordAudit(db, actor, entry);
}
