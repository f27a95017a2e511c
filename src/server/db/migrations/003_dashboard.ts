import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

/**
 * Dashboard rollups, kept exact inside the submission transaction so a dashboard request reads a
 * handful of small rows whatever the number of submissions. Months are UTC months counted from
 * 1970 (year * 12 + month); days are UTC days since the epoch.
 */
const counter = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_totals')
    .addColumn('institution_id', 'integer', (c) =>
      c.primaryKey().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('responses', 'integer', counter)
    .addColumn('students', 'integer', counter)
    .addColumn('flagged_students', 'integer', counter)
    .addColumn('stable_students', 'integer', counter)
    .addColumn('good_sleep', 'integer', counter)
    .addColumn('poor_sleep', 'integer', counter)
    .addColumn('low_stress', 'integer', counter)
    .addColumn('moderate_stress', 'integer', counter)
    .addColumn('high_stress', 'integer', counter)
    .execute();

  await db.schema
    .createTable('dashboard_months')
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('month', 'integer', (c) => c.notNull())
    .addColumn('responses', 'integer', counter)
    .addColumn('students', 'integer', counter)
    .addColumn('new_students', 'integer', counter)
    .addColumn('support_answers', 'integer', counter)
    .addColumn('support_positive', 'integer', counter)
    .addPrimaryKeyConstraint('dashboard_months_pk', ['institution_id', 'month'])
    .execute();

  // One row per student (one per email): registered students who never answered count too.
  await db.schema
    .createTable('dashboard_students')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('known_at', ...millis())
    .addColumn('latest_submission_id', 'integer')
    .addColumn('latest_at', 'bigint')
    .addColumn('latest_tier', 'varchar(10)')
    // 2 urgent, 1 elevated, 0 otherwise: the flagged list reads it straight off an index.
    .addColumn('latest_priority', 'integer', counter)
    .addColumn('latest_sleep_mean', 'double precision')
    .addColumn('latest_stress_mean', 'double precision')
    .addUniqueConstraint('dashboard_students_institution_email_unique', ['institution_id', 'email'])
    .execute();
  await db.schema
    .createIndex('dashboard_students_flagged_idx')
    .on('dashboard_students')
    .columns(['institution_id', 'latest_priority', 'latest_at', 'id'])
    .execute();
  await db.schema
    .createIndex('dashboard_students_latest_idx')
    .on('dashboard_students')
    .columns(['institution_id', 'latest_at'])
    .execute();

  await db.schema
    .createTable('dashboard_student_months')
    .addColumn('student_id', 'integer', (c) =>
      c.notNull().references('dashboard_students.id').onDelete('cascade'),
    )
    .addColumn('month', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_student_months_pk', ['student_id', 'month'])
    .execute();

  // How many students' latest submission fell on each day: "submitted in the last 30 days" in ~31 rows.
  await db.schema
    .createTable('dashboard_latest_days')
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('students', 'integer', counter)
    .addPrimaryKeyConstraint('dashboard_latest_days_pk', ['institution_id', 'day'])
    .execute();
}
