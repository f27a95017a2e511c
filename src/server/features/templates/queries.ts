import { type Insertable, sql } from 'kysely';
import type { Executor } from '../../db/executor';
import type { QuestionsTable, QuestionTranslationsTable } from '../../db/types';

const questionColumns = [
  'questions.id',
  'questions.template_id',
  'questions.question_text',
  'questions.question_type',
  'questions.category',
  'questions.answer_choices',
  'questions.position',
  'questions.instrument_id',
] as const;

/** The institution's templates, oldest first (the first one is the fallback when none is active). */
export function listTemplates(db: Executor, institutionId: number) {
  return db
    .selectFrom('survey_templates')
    .leftJoin('active_templates', 'active_templates.template_id', 'survey_templates.id')
    .select((eb) => [
      'survey_templates.id',
      'survey_templates.hash_link',
      'survey_templates.created_at',
      eb('active_templates.template_id', 'is not', null).as('used'),
      eb
        .selectFrom('questions')
        .select(eb.fn.countAll<number>().as('count'))
        .whereRef('questions.template_id', '=', 'survey_templates.id')
        .as('question_count'),
    ])
    .where('survey_templates.institution_id', '=', institutionId)
    .orderBy('survey_templates.id')
    .execute();
}

export function countTemplates(db: Executor, institutionId: number) {
  return db
    .selectFrom('survey_templates')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('institution_id', '=', institutionId)
    .executeTakeFirstOrThrow();
}

