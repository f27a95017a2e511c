import { sql } from 'kysely';
import type { Executor } from '../db/executor';

/** PostgreSQL channel of dashboard change notices; the payload is "<schema>:<institution id>". */
export const CHANGE_CHANNEL = 'dashboard_changes';

/** Delivered to every listening instance of the same database. */
export async function notifyChange(db: Executor, institutionId: number) {
  await sql`select pg_notify(${CHANGE_CHANNEL}, current_schema() || ':' || ${String(institutionId)})`.execute(
    db,
  );
}

/** The schema this database's tables live in: instances sharing a PostgreSQL database but not a schema must not hear each other. */
export async function currentSchema(db: Executor): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? 'public';
}
