import {
  type OpenRecordsRequest,
  RECORDS_REQUEST_DAYS,
  type RecordsRequest,
} from '../../../common/schemas/records';
import type { Executor } from '../../db/executor';
import { type AuditActor, recordAudit, recordRead } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { DAY } from '../../lib/time';
import * as queries from './queries';

const iso = (at: number) => new Date(Number(at)).toISOString();

function toRequest(row: queries.RequestRow, at: number): RecordsRequest {
  const due = Number(row.due_at);
  return {
    id: row.id,
    email: row.email,
    note: row.note,
    opened_by: row.opened_by ?? null,
    opened_at: iso(row.opened_at),
    due_at: iso(due),
    fulfilled_at: row.fulfilled_at === null ? null : iso(row.fulfilled_at),
    overdue: row.fulfilled_at === null && due < at,
  };
}

/** Every request, newest first; it lists students' addresses, so reading it is audited. */
export async function listRecordsRequests(options: {
  db: Executor;
  institutionId: number;
  actor: AuditActor;
  at: number;
}) {
  const rows = await queries.listRequests(options.db, options.institutionId);
  await recordRead(options.db, options.actor, { action: 'records_request.list' });
  return { success: true as const, requests: rows.map((row) => toRequest(row, options.at)) };
}

/** Opens a request due in 45 days. A student has one open request at a time. */
export async function openRecordsRequest(options: {
  db: Executor;
  institutionId: number;
  actor: AuditActor & { userId: number };
  request: OpenRecordsRequest;
  at: number;
}) {
  const { db, institutionId, actor, request, at } = options;
  if (await queries.openRequestOf(db, institutionId, request.email))
    throw new AppError('CONFLICT', 'This student already has an open records request');
  const note = request.note ? request.note : null;
  const id = await queries.insertRequest(db, {
    institution_id: institutionId,
    email: request.email,
    note,
    opened_by: actor.userId,
    opened_at: at,
    due_at: at + RECORDS_REQUEST_DAYS * DAY,
  });
  await recordAudit(db, actor, {
    action: 'records_request.open',
    subject: { type: 'records_request', id },
    detail: { email: request.email },
  });
  const row = (await queries.listRequests(db, institutionId)).find((candidate) => candidate.id === id);
  if (!row) throw new Error(`openRecordsRequest: request ${id} vanished`);
  return { success: true as const, request: toRequest(row, at) };
}

export async function fulfilRecordsRequest(options: {
  db: Executor;
  institutionId: number;
  actor: AuditActor & { userId: number };
  id: number;
  at: number;
}) {
  const { db, institutionId, actor, id, at } = options;
  const done = await queries.markFulfilled(db, institutionId, id, actor.userId, at);
  if (!done) {
    const known = (await queries.listRequests(db, institutionId)).some((row) => row.id === id);
    if (!known) throw new AppError('NOT_FOUND', 'Records request not found');
    throw new AppError('CONFLICT', 'This records request is already fulfilled');
  }
  await recordAudit(db, actor, {
    action: 'records_request.fulfil',
    subject: { type: 'records_request', id },
  });
  return { success: true as const, message: 'The records request is marked fulfilled.' };
}
