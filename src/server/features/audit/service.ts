import type { Kysely } from 'kysely';
import { z } from 'zod/mini';
import type { AuditEntry, AuditFilters, AuditPage } from '../../../common/schemas/audit';
import { parseStoredJson } from '../../db/stored-json';
import type { Database } from '../../db/types';
import { csvRow, UTF8_BOM } from '../../lib/csv';
import { DAY } from '../../lib/time';
import { type AuditSelection, countEntries, entriesPage } from './queries';

const StoredDetail = z.record(z.string(), z.unknown());
/** Rows per read while exporting: bounded memory whatever the log's size. */
const EXPORT_PAGE = 500;

const AUDIT_EXPORT_COLUMNS = ['Time (UTC)', 'Actor', 'Action', 'Subject', 'Subject id', 'Detail', 'Address'];

function selectionOf(institutionId: number, filters: AuditFilters): AuditSelection {
  const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);
  return {
    institutionId,
    actor: filters.actor || undefined,
    action: filters.action || undefined,
    from: filters.from ? dayStart(filters.from) : undefined,
    to: filters.to ? dayStart(filters.to) + DAY : undefined,
  };
}

type Row = Awaited<ReturnType<typeof entriesPage>>[number];

function toEntry(row: Row): AuditEntry {
  return {
    id: row.id,
    at: new Date(Number(row.at)).toISOString(),
    actor_email: row.actor_email,
    action: row.action,
    subject_type: row.subject_type,
    subject_id: row.subject_id,
    detail: parseStoredJson(StoredDetail, row.detail),
    address: row.address,
  };
}

export async function listAuditEntries(options: {
  db: Kysely<Database>;
  institutionId: number;
  filters: AuditFilters;
  page: number;
  pageSize: number;
}): Promise<AuditPage> {
  const { db, page, pageSize } = options;
  const selection = selectionOf(options.institutionId, options.filters);
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const total = await countEntries(trx, selection);
      const rows = await entriesPage(trx, selection, { offset: (page - 1) * pageSize, limit: pageSize });
      return { success: true as const, total, page, page_size: pageSize, entries: rows.map(toEntry) };
    });
}

/** The filtered log as CSV, newest first, read a page at a time. */
export async function* exportAuditCsv(options: {
  db: Kysely<Database>;
  institutionId: number;
  filters: AuditFilters;
}): AsyncGenerator<string> {
  const selection = selectionOf(options.institutionId, options.filters);
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
      .map(toEntry)
      .map((entry) =>
        csvRow([
          entry.at,
          entry.actor_email,
          entry.action,
          entry.subject_type,
          entry.subject_id,
          entry.detail ? JSON.stringify(entry.detail) : '',
          entry.address,
        ]),
      )
      .join('');
    if (rows.length < EXPORT_PAGE) return;
  }
}
