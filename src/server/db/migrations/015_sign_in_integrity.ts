import type { Kysely } from 'kysely';
import { millis } from './columns';

/**
 * Sign-in integrity: a single sign-on attempt is bound to the browser that started it (the hash
 * of a short-lived cookie), and may link the provider's identity to the account signed in when
 * it started; an identity, once linked, is found by the provider's issuer and subject rather
 * than by the address it claims. The institution says whether its provider's addresses count
 * without an `email_verified` claim and whether its multi-factor sign-in stands in for ours.
 * A one-time code says what it was sent for, so only a registration's own code completes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sso_attempts').addColumn('browser_hash', 'varchar(64)').execute();
  await db.schema
    .alterTable('sso_attempts')
    .addColumn('link_user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .execute();

  await db.schema
    .alterTable('sso_settings')
    .addColumn('email_authoritative', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('sso_settings')
    .addColumn('provider_mfa_counts', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('sso_identities')
    .addColumn('issuer', 'varchar(500)', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'address' (a verified address, first sign-in), 'session' (the account's own signed-in browser).
    .addColumn('linked_by', 'varchar(20)', (c) => c.notNull())
    .addColumn('linked_at', ...millis())
    .addPrimaryKeyConstraint('sso_identities_pk', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('sso_identities_user_idx').on('sso_identities').column('user_id').execute();

  await db.schema
    .alterTable('verification_codes')
    .addColumn('purpose', 'varchar(20)', (c) => c.notNull().defaultTo('address'))
    .execute();
}
