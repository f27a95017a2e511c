import type { Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

/**
 * Validated instruments (design section 13). A template's question may be a locked instrument
 * block: `question_type` 'instrument' with the instrument's id; its wording, scale and scoring
 * are read from the instrument library, never stored, so no one can edit them. Each scored
 * block of a submission keeps its item answers and the result staff act on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('questions').addColumn('instrument_id', 'varchar(10)').execute();

  await db.schema
    .createTable('instrument_results')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('submission_id', 'integer', (c) =>
      c.notNull().references('submissions.id').onDelete('cascade'),
    )
    .addColumn('question_id', 'integer', (c) => c.references('questions.id').onDelete('set null'))
    .addColumn('instrument_id', 'varchar(10)', (c) => c.notNull())
    // What the sitting was scored as: a PHQ-2 that reached its cut point is a PHQ-9.
    .addColumn('scored_as', 'varchar(10)', (c) => c.notNull())
    // JSON object: item id -> the answer's value, or "declined".
    .addColumn('item_answers', 'text', (c) => c.notNull())
    // Null for the ASQ, which has outcomes, not a total.
    .addColumn('total', 'integer')
    .addColumn('band', 'varchar(200)')
    .addColumn('tier', 'varchar(10)', (c) => c.notNull())
    .addColumn('reason', 'varchar(1000)', (c) => c.notNull())
    .addColumn('acute', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('safety_assessment', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ...millis())
    .execute();
  await db.schema
    .createIndex('instrument_results_submission_idx')
    .on('instrument_results')
    .column('submission_id')
    .execute();
}
