import type { Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

/**
 * How long an institution keeps what students leave behind (design section 14): answers, closed
 * cases and the audit log each for their own number of months, and a legal hold per student that
 * keeps everything of theirs whatever its age, until an admin lifts it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('institutions')
    .addColumn('answers_retention_months', 'integer', (c) => c.notNull().defaultTo(24))
    .execute();
  await db.schema
    .alterTable('institutions')
    .addColumn('closed_cases_retention_months', 'integer', (c) => c.notNull().defaultTo(24))
    .execute();
  await db.schema
    .alterTable('institutions')
    .addColumn('audit_retention_months', 'integer', (c) => c.notNull().defaultTo(84))
    .execute();
  await db.schema
    .createTable('legal_holds')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    // The student as the rollups and submissions know them: their address, in lower case.
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('reason', 'varchar(1000)', (c) => c.notNull())
    .addColumn('placed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('placed_at', ...millis())
    .addUniqueConstraint('legal_holds_student', ['institution_id', 'email'])
    .execute();
}
