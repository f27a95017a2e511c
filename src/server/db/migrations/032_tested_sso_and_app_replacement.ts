import type { Kysely } from 'kysely';
import { millis } from './columns';

/**
 * Single sign-on is switched on, or moved to another provider, only with settings whose
 * connection test passed shortly before (design section 11): each institution's last passed test,
 * of which issuer and client. And a staff member replacing their authenticator app keeps the old
 * one working until the new one's first code is confirmed: the new secret waits beside it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_connection_tests')
    .addColumn('institution_id', 'integer', (c) =>
      c.primaryKey().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('issuer', 'varchar(500)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(300)', (c) => c.notNull())
    .addColumn('passed_at', ...millis())
    .execute();
  // Sealed as the app's secret is; null unless a replacement waits for its first code.
  await db.schema
    .alterTable('totp_credentials')
    .addColumn('replacement_secret_sealed', 'varchar(300)')
    .execute();
  await db.schema.alterTable('totp_credentials').addColumn('replacement_started_at', 'bigint').execute();
}
