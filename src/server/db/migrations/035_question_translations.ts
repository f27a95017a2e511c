import type { Kysely } from 'kysely';
import { autoIncrementId, millis } from './columns';

/**
 * Surveys in more than one language. A question may have one translation per language: its text
 * and, when the question has custom answer choices, the same choices in that language. Each keeps
 * a fingerprint of the wording it was translated from, so a later change of the question shows
 * the translation as outdated. Every answer records the language its question was shown in;
 * answers given before there were translations were all given in English.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('question_translations')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('language', 'varchar(10)', (c) => c.notNull())
    .addColumn('question_text', 'varchar(1000)', (c) => c.notNull())
    // JSON object { "1".."5": label } with the question's own keys, or null.
    .addColumn('answer_choices', 'text')
    // sha256 (hex) of the question's text and choices when the translation was saved.
    .addColumn('source_fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('translated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('translated_at', ...millis())
    .addUniqueConstraint('question_translations_question_language_unique', ['question_id', 'language'])
    .execute();

  await db.schema
    .alterTable('answers')
    .addColumn('language', 'varchar(10)', (c) => c.notNull().defaultTo('en'))
    .execute();
  await db.schema
    .alterTable('anonymous_answers')
    .addColumn('language', 'varchar(10)', (c) => c.notNull().defaultTo('en'))
    .execute();
}
