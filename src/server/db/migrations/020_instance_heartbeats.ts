import type { Kysely } from 'kysely';
import { millis } from './columns';

/**
 * Readiness writes: each instance's probe upserts its own row, so "ready" means the database took
 * a write from this instance just now (a full disk, a read-only database or a partition that
 * still answers reads all fail it). One row per instance: no two instances contend for a row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('instance_heartbeats')
    .addColumn('instance_id', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('beat_at', ...millis())
    .execute();
}
