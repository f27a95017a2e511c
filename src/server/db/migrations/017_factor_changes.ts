import type { Kysely } from 'kysely';

/**
 * Changing how a staff account signs in asks for a fresh second factor: a session remembers when
 * one was last proven (at its sign-in, or by a step-up since). Passkeys get a name their owner
 * can tell them apart by when listing or removing them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('factor_proven_at', 'bigint').execute();
  await db.schema.alterTable('passkeys').addColumn('name', 'varchar(60)').execute();
}
