import type { LegalHold, PlaceLegalHold } from '../../../common/schemas/retention';
import type { Executor } from '../../db/executor';
import { type AuditActor, recordAudit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { now } from '../../lib/time';
import * as queries from './queries';

const toHold = (row: Awaited<ReturnType<typeof queries.listHolds>>[number]): LegalHold => ({
  id: row.id,
  email: row.email,
  reason: row.reason,
  placed_by: row.placed_by ?? null,
  placed_at: new Date(Number(row.placed_at)).toISOString(),
});

/** The holds, newest first. Reading them reads students' addresses: audited. */
export async function listLegalHolds(options: { db: Executor; institutionId: number; actor: AuditActor }) {
  const rows = await queries.listHolds(options.db, options.institutionId);
  await recordAudit(options.db, options.actor, { action: 'legal_hold.list' });
  return { success: true as const, holds: rows.map(toHold) };
}

/**
 * Places a hold: from now on no purge or erasure touches the student's data. A student may be
 * held before any answer of theirs arrives (a request that comes first). One hold per student.
 */
export async function placeLegalHold(options: {
  db: Executor;
  institutionId: number;
  actor: AuditActor & { userId: number };
  request: PlaceLegalHold;
}) {
  const { db, institutionId, actor, request } = options;
  const id = await queries.insertHold(db, {
    institution_id: institutionId,
    email: request.email,
    reason: request.reason,
    placed_by: actor.userId,
    placed_at: now(),
  });
  if (id === undefined) throw new AppError('CONFLICT', 'This student is already under a legal hold');
  await recordAudit(db, actor, {
    action: 'legal_hold.place',
    subject: { type: 'legal_hold', id },
    detail: { email: request.email, reason: request.reason },
  });
  const hold = (await queries.listHolds(db, institutionId)).find((row) => row.id === id);
  if (!hold) throw new Error(`placeLegalHold: hold ${id} vanished`);
  return { success: true as const, hold: toHold(hold) };
}

/** Lifts a hold; the student's data then follows the retention periods again. */
export async function liftLegalHold(options: {
  db: Executor;
  institutionId: number;
  actor: AuditActor;
  id: number;
  reason: string;
}) {
  const lifted = await queries.deleteHold(options.db, options.institutionId, options.id);
  if (!lifted) throw new AppError('NOT_FOUND', 'Legal hold not found');
  await recordAudit(options.db, options.actor, {
    action: 'legal_hold.lift',
    subject: { type: 'legal_hold', id: lifted.id },
    detail: { email: lifted.email, reason: options.reason },
  });
  return { success: true as const, message: 'The legal hold is lifted.' };
}
