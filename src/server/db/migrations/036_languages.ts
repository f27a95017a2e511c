import type { Kysely } from 'kysely';

/**
 * The language a person reads the product's mail in: chosen by them, or, for a student who
 * registered, the one their browser asked for when they did (kept on the waiting registration
 * until it becomes the account). Null means none was ever given: mail goes in English.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('language', 'varchar(35)').execute();
  await db.schema.alterTable('pending_registrations').addColumn('language', 'varchar(35)').execute();
}
