import type { Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

/**
 * A second factor for staff (design section 11): how each session was signed in, the
 * authenticator-app secret of each staff member who set one up (sealed with a key derived from
 * the server secret), and their single-use recovery codes (only keyed hashes are kept).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Sessions opened before this migration were opened with a password.
  await db.schema
    .alterTable('sessions')
    .addColumn('sign_in_method', 'varchar(40)', (c) => c.notNull().defaultTo('password'))
    .execute();

  await db.schema
    .createTable('totp_credentials')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_sealed', 'varchar(300)', (c) => c.notNull())
    // Null while enrolment waits for the first code from the app.
    .addColumn('confirmed_at', 'bigint')
    // The newest time step a code was accepted for: a code is never accepted twice.
    .addColumn('last_time_step', 'bigint')
    .addColumn('created_at', ...millis())
    .execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', ...millis())
    .execute();
  await db.schema
    .createIndex('recovery_codes_user_idx')
    .on('recovery_codes')
    .columns(['user_id', 'code_hash'])
    .execute();
}
