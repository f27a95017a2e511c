import type { Kysely } from 'kysely';
import { millis } from './columns';

/**
 * Single sign-on per institution (design section 11): the institution's OpenID Connect provider
 * (its client secret sealed with a key derived from the server secret), and the sign-ins under
 * way. An attempt lives in the database, not in a process, so the provider may send the browser
 * back to any instance; its state is kept only as a hash and is used once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_settings')
    .addColumn('institution_id', 'integer', (c) =>
      c.primaryKey().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('issuer', 'varchar(500)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(300)', (c) => c.notNull())
    // Null for a public client (PKCE alone).
    .addColumn('client_secret_sealed', 'varchar(1000)')
    // JSON array of lower-case domains whose addresses may sign in this way.
    .addColumn('domains', 'text', (c) => c.notNull())
    // 1 or 0: whether the institution's students may still sign in with a password.
    .addColumn('student_password_sign_in', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', ...millis())
    .execute();

  await db.schema
    .createTable('sso_attempts')
    // SHA-256 of the state sent to the provider.
    .addColumn('state_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('nonce', 'varchar(100)', (c) => c.notNull())
    .addColumn('code_verifier', 'varchar(200)', (c) => c.notNull())
    // Where to go once signed in: a path on this site, already checked (text: normalising a
    // path may lengthen it).
    .addColumn('next_path', 'text')
    .addColumn('expires_at', ...millis())
    .execute();
  await db.schema.createIndex('sso_attempts_expiry_idx').on('sso_attempts').column('expires_at').execute();
}
