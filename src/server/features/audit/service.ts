import type { Kysely } from 'kysely';
import { z } from 'zod/mini';
import type { AuditEntry, AuditFilters, AuditPage } from '../../../common/schemas/audit';
import { parseStoredJson } from '../../db/stored-json';
import { readSnapshot } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { csvRow, UTF8_BOM } from '../../lib/csv';
import { localMidnight } from '../../lib/zoned-time';
import { type AuditSelection, countEntries, entriesPage } from './queries';

const StoredDetail = z.record(z.string(), z.unknown());
/** Rows per read while exporting: bounded memory whatever the log's size. */
const EXPORT_PAGE = 500;

const AUDIT_EXPORT_COLUMNS = [
  'Time (UTC)',
  'Actor',
  'Actor name',
  'Action',
  'Subject',
  'Subject id',
  'Subject name',
  'Detail',
  'Address',
];

/** Who reads the log, as far as the log's contents depend on it. */
export interface AuditReader {
  institutionId: number;
  /** The institution's time zone: the date filters name its days. */
  timeZone: string;
  /** Whether the reader may see students' names (common/roles.ts, `student_identities`). */
  seesStudentNames: boolean;
}

/** The filters as a selection; a day runs from the institution's midnight to its next one. */
function selectionOf(reader: AuditReader, filters: AuditFilters): AuditSelection {
  return {
    institutionId: reader.institutionId,
    actor: filters.actor || undefined,
    action: filters.action || undefined,
    // A reader who may not see students' names may not find entries by them either.
    student: (reader.seesStudentNames && filters.student) || undefined,
    from: filters.from ? localMidnight(filters.from, reader.timeZone) : undefined,
    to: filters.to ? localMidnight(filters.to, reader.timeZone, 1) : undefined,
  };
}

type Row = Awaited<ReturnType<typeof entriesPage>>[number];

/** Who the entry is about, by name: a student only for a reader who may see students' names. */
function subjectName(row: Row, reader: AuditReader): string | null {
  if (row.student_name !== null) return reader.seesStudentNames ? row.student_name : null;
  if (row.user_name === null || (row.user_role === 'student' && !reader.seesStudentNames)) return null;
  return row.user_name;
}

function toEntry(row: Row, reader: AuditReader): AuditEntry {
  return {
    id: row.id,
    at: new Date(Number(row.at)).toISOString(),
    actor_email: row.actor_email,
    actor_name: row.actor_name ?? null,
    action: row.action,
    subject_type: row.subject_type,
    subject_id: row.subject_id,
    subject_name: subjectName(row, reader),
    detail: parseStoredJson(StoredDetail, row.detail),
    address: row.address,
  };
}

export async function listAuditEntries(options: {
  db: Kysely<Database>;
  reader: AuditReader;
  filters: AuditFilters;
  page: number;
  pageSize: number;
}): Promise<AuditPage> {
  const { db, page, pageSize, reader } = options;
  const selection = selectionOf(reader, options.filters);
  return readSnapshot(db, async (trx) => {
    const total = await countEntries(trx, selection);
    const rows = await entriesPage(trx, selection, { offset: (page - 1) * pageSize, limit: pageSize });
    return {
      success: true as const,
      total,
      page,
      page_size: pageSize,
      time_zone: reader.timeZone,
      entries: rows.map((row) => toEntry(row, reader)),
    };
  });
}

/** The filtered log as CSV, newest first, read a page at a time. */
export async function* exportAuditCsv(options: {
  db: Kysely<Database>;
  reader: AuditReader;
  filters: AuditFilters;
}): AsyncGenerator<string> {
  const { reader } = options;
  const selection = selectionOf(reader, options.filters);
  yield UTF8_BOM + csvRow(AUDIT_EXPORT_COLUMNS);
  let before: { at: number; id: number } | undefined;
  for (;;) {
    const rows = await entriesPage(options.db, selection, {
      ...(before ? { before } : {}),
      limit: EXPORT_PAGE,
    });
    const last = rows[rows.length - 1];
    if (!last) return;
    before = { at: Number(last.at), id: last.id };
    yield rows
      .map((row) => toEntry(row, reader))
      .map((entry) =>
        csvRow([
          entry.at,
          entry.actor_email,
          entry.actor_name,
          entry.action,
          entry.subject_type,
          entry.subject_id,
          entry.subject_name,
          entry.detail ? JSON.stringify(entry.detail) : '',
          entry.address,
        ]),
      )
      .join('');
    if (rows.length < EXPORT_PAGE) return;
  }
}
