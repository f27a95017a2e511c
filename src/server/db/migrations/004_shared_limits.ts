import type { Kysely } from 'kysely';
import { millis } from './columns';

/**
 * Rate-limit counters and live-dashboard stream slots, in the database so that every instance
 * behind a load balancer counts against the same numbers (see src/server/lib/limits.ts).
 * They replace the login_throttle table, whose per-account counts now live in limit_counters.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('limit_counters')
    .addColumn('key', 'varchar(400)', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', ...millis())
    .addColumn('expires_at', ...millis())
    .execute();
  await db.schema
    .createIndex('limit_counters_expires_idx')
    .on('limit_counters')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('stream_slots')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('holder', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', ...millis())
    .addPrimaryKeyConstraint('stream_slots_pk', ['user_id', 'slot'])
    .execute();

  await db.schema.dropTable('login_throttle').execute();
}
