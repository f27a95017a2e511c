import type { Kysely } from 'kysely';

/**
 * A campaign can reach every student of the roster, or those with no group, besides its named
 * groups; a one-off campaign sent at once remembers so, and shows no weekly slot it will never
 * follow. A student who has left (marked by an admin, or missing from a re-upload) keeps their
 * row, and their answers, but is invited no more and leaves the response rate's denominator.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('campaigns')
    .addColumn('all_students', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('campaigns')
    .addColumn('no_group', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('campaigns')
    .addColumn('send_now', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('roster_students').addColumn('left_at', 'bigint').execute();
}
