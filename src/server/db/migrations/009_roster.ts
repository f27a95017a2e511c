import type { Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

/**
 * The roster (design section 10): the registrar's list of an institution's students, one row per
 * address, with the group the registrar puts them in. Re-uploads update rows in place.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('roster_students')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('group_name', 'varchar(100)')
    .addColumn('last_invited_at', 'bigint')
    .addColumn('created_at', ...millis())
    .addColumn('updated_at', ...millis())
    .addUniqueConstraint('roster_students_institution_email_unique', ['institution_id', 'email'])
    .execute();
  // The roster screen pages by name; campaigns pick students by group; the dashboard counts by
  // the time each student joined the roster.
  await db.schema
    .createIndex('roster_students_name_idx')
    .on('roster_students')
    .columns(['institution_id', 'name', 'id'])
    .execute();
  await db.schema
    .createIndex('roster_students_group_idx')
    .on('roster_students')
    .columns(['institution_id', 'group_name', 'id'])
    .execute();
  await db.schema
    .createIndex('roster_students_created_idx')
    .on('roster_students')
    .columns(['institution_id', 'created_at'])
    .execute();
}
