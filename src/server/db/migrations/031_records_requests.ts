import type { Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

/**
 * A student's request for their records (FERPA: answered within 45 days), kept open until staff
 * mark it fulfilled. While one is open the student's data cannot be erased: what was asked for
 * must still exist when it is answered.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('records_requests')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    // The student as legal holds and the rollups know them: their address, in lower case.
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('note', 'varchar(1000)')
    .addColumn('opened_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('opened_at', ...millis())
    .addColumn('due_at', ...millis())
    .addColumn('fulfilled_at', 'bigint')
    .addColumn('fulfilled_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('records_requests_student')
    .on('records_requests')
    .columns(['institution_id', 'email'])
    .execute();
}
