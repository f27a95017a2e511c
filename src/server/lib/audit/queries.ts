import type { Insertable } from 'kysely';
import type { Executor } from '../../db/executor';
import type { AuditLogTable } from '../../db/types';

export async function insertAuditEntry(db: Executor, entry: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(entry).execute();
}

/** When the newest entry like this one, at or after `since`, was written; undefined if none. */
export async function lastIdenticalEntryAt(
  db: Executor,
  entry: {
    institution_id: number;
    actor_user_id: number | null;
    action: string;
    subject_type: string | null;
    subject_id: string | null;
    detail: string | null;
    since: number;
  },
): Promise<number | undefined> {
  const row = await db
    .selectFrom('audit_log')
    .select('at')
    .where('institution_id', '=', entry.institution_id)
    .where('at', '>=', entry.since)
    .where('action', '=', entry.action)
    .where('actor_user_id', entry.actor_user_id === null ? 'is' : '=', entry.actor_user_id)
    .where('subject_type', entry.subject_type === null ? 'is' : '=', entry.subject_type)
    .where('subject_id', entry.subject_id === null ? 'is' : '=', entry.subject_id)
    .where('detail', entry.detail === null ? 'is' : '=', entry.detail)
    .orderBy('at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.at);
}
