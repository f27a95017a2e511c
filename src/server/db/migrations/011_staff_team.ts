import type { Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

/**
 * The team (design section 9): invitations to join an institution's staff, and removed access.
 * A removed member keeps their row (cases and the audit log name them) and can no longer sign in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('removed_at', 'bigint').execute();

  // One row per invitation sent. Only the token's hash is kept: a copy of the database does not
  // let anyone join. An invitation ends when it is used, withdrawn, replaced by a re-send, or old.
  await db.schema
    .createTable('staff_invitations')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('role', 'varchar(20)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('invited_by', 'integer')
    .addColumn('created_at', ...millis())
    .addColumn('expires_at', ...millis())
    .addColumn('accepted_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('staff_invitations_institution_idx')
    .on('staff_invitations')
    .columns(['institution_id', 'email'])
    .execute();
}
