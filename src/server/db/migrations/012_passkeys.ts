import type { Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

/**
 * Passkeys (WebAuthn) for staff (design section 11): a second factor after a password, or a
 * sign-in of their own. Challenges are issued by the server, kept until used once or expired.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // base64url, as the browser names the credential.
    .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    // JSON array of transport hints ("internal", "usb", ...).
    .addColumn('transports', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', ...millis())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('passkeys_user_idx').on('passkeys').column('user_id').execute();

  await db.schema
    .createTable('passkey_challenges')
    .addColumn('challenge', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
    // Whose registration or second factor it is for; null for a sign-in with a passkey alone.
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', ...millis())
    .execute();
}