export async function insertTemplate(
  db: Executor,
  template: { institutionId: number; hashLink: string; createdAt: number },
): Promise<number> {
  const row = await db
    .insertInto('survey_templates')
    .values({
      institution_id: template.institutionId,
      hash_link: template.hashLink,
      created_at: template.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The template, only if it belongs to the institution: another tenant's id looks like no id at all. */
export function findTemplate(db: Executor, institutionId: number, templateId: number) {
  return db
    .selectFrom('survey_templates')
    .select(['id', 'institution_id', 'hash_link', 'created_at'])
    .where('id', '=', templateId)
    .where('institution_id', '=', institutionId)
    .executeTakeFirst();
}

/** Its questions, drafts and active mark go with it (foreign keys cascade). */
export async function deleteTemplate(
  db: Executor,
  institutionId: number,
  templateId: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom('survey_templates')
    .where('id', '=', templateId)
    .where('institution_id', '=', institutionId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Makes the template the institution's active one in a single statement. The primary key of
 * active_templates is the institution, so concurrent calls leave exactly one winner, and the
 * SELECT only yields a row for the institution's own template.
 */
export async function activateTemplate(
  db: Executor,
  institutionId: number,
  templateId: number,
): Promise<boolean> {
  const result = await db
    .insertInto('active_templates')
    .columns(['institution_id', 'template_id'])
    .expression((eb) =>
      eb
        .selectFrom('survey_templates')
        .select(['institution_id', 'id'])
        .where('id', '=', templateId)
        .where('institution_id', '=', institutionId),
    )
    .onConflict((oc) =>
      oc.column('institution_id').doUpdateSet((eb) => ({ template_id: eb.ref('excluded.template_id') })),
    )
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export function listQuestions(db: Executor, templateId: number) {
  return db
    .selectFrom('questions')
    .select(questionColumns)
    .where('template_id', '=', templateId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export function countQuestions(db: Executor, templateId: number) {
  return db
    .selectFrom('questions')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('template_id', '=', templateId)
    .executeTakeFirstOrThrow();
}

type NewQuestion = Pick<
  QuestionsTable,
  'question_text' | 'question_type' | 'category' | 'answer_choices' | 'position' | 'created_at'
> &
  Partial<Pick<QuestionsTable, 'instrument_id'>>;

/**
 * Inserts the question only while the template exists and belongs to the institution, in one
 * statement, so a concurrent template deletion cannot turn into a foreign-key error.
 */
export function insertQuestion(
  db: Executor,
  institutionId: number,
  templateId: number,
  question: NewQuestion,
) {
  return db
    .insertInto('questions')
    .columns([
      'template_id',
      'question_text',
      'question_type',
      'category',
      'answer_choices',
      'position',
      'created_at',
      'instrument_id',
    ])
    .expression((eb) =>
      eb
        .selectFrom('survey_templates')
        .select([
          'id',
          sql.val(question.question_text).as('question_text'),
          sql.val(question.question_type).as('question_type'),
          sql.val(question.category).as('category'),
          sql.val(question.answer_choices).as('answer_choices'),
          // Typed: PostgreSQL would otherwise take the parameters for text.
          sql<number>`cast(${question.position} as integer)`.as('position'),
          sql<number>`cast(${question.created_at} as bigint)`.as('created_at'),
          sql.val(question.instrument_id ?? null).as('instrument_id'),
        ])
        .where('id', '=', templateId)
        .where('institution_id', '=', institutionId),
    )
    .returning(questionColumns)
    .executeTakeFirst();
}

/** Moves a question of the template; returns it as it now stands, or undefined when there is none. */
export function moveQuestion(db: Executor, templateId: number, questionId: number, position: number) {
  return db
    .updateTable('questions')
    .set({ position })
    .where('id', '=', questionId)
    .where('template_id', '=', templateId)
    .returning(questionColumns)
    .executeTakeFirst();
}

/** The template's instrument blocks, to refuse asking an instrument's items twice. */
export function instrumentsOfTemplate(db: Executor, templateId: number) {
  return db
    .selectFrom('questions')
    .select(['instrument_id'])
    .where('template_id', '=', templateId)
    .where('instrument_id', 'is not', null)
    .execute();
}

export async function deleteQuestion(db: Executor, templateId: number, questionId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('questions')
    .where('id', '=', questionId)
    .where('template_id', '=', templateId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A new template's questions, all at once (the template is this transaction's own). */
export async function insertQuestions(db: Executor, questions: Insertable<QuestionsTable>[]) {
  await db.insertInto('questions').values(questions).execute();
}

/** The institution a survey link belongs to, or undefined when no survey has that link. */
export function institutionOfLink(db: Executor, hashLink: string) {
  return db
    .selectFrom('survey_templates')
    .innerJoin('institutions', 'institutions.id', 'survey_templates.institution_id')
    .select(['institutions.id', 'institutions.name'])
    .where('survey_templates.hash_link', '=', hashLink)
    .executeTakeFirst();
}

/** One question of the template, or undefined when the template has no such question. */
export function findQuestion(db: Executor, templateId: number, questionId: number) {
  return db
    .selectFrom('questions')
    .select(questionColumns)
    .where('id', '=', questionId)
    .where('template_id', '=', templateId)
    .executeTakeFirst();
}

/** Every translation of the template's questions (into every language). */
export function translationsOfTemplate(db: Executor, templateId: number) {
  return db
    .selectFrom('question_translations')
    .innerJoin('questions', 'questions.id', 'question_translations.question_id')
    .select([
      'question_translations.question_id',
      'question_translations.language',
      'question_translations.question_text',
      'question_translations.answer_choices',
      'question_translations.source_fingerprint',
    ])
    .where('questions.template_id', '=', templateId)
    .execute();
}

/** The template's question translations into one language. */
export function templateTranslationsIn(db: Executor, templateId: number, language: string) {
  return db
    .selectFrom('question_translations')
    .innerJoin('questions', 'questions.id', 'question_translations.question_id')
    .select([
      'question_translations.question_id',
      'question_translations.question_text',
      'question_translations.answer_choices',
    ])
    .where('questions.template_id', '=', templateId)
    .where('question_translations.language', '=', language)
    .execute();
}

/** Saves the question's translation into its language, replacing the one there was. */
export async function saveTranslation(db: Executor, translation: Insertable<QuestionTranslationsTable>) {
  await db
    .insertInto('question_translations')
    .values(translation)
    .onConflict((oc) =>
      oc.columns(['question_id', 'language']).doUpdateSet({
        question_text: translation.question_text,
        answer_choices: translation.answer_choices ?? null,
        source_fingerprint: translation.source_fingerprint,
        translated_by: translation.translated_by ?? null,
        translated_at: translation.translated_at,
      }),
    )
    .execute();
}

export async function deleteTranslation(
  db: Executor,
  questionId: number,
  language: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('question_translations')
    .where('question_id', '=', questionId)
    .where('language', '=', language)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
