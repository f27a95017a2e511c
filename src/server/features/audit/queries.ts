import type { SelectQueryBuilder } from 'kysely';
import type { Executor } from '../../db/executor';
import type { Database } from '../../db/types';

export interface AuditSelection {
  institutionId: number;
  actor?: string | undefined;
  action?: string | undefined;
  /** Epoch milliseconds, `from` included and `to` excluded. */
  from?: number | undefined;
  to?: number | undefined;
}

function filtered<O>(query: SelectQueryBuilder<Database, 'audit_log', O>, selection: AuditSelection) {
  let q = query.where('institution_id', '=', selection.institutionId);
  if (selection.actor) q = q.where('actor_email', '=', selection.actor.toLowerCase());
  const action = selection.action;
  if (action) q = q.where((eb) => eb.or([eb('action', '=', action), eb('action', 'like', `${action}.%`)]));
  if (selection.from !== undefined) q = q.where('at', '>=', selection.from);
  if (selection.to !== undefined) q = q.where('at', '<', selection.to);
  return q;
}

export async function countEntries(db: Executor, selection: AuditSelection): Promise<number> {
  const row = await filtered(db.selectFrom('audit_log'), selection)
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Newest first; the id breaks ties between entries of the same millisecond. `before` continues
 * after the last entry read, so rows written meanwhile never shift a page.
 */
export function entriesPage(
  db: Executor,
  selection: AuditSelection,
  page: { offset?: number; before?: { at: number; id: number }; limit: number },
) {
  let q = filtered(db.selectFrom('audit_log'), selection);
  const before = page.before;
  if (before)
    q = q.where((eb) =>
      eb.or([eb('at', '<', before.at), eb.and([eb('at', '=', before.at), eb('id', '<', before.id)])]),
    );
  return q
    .selectAll()
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset ?? 0)
    .execute();
}
