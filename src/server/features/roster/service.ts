import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { RosterImportResponse, RosterPage, RosterStudent } from '../../../common/schemas/roster';
import { DEFAULT_LIMITS } from '../../config';
import { readSnapshot, writeTransaction } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { type AuditActor, recordAudit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { yieldToEventLoop } from '../../lib/event-loop';
import { enforceLimit } from '../../lib/limits';
import { now } from '../../lib/time';
import { institutionEmailRule } from '../institutions';
import { type RosterRow, readRosterCsv } from './csv';
import * as queries from './queries';

const iso = (millis: number | string | null) =>
  millis === null ? null : new Date(Number(millis)).toISOString();

/**
 * Imports the registrar's CSV as it arrives. A file that cannot be read as a roster changes
 * nothing (it is read and checked whole before anything is written); otherwise the good rows are
 * written in chunks, each its own transaction with a turn for other requests after it, and every
 * bad one is reported by its line. An import cut off midway has applied the chunks before: the
 * same file uploaded again completes it, as a re-upload updates by address.
 */
export async function importRoster(options: {
  db: Kysely<Database>;
  actor: AuditActor;
  csv: Readable | string;
  /** Imports per institution (Limits.rosterImports). */
  limit?: { max: number; windowMs: number };
  /** Students on the roster whom the file does not list: kept (the default), or marked as left. */
  missing?: 'keep' | 'leave';
}): Promise<RosterImportResponse> {
  const { db, actor } = options;
  const { institutionId } = actor;
  // Counted before the file is read: a refused file costs the server its reading too.
  await enforceLimit(
    db,
    `roster:import:institution:${institutionId}`,
    options.limit ?? DEFAULT_LIMITS.rosterImports,
  );
  const file = await readRosterCsv(options.csv, {
    institution: await institutionEmailRule(db, institutionId),
    staffAddresses: await queries.staffEmails(db, institutionId),
  });
  const at = now();
  const known = await queries.rosterEmails(db, institutionId);
  const added = file.rows.filter((row) => !known.has(row.email)).length;
  const chunks: RosterRow[][] = [];
  for (let start = 0; start < file.rows.length; start += WRITE_CHUNK)
    chunks.push(file.rows.slice(start, start + WRITE_CHUNK));
  // The record of the import commits with its last rows (with no rows, on its own).
  if (chunks.length === 0) chunks.push([]);
  let left = 0;
  for (const [index, chunk] of chunks.entries()) {
    await writeTransaction(db, async (trx) => {
      await queries.upsertStudents(trx, institutionId, chunk, { withGroups: file.withGroups, at });
      if (index !== chunks.length - 1) return;
      // Last, with the record: a cut-off import marks nobody, and its re-upload does it whole.
      if (options.missing === 'leave')
        left = await queries.markMissingAsLeft(
          trx,
          institutionId,
          new Set(file.rows.map((row) => row.email)),
          at,
        );
      await recordAudit(trx, actor, {
        action: 'roster.import',
        detail: {
          imported: added,
          updated: file.rows.length - added,
          refused_lines: file.errors.length,
          missing: options.missing ?? 'keep',
          left,
        },
      });
    });
    await yieldToEventLoop();
  }
  return {
    success: true,
    imported: added,
    updated: file.rows.length - added,
    errors: file.errors,
    left,
  };
}

/** Rows written per transaction: short enough that other requests' writes wait little between them. */
const WRITE_CHUNK = 2_000;

/** A page of the roster, by name, with the search applied. */
export async function listRoster(options: {
  db: Kysely<Database>;
  actor: AuditActor;
  search?: string;
  group?: string;
  offset: number;
  limit: number;
}): Promise<RosterPage> {
  const { db, actor, offset, limit } = options;
  const { institutionId } = actor;
  const filter = {
    institutionId,
    ...(options.search?.trim() ? { search: options.search.trim() } : {}),
    ...(options.group === undefined ? {} : { group: options.group }),
  };
  // Names and addresses of students: the read is recorded (design section 9).
  await recordAudit(db, actor, {
    action: 'roster.read',
    detail: { offset, limit, search: filter.search, group: filter.group },
  });
  return readSnapshot(db, async (trx) => {
    const rows = await queries.listStudents(trx, filter, { offset, limit });
    return {
      success: true as const,
      total: await queries.countStudents(trx, filter),
      offset,
      students: rows.map(toStudent),
      groups: await queries.listGroups(trx, institutionId),
    };
  });
}

function toStudent(row: {
  id: number;
  name: string;
  email: string;
  group_name: string | null;
  last_invited_at: number | string | null;
  latest_at: number | string | null;
  left_at: number | string | null;
}): RosterStudent {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    group: row.group_name,
    last_invited_at: iso(row.last_invited_at),
    last_answered_at: iso(row.latest_at),
    left_at: iso(row.left_at),
  };
}

/**
 * Marks one student of the admin's roster as having left (no more invitations, outside the
 * response rate) or back on the roster. Reversible; their answers stay.
 */
export async function setStudentLeft(options: {
  db: Kysely<Database>;
  actor: AuditActor;
  studentId: number;
  left: boolean;
}) {
  const { db, actor, studentId, left } = options;
  const at = now();
  const student = await writeTransaction(db, async (trx) => {
    const found = await queries.findStudent(trx, actor.institutionId, studentId);
    if (!found) throw new AppError('NOT_FOUND', 'Student not found on the roster');
    // Marking again keeps the first date: when they left does not move.
    const leftAt = left ? (found.left_at ?? at) : null;
    await queries.setLeft(trx, studentId, leftAt, at);
    await recordAudit(trx, actor, {
      action: left ? 'roster.student_left' : 'roster.student_returned',
      subject: { type: 'roster_student', id: studentId },
    });
    return { ...found, left_at: leftAt };
  });
  return {
    success: true as const,
    message: left
      ? `${student.name} is marked as left: no more invitations, and out of the response rate.`
      : `${student.name} is back on the roster.`,
    student: toStudent(student),
  };
}
