import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { autoIncrementId, millis } from './columns';

/**
 * Proven addresses (design section 8): the mail outbox, one-time codes, the browsers that proved
 * an address, registrations waiting for their address to be proven, and whether each submission
 * came from someone who proved the address it names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Mail is written here in the transaction that causes it and delivered later by a worker.
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('to_address', 'varchar(254)', (c) => c.notNull())
    .addColumn('subject', 'varchar(300)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ...millis())
    .addColumn('lease_token', 'varchar(64)')
    .addColumn('lease_until', 'bigint')
    .addColumn('sent_at', 'bigint')
    .addColumn('last_error', 'varchar(1000)')
    .addColumn('created_at', ...millis())
    .execute();
  await db.schema
    .createIndex('mail_outbox_due_idx')
    .on('mail_outbox')
    .columns(['status', 'next_attempt_at', 'id'])
    .execute();

  // Only a keyed hash of each code is kept; a browser proves an address with its own code.
  await db.schema
    .createTable('verification_codes')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('visitor_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', ...millis())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', ...millis())
    .execute();
  await db.schema
    .createIndex('verification_codes_email_idx')
    .on('verification_codes')
    .columns(['email', 'created_at'])
    .execute();

  // The browsers (by the hash of their visitor cookie) that proved an address.
  await db.schema
    .createTable('address_proofs')
    .addColumn('visitor_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('proven_at', ...millis())
    .addPrimaryKeyConstraint('address_proofs_pk', ['visitor_hash', 'email'])
    .execute();

  // Not accounts yet: several may wait for one address, and the one whose browser proves it wins.
  await db.schema
    .createTable('pending_registrations')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('visitor_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', ...millis())
    .execute();
  await db.schema
    .createIndex('pending_registrations_email_idx')
    .on('pending_registrations')
    .columns(['email', 'visitor_hash'])
    .execute();

  // Null until the address the submission names is proven; the browser that sent it may prove it later.
  await db.schema.alterTable('submissions').addColumn('verified_at', 'bigint').execute();
  await db.schema.alterTable('submissions').addColumn('visitor_hash', 'varchar(64)').execute();
  // Submissions stored before this migration were accepted as they came and already count.
  await sql`update submissions set verified_at = created_at`.execute(db);
  await db.schema
    .createIndex('submissions_unverified_idx')
    .on('submissions')
    .columns(['institution_id', 'verified_at', 'created_at'])
    .execute();
  await db.schema
    .createIndex('submissions_visitor_idx')
    .on('submissions')
    .columns(['visitor_hash', 'school_email'])
    .execute();
}
