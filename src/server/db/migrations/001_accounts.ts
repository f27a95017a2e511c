import type { Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('institutions')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('name', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('crisis_resources', 'text')
    .addColumn('created_at', ...millis())
    .execute();

  await db.schema
    .createTable('institution_domains')
    .addColumn('domain', 'varchar(253)', (c) => c.primaryKey())
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('institution_domains_institution_idx')
    .on('institution_domains')
    .column('institution_id')
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('institution_id', 'integer', (c) => c.references('institutions.id').onDelete('cascade'))
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('role', 'varchar(20)', (c) => c.notNull())
    .addColumn('created_at', ...millis())
    .execute();
  await db.schema.createIndex('users_institution_idx').on('users').column('institution_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', ...millis())
    .addColumn('last_seen_at', ...millis())
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('login_throttle')
    .addColumn('key', 'varchar(300)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', ...millis())
    .execute();

  await db.schema
    .createTable('contact_requests')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('institution', 'varchar(200)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('students', 'integer')
    .addColumn('message', 'varchar(5000)', (c) => c.notNull())
    .addColumn('created_at', ...millis())
    .execute();
}
