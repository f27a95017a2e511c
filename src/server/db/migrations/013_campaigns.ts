import type { Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

/**
 * Campaigns (design section 10): weekly or one-off rounds of invitations to roster groups, and
 * one invitation per student per round. The unique (campaign, round, student) row, written in
 * the transaction that queues its mail, is what makes "invited exactly once" hold.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('campaigns')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('template_id', 'integer', (c) =>
      c.notNull().references('survey_templates.id').onDelete('cascade'),
    )
    .addColumn('groups', 'text', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('minute_of_day', 'integer', (c) => c.notNull())
    .addColumn('time_zone', 'varchar(64)', (c) => c.notNull())
    .addColumn('recurring', 'integer', (c) => c.notNull())
    .addColumn('reminder_after_days', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('rounds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_run_at', 'bigint')
    .addColumn('round_started_at', 'bigint')
    .addColumn('round_expires_at', 'bigint')
    .addColumn('created_by', 'integer')
    .addColumn('created_at', ...millis())
    .execute();
  await db.schema
    .createIndex('campaigns_institution_idx')
    .on('campaigns')
    .columns(['institution_id', 'id'])
    .execute();

  await db.schema
    .createTable('campaign_invitations')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('campaign_id', 'integer', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('round', 'integer', (c) => c.notNull())
    .addColumn('student_id', 'integer', (c) =>
      c.notNull().references('roster_students.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('invited_at', ...millis())
    .addColumn('expires_at', ...millis())
    .addColumn('answered_at', 'bigint')
    .addColumn('reminders', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_reminded_at', 'bigint')
    .addUniqueConstraint('campaign_invitations_once', ['campaign_id', 'round', 'student_id'])
    .execute();
  await db.schema
    .createIndex('campaign_invitations_student_idx')
    .on('campaign_invitations')
    .columns(['student_id', 'round'])
    .execute();
}
