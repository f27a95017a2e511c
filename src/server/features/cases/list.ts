import type { CaseFilters, CaseListQuery, CaseListResponse } from '../../../common/schemas/cases';
import type { Executor } from '../../db/executor';
import { type AuditActor, recordAudit } from '../../lib/audit';
import { csvRow, UTF8_BOM } from '../../lib/csv';
import { now } from '../../lib/time';
import * as queries from './queries';
import { assigneesOf, type CaseWorker, summaryOf } from './service';

/** The filters as the queries take them, always within the worker's institution. */
function selectionOf(worker: CaseWorker, filters: CaseFilters): queries.CaseSelection {
  return {
    institutionId: worker.institutionId,
    status: filters.status,
    queue: filters.queue,
    tier: filters.tier,
    assignedTo:
      filters.assigned_to === 'anyone' || filters.assigned_to === 'nobody'
        ? filters.assigned_to
        : Number(filters.assigned_to),
    ...(filters.q ? { search: filters.q } : {}),
  };
}

/** What an audit row keeps of the filters: all but paging, which says nothing of what was read. */
function auditedFilters(filters: CaseFilters) {
  const { status, queue, tier, assigned_to, q, sort, dir } = filters;
  return { status, queue, tier, assigned_to, ...(q ? { q } : {}), sort, dir };
}

/** One page of the institution's cases, filtered, searched and sorted on the server. */
export async function listCases(options: {
  db: Executor;
  worker: CaseWorker;
  actor: AuditActor;
  query: CaseListQuery;
}): Promise<CaseListResponse> {
  const { db, worker, query } = options;
  const at = now();
  const selection = selectionOf(worker, query);
  const rows = await queries.listCases(
    db,
    selection,
    { sort: query.sort, dir: query.dir, at },
    { offset: (query.page - 1) * query.page_size, limit: query.page_size },
  );
  await recordAudit(db, options.actor, {
    action: 'case.list',
    detail: { ...auditedFilters(query), page: query.page, count: rows.length },
  });
  return {
    success: true,
    cases: rows.map((row) => summaryOf(row, at)),
    total: await queries.countCases(db, selection),
    page: query.page,
    page_size: query.page_size,
    open_counts: await queries.openCaseCounts(db, worker.institutionId),
    assignees: await assigneesOf(db, worker.institutionId),
  };
}

export const CASE_EXPORT_COLUMNS = [
  'case_id',
  'student_name',
  'school_email',
  'name_given_unverified',
  'tier',
  'status',
  'verified',
  'assigned_to',
  'opened_at',
  'acknowledge_by',
  'overdue',
] as const;

/** Rows read per query while exporting, so a long list is never held in memory at once. */
const EXPORT_PAGE = 500;

/** Records an export of the list as filtered; done before the first row is read. */
export async function recordCaseExport(db: Executor, actor: AuditActor, filters: CaseFilters) {
  await recordAudit(db, actor, { action: 'case.export', detail: auditedFilters(filters) });
}

/** Every case the filters keep, in the list's order, as CSV. */
export async function* exportCasesCsv(options: {
  db: Executor;
  worker: CaseWorker;
  filters: CaseFilters;
}): AsyncGenerator<string> {
  const { db, filters } = options;
  const at = now();
  const selection = selectionOf(options.worker, filters);
  yield UTF8_BOM + csvRow(CASE_EXPORT_COLUMNS);
  for (let offset = 0; ; offset += EXPORT_PAGE) {
    const rows = await queries.listCases(
      db,
      selection,
      { sort: filters.sort, dir: filters.dir, at },
      { offset, limit: EXPORT_PAGE },
    );
    if (rows.length === 0) return;
    yield rows
      .map((row) => summaryOf(row, at))
      .map((item) =>
        csvRow([
          item.id,
          item.student_name,
          item.school_email,
          item.claimed_name,
          item.tier,
          item.status,
          item.verified ? 'yes' : 'no',
          item.assigned_to?.name,
          item.opened_at,
          item.acknowledge_by,
          item.overdue ? 'yes' : 'no',
        ]),
      )
      .join('');
    if (rows.length < EXPORT_PAGE) return;
  }
}
