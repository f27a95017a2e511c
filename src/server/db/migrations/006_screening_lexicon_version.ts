import type { Kysely } from 'kysely';

/**
 * The version of the crisis-language lexicon that screened each submission, so a screening can
 * be traced to the lexicon that produced it after the lexicon changes. Submissions stored before
 * this column existed keep null: which version screened them is not known.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submissions').addColumn('lexicon_version', 'varchar(32)').execute();
}
