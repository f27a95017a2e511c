import type { Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

/**
 * Mailed links to choose a new password: only the token's hash is kept, each works once and for a
 * short while, and using one retires every other link of the account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('password_resets')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', ...millis())
    .addColumn('expires_at', ...millis())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();
}
