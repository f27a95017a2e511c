import type { Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

/**
 * Anonymous campaigns (design section 14). Their answers are kept in tables of their own, apart
 * from the students': no name, address, network address, student, respondent or invitation is
 * stored with them, and the day they were sent stands in for the time. The invitation is marked
 * used separately. A student who asks to be contacted leaves only the contact details they chose
 * to share, on the case it opens, never on the answer row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('campaigns')
    .addColumn('anonymous', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('anonymous_submissions')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('campaign_id', 'integer', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('template_id', 'integer')
    .addColumn('tier', 'varchar(10)', (c) => c.notNull())
    .addColumn('likert_mean', 'real')
    .addColumn('lexicon_version', 'varchar(40)')
    // The UTC day it was sent (its midnight, in epoch milliseconds): never the time of day.
    .addColumn('sent_on', ...millis())
    .execute();
  await db.schema
    .createIndex('anonymous_submissions_campaign_idx')
    .on('anonymous_submissions')
    .columns(['campaign_id'])
    .execute();

  await db.schema
    .createTable('anonymous_answers')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('submission_id', 'integer', (c) =>
      c.notNull().references('anonymous_submissions.id').onDelete('cascade'),
    )
    .addColumn('question_id', 'integer')
    .addColumn('question_text', 'text', (c) => c.notNull())
    // 'likert', 'text', or 'instrument' (its item answers as JSON in value).
    .addColumn('question_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('category', 'varchar(20)')
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('anonymous_answers_submission_idx')
    .on('anonymous_answers')
    .columns(['submission_id'])
    .execute();

  // The offer made to the tab that sent an anonymous answer: used once, within the hour, to ask
  // for a counsellor. Only its hash is stored; the row goes when it is used or has expired.
  await db.schema
    .createTable('contact_offers')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('institution_id', 'integer', (c) =>
      c.notNull().references('institutions.id').onDelete('cascade'),
    )
    .addColumn('submission_id', 'integer', (c) =>
      c.notNull().references('anonymous_submissions.id').onDelete('cascade'),
    )
    .addColumn('tier', 'varchar(10)', (c) => c.notNull())
    .addColumn('expires_at', ...millis())
    .execute();

  // What a student chose to share when asking to be contacted, on the case it opened.
  await db.schema
    .createTable('case_contacts')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('case_id', 'integer', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('name', 'varchar(200)')
    .addColumn('email', 'varchar(254)')
    .addColumn('phone', 'varchar(40)')
    .addColumn('tier', 'varchar(10)', (c) => c.notNull())
    // JSON [{question, answer}] when the student chose to share their answers; null otherwise.
    .addColumn('answers', 'text')
    .addColumn('asked_at', ...millis())
    .execute();
  await db.schema.createIndex('case_contacts_case_idx').on('case_contacts').columns(['case_id']).execute();
}
