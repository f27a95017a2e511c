import type { Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

/**
 * Follow-up (design section 9): each institution's alert settings, cases with their event trail,
 * the mail each case sent, and a priority for the outbox so an alert never waits behind bulk mail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Addresses are JSON arrays; deadlines are whole minutes; the zone is an IANA name.
  await db.schema
    .alterTable('institutions')
    .addColumn('alert_emails', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('institutions')
    .addColumn('escalation_emails', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('institutions')
    .addColumn('urgent_ack_minutes', 'integer', (c) => c.notNull().defaultTo(60))
    .execute();
  await db.schema
    .alterTable('institutions')
    .addColumn('elevated_ack_minutes', 'integer', (c) => c.notNull().defaultTo(48 * 60))
    .execute();
  await db.schema
    .alterTable('institutions')
    .addColumn('time_zone', 'varchar(64)', (c) => c.notNull().defaultTo('UTC'))
    .execute();

  await db.schema
    .createTable('cases')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('respondent_id', 'integer', (c) =>
      c.notNull().references('respondents.id').onDelete('cascade'),
    )
    // The respondent while the case is open, null once resolved: the unique constraint keeps one
    // open case per student on both databases without a partial index.
    .addColumn('open_respondent_id', 'integer', (c) => c.unique())
    .addColumn('tier', 'varchar(10)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('verified_at', 'bigint')
    .addColumn('first_submitted_at', ...millis())
    .addColumn('opened_at', ...millis())
    .addColumn('acknowledge_by', ...millis())
    .addColumn('next_escalation_at', 'bigint')
    .addColumn('acknowledged_at', 'bigint')
    .addColumn('acknowledged_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('assigned_to', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('resolved_at', 'bigint')
    .addColumn('outcome', 'varchar(40)')
    .execute();
  await db.schema
    .createIndex('cases_institution_idx')
    .on('cases')
    .columns(['institution_id', 'resolved_at', 'acknowledge_by'])
    .execute();
  await db.schema.createIndex('cases_respondent_idx').on('cases').columns(['respondent_id', 'id']).execute();

  // Every change to a case, with who (null: the product itself) and when. Only ever inserted.
  await db.schema
    .createTable('case_events')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('case_id', 'integer', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(30)', (c) => c.notNull())
    .addColumn('actor_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_name', 'varchar(200)')
    .addColumn('submission_id', 'integer', (c) => c.references('submissions.id').onDelete('cascade'))
    .addColumn('detail', 'text')
    .addColumn('at', ...millis())
    .execute();
  await db.schema.createIndex('case_events_case_idx').on('case_events').columns(['case_id', 'id']).execute();

  // Which outbox rows a case caused (alerts, escalations): their sent_at is the delivery record.
  await db.schema
    .createTable('case_mails')
    .addColumn('case_id', 'integer', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('mail_id', 'integer', (c) => c.notNull().references('mail_outbox.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addPrimaryKeyConstraint('case_mails_pk', ['case_id', 'mail_id'])
    .execute();

  // Higher first: alerts go out before a campaign's thousands of invitations queued earlier.
  await db.schema
    .alterTable('mail_outbox')
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.dropIndex('mail_outbox_due_idx').execute();
  await db.schema
    .createIndex('mail_outbox_due_idx')
    .on('mail_outbox')
    .columns(['status', 'next_attempt_at', 'priority', 'id'])
    .execute();
}
