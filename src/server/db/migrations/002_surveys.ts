import type { Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('survey_templates')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('hash_link', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', ...millis())
    .execute();
  await db.schema
    .createIndex('survey_templates_institution_idx')
    .on('survey_templates')
    .column('institution_id')
    .execute();

  // One row per institution: "exactly one active template" is the primary key, not application logic.
  await db.schema
    .createTable('active_templates')
    .addColumn('institution_id', 'integer', (c) =>
      c.primaryKey().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('template_id', 'integer', (c) =>
      c.notNull().unique().references('survey_templates.id').onDelete('cascade'),
    )
    .execute();

  await db.schema
    .createTable('questions')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('template_id', 'integer', (c) =>
      c.notNull().references('survey_templates.id').onDelete('cascade'),
    )
    .addColumn('question_text', 'varchar(1000)', (c) => c.notNull())
    .addColumn('question_type', 'varchar(10)', (c) => c.notNull())
    .addColumn('category', 'varchar(20)', (c) => c.notNull())
    .addColumn('answer_choices', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', ...millis())
    .execute();
  await db.schema
    .createIndex('questions_template_position_idx')
    .on('questions')
    .columns(['template_id', 'position', 'id'])
    .execute();

  // A "student" for analytics: a registered student or a link respondent, one per email.
  await db.schema
    .createTable('respondents')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ...millis())
    .addUniqueConstraint('respondents_institution_email_unique', ['institution_id', 'email'])
    .execute();

  await db.schema
    .createTable('submissions')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('template_id', 'integer', (c) => c.references('survey_templates.id').onDelete('set null'))
    .addColumn('respondent_id', 'integer', (c) =>
      c.notNull().references('respondents.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('client_submission_id', 'varchar(64)')
    .addColumn('student_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('school_email', 'varchar(254)', (c) => c.notNull())
    .addColumn('tier', 'varchar(10)', (c) => c.notNull())
    .addColumn('reasons', 'text', (c) => c.notNull())
    .addColumn('likert_mean', 'double precision')
    .addColumn('created_at', ...millis())
    .addUniqueConstraint('submissions_respondent_client_id_unique', ['respondent_id', 'client_submission_id'])
    .execute();
  await db.schema
    .createIndex('submissions_institution_created_idx')
    .on('submissions')
    .columns(['institution_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('submissions_respondent_created_idx')
    .on('submissions')
    .columns(['respondent_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('answers')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('submission_id', 'integer', (c) =>
      c.notNull().references('submissions.id').onDelete('cascade'),
    )
    .addColumn('question_id', 'integer', (c) => c.references('questions.id').onDelete('set null'))
    .addColumn('question_text', 'varchar(1000)', (c) => c.notNull())
    .addColumn('question_type', 'varchar(10)', (c) => c.notNull())
    .addColumn('category', 'varchar(20)', (c) => c.notNull())
    .addColumn('value', 'varchar(5000)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('answers_submission_idx').on('answers').column('submission_id').execute();
  await db.schema.createIndex('answers_question_idx').on('answers').column('question_id').execute();

  await db.schema
    .createTable('drafts')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('template_id', 'integer', (c) =>
      c.notNull().references('survey_templates.id').onDelete('cascade'),
    )
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updated_at', ...millis())
    .addPrimaryKeyConstraint('drafts_pk', ['user_id', 'template_id'])
    .execute();
}
