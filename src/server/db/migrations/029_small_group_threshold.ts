import type { Kysely } from 'kysely';

/**
 * Each institution chooses below how many students a group is too small to show to staff who
 * may not see names (design section 14): 5 unless it sets another, never below 3.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('institutions')
    .addColumn('small_group_threshold', 'integer', (c) => c.notNull().defaultTo(5))
    .execute();
}
