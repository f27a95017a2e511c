import crypto from 'node:crypto';
import type { ErasureCounts } from '../../../common/schemas/records';
import type { Executor } from '../../db/executor';
import { type AuditActor, recordAudit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { holdOf } from '../legal-holds';
import { openRequestOf, relabelRequests } from '../records-requests';
import { deleteFootprint, forgetInAuditLog, recountRollups } from './erase';
import { countFootprint, footprintOf } from './footprint';

/**
 * The student's hashed identifier: keyed, so nobody holding the log can test an address against
 * it, and the same for the same student, so a later question ("was this student erased?") can
 * be answered by whoever holds the key.
 */
export function erasedStudentId(key: Buffer, institutionId: number, email: string): string {
  return crypto.createHmac('sha256', key).update(`${institutionId}\n${email}`).digest('hex');
}

type Block = 'legal_hold' | 'records_request' | null;

async function blockOf(db: Executor, institutionId: number, email: string): Promise<Block> {
  if (await holdOf(db, institutionId, email)) return 'legal_hold';
  if (await openRequestOf(db, institutionId, email)) return 'records_request';
  return null;
}

const REFUSALS = {
  legal_hold: new AppError(
    'LEGAL_HOLD',
    "This student's data is under a legal hold and cannot be erased. Lift the hold first.",
  ),
  records_request: new AppError(
    'RECORDS_REQUEST_OPEN',
    'This student has an open records request. Mark it fulfilled before erasing their data.',
  ),
} as const;

interface Options {
  db: Executor;
  institutionId: number;
  actor: AuditActor;
  email: string;
  key: Buffer;
}

/** What erasing the student would remove, by kind, and whether anything stops it now. */
export async function previewErasure({ db, institutionId, actor, email, key }: Options) {
  const footprint = await footprintOf(db, institutionId, email);
  const counts = await countFootprint(db, institutionId, email, footprint);
  await recordAudit(db, actor, {
    action: 'erasure.preview',
    subject: { type: 'erased_student', id: erasedStudentId(key, institutionId, email) },
  });
  return { success: true as const, counts, blocked_by: await blockOf(db, institutionId, email) };
}

const total = (counts: ErasureCounts) => Object.values(counts).reduce((sum, count) => sum + count, 0);

/**
 * Erases every identifiable row of the student, recounts the dashboard without them, and
 * records that it happened (who, when, the hashed identifier, how many rows of each kind),
 * all in the caller's transaction. Refused under a legal hold or an open records request.
 */
export async function eraseStudent({ db, institutionId, actor, email, key }: Options) {
  const block = await blockOf(db, institutionId, email);
  if (block) throw REFUSALS[block];
  const hashed = erasedStudentId(key, institutionId, email);
  const footprint = await footprintOf(db, institutionId, email);
  const counts = await countFootprint(db, institutionId, email, footprint);
  await deleteFootprint(db, institutionId, email, footprint);
  const label = `erased student ${hashed.slice(0, 16)}`;
  await forgetInAuditLog(db, institutionId, email, footprint, label);
  await relabelRequests(db, institutionId, email, label);
  // The dashboard counts registered students as well as check-ins.
  if (footprint.submissionIds.length > 0 || footprint.userIds.length > 0)
    await recountRollups(db, institutionId);
  await recordAudit(db, actor, {
    action: 'student.erase',
    subject: { type: 'erased_student', id: hashed },
    detail: { ...counts },
  });
  return {
    success: true as const,
    message:
      total(counts) === 0
        ? 'Nothing was held about this student; the erasure is recorded.'
        : "The student's data is erased.",
    counts,
  };
}
