import type { Insertable } from 'kysely';
import type { Executor } from '../../db/executor';
import type { AuditLogTable } from '../../db/types';

export async function insertAuditEntry(db: Executor, entry: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(entry).execute();
}
