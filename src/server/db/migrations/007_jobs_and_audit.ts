import type { Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

/**
 * Durable jobs (design section 10: sending, reminders, escalations, retention) and the
 * append-only audit log (section 9).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per piece of scheduled work. `key` names the work itself (a campaign's round, a
  // case's escalation), so scheduling the same work twice keeps one row.
  await db.schema
    .createTable('jobs')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('kind', 'varchar(60)', (c) => c.notNull())
    .addColumn('key', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('run_at', ...millis())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_token', 'varchar(64)')
    .addColumn('lease_until', 'bigint')
    .addColumn('last_error', 'varchar(1000)')
    .addColumn('finished_at', 'bigint')
    .addColumn('created_at', ...millis())
    .execute();
  await db.schema.createIndex('jobs_due_idx').on('jobs').columns(['status', 'run_at', 'id']).execute();

  // Who read or changed what, when and from where. Rows are only ever inserted.
  await db.schema
    .createTable('audit_log')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('actor_user_id', 'integer')
    .addColumn('actor_email', 'varchar(254)')
    .addColumn('action', 'varchar(60)', (c) => c.notNull())
    .addColumn('subject_type', 'varchar(40)')
    .addColumn('subject_id', 'varchar(64)')
    .addColumn('detail', 'text')
    .addColumn('address', 'varchar(64)')
    .addColumn('at', ...millis())
    .execute();
  await db.schema
    .createIndex('audit_log_institution_idx')
    .on('audit_log')
    .columns(['institution_id', 'at', 'id'])
    .execute();
}
