import type { Kysely } from 'kysely';
import { millis } from './columns';

/**
 * An admin may allow a staff member's next single sign-on to link their institution identity to
 * their account (for a member who cannot link from a signed-in session of their own): one
 * permission per member, good once and for a day, consumed by that sign-in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_link_grants')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('granted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('granted_at', ...millis())
    .addColumn('expires_at', ...millis())
    .execute();
}
