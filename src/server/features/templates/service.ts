import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { INSTRUMENTS, type InstrumentId } from '../../../common/instruments';
import { DEFAULT_LANGUAGE } from '../../../common/languages';
import {
  AnswerChoices,
  INSTRUMENT_BLOCK,
  type InstrumentBlock,
  isInstrumentBlock,
  isLikertValue,
  type ListedTemplateQuestion,
  likertLabel,
  MAX_QUESTIONS_PER_TEMPLATE,
  MAX_TEMPLATES_PER_INSTITUTION,
  type Question,
  type QuestionCategory,
  type QuestionTranslation,
  type QuestionType,
  type StoredQuestionType,
  type TemplateQuestion,
  type TemplateSummary,
} from '../../../common/schemas/templates';
import type { Executor } from '../../db/executor';
import { parseStoredJson } from '../../db/stored-json';
import { writeTransaction } from '../../db/transaction-runner';
import type { Database, QuestionsTable } from '../../db/types';
import { type AuditActor, type AuditEntry, recordAudit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { supportedLanguages } from '../../lib/languages';
import { now } from '../../lib/time';
import { newHashLink } from './default-template';
import * as queries from './queries';

export const TEMPLATE_NOT_FOUND = 'Template not found';
export const QUESTION_NOT_FOUND = 'Question not found';

type QuestionRow = Pick<
  QuestionsTable,
  'question_text' | 'question_type' | 'category' | 'answer_choices' | 'position' | 'instrument_id'
> & { id: number };

/**
 * Instruments that ask the same items: a PHQ-2 is the PHQ-9's first two items, a GAD-2 the
 * GAD-7's. A template holds at most one of each family, so no item is asked twice.
 */
const INSTRUMENT_FAMILY: Record<InstrumentId, string> = {
  phq9: 'phq',
  phq2: 'phq',
  gad7: 'gad',
  gad2: 'gad',
  asq: 'asq',
  k10: 'k10',
  who5: 'who5',
};

/** Stored JSON written by this module; anything unreadable falls back to the default labels. */
export function parseAnswerChoices(stored: string | null): AnswerChoices | null {
  return parseStoredJson(AnswerChoices, stored);
}

/** The words a student saw for a Likert answer to a question with these stored choices; null for written answers. */
export function answerLabelOf(
  question: { question_type: StoredQuestionType; answer_choices: string | null },
  value: string,
): string | null {
  if (question.question_type !== 'likert' || !isLikertValue(value)) return null;
  return likertLabel(value, parseAnswerChoices(question.answer_choices));
}

/** The instrument of a stored block; null for a Likert or free-text question. */
export function instrumentOf(row: Pick<QuestionRow, 'question_type' | 'instrument_id'>): InstrumentId | null {
  return row.question_type === INSTRUMENT_BLOCK && row.instrument_id ? row.instrument_id : null;
}

function toInstrumentBlock(row: QuestionRow, instrumentId: InstrumentId): InstrumentBlock {
  return {
    kind: INSTRUMENT_BLOCK,
    id: row.id,
    order: row.position,
    instrument_id: instrumentId,
    name: INSTRUMENTS[instrumentId].name,
  };
}

function toQuestion(row: QuestionRow): TemplateQuestion {
  const instrumentId = instrumentOf(row);
  if (instrumentId) return toInstrumentBlock(row, instrumentId);
  return toPlainQuestion(row as QuestionRow & { question_type: QuestionType });
}

function toPlainQuestion(row: QuestionRow & { question_type: QuestionType }): Question {
  return {
    id: row.id,
    order: row.position,
    question_text: row.question_text,
    question_type: row.question_type,
    category: row.category,
    answer_choices: parseAnswerChoices(row.answer_choices),
  };
}

function toTemplateSummary(row: {
  id: number;
  hash_link: string;
  created_at: number;
  used: unknown;
  question_count: unknown;
}): TemplateSummary {
  return {
    id: row.id,
    // SQLite answers booleans and counts as integers, PostgreSQL counts as strings.
    used: Boolean(row.used),
    hash_link: row.hash_link,
    question_count: Number(row.question_count ?? 0),
    created_at: new Date(row.created_at).toISOString(),
  };
}

export async function listTemplates(options: {
  db: Executor;
  institutionId: number;
}): Promise<TemplateSummary[]> {
  const rows = await queries.listTemplates(options.db, options.institutionId);
  return rows.map(toTemplateSummary);
}

/** Who made a change, when a person did: each change then writes its audit row with it. */
type Audited = { actor?: AuditActor };

async function audit(trx: Executor, options: Audited, entry: AuditEntry) {
  if (options.actor) await recordAudit(trx, options.actor, entry);
}

/** A new, empty template; the admin adds its questions with the question editor. */
export async function createTemplate(
  options: {
    db: Kysely<Database>;
    institutionId: number;
  } & Audited,
): Promise<TemplateSummary> {
  const { db, institutionId } = options;
  return writeTransaction(db, async (trx) => {
    const { count } = await queries.countTemplates(trx, institutionId);
    if (Number(count) >= MAX_TEMPLATES_PER_INSTITUTION) {
      throw new AppError(
        'CONFLICT',
        `An institution can have at most ${MAX_TEMPLATES_PER_INSTITUTION} templates. Delete one first.`,
      );
    }
    const createdAt = now();
    const hashLink = newHashLink();
    const id = await queries.insertTemplate(trx, { institutionId, hashLink, createdAt });
    await audit(trx, options, { action: 'template.create', subject: { type: 'template', id } });
    return toTemplateSummary({
      id,
      hash_link: hashLink,
      created_at: createdAt,
      used: false,
      question_count: 0,
    });
  });
}

export async function deleteTemplate(
  options: {
    db: Kysely<Database>;
    institutionId: number;
    templateId: number;
  } & Audited,
): Promise<void> {
  await writeTransaction(options.db, async (trx) => {
    const deleted = await queries.deleteTemplate(trx, options.institutionId, options.templateId);
    if (!deleted) throw new AppError('NOT_FOUND', TEMPLATE_NOT_FOUND);
    await audit(trx, options, {
      action: 'template.delete',
      subject: { type: 'template', id: options.templateId },
    });
  });
}

/** Activates the template and, in the same statement, deactivates whichever was active. */
export async function activateTemplate(
  options: {
    db: Kysely<Database>;
    institutionId: number;
    templateId: number;
  } & Audited,
): Promise<void> {
  await writeTransaction(options.db, async (trx) => {
    const activated = await queries.activateTemplate(trx, options.institutionId, options.templateId);
    if (!activated) throw new AppError('NOT_FOUND', TEMPLATE_NOT_FOUND);
    await audit(trx, options, {
      action: 'template.use',
      subject: { type: 'template', id: options.templateId },
    });
  });
}

async function requireTemplate(db: Executor, institutionId: number, templateId: number) {
  const template = await queries.findTemplate(db, institutionId, templateId);
  if (!template) throw new AppError('NOT_FOUND', TEMPLATE_NOT_FOUND);
  return template;
}

/**
 * The fingerprint of a question's wording (text and custom choices): a translation keeps the one
 * it was made from, and is outdated once the question's differs.
 */
export function questionFingerprint(question: Pick<QuestionRow, 'question_text' | 'answer_choices'>): string {
  const choices = parseAnswerChoices(question.answer_choices) ?? {};
  const sorted = Object.entries(choices).sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256')
    .update(JSON.stringify([question.question_text, sorted]))
    .digest('hex');
}

/** The languages a question may be translated into: every one the product offers but the default. */
export function translationLanguages(): string[] {
  return supportedLanguages().filter((language) => language !== DEFAULT_LANGUAGE);
}

/** The template's questions, each with where its translations stand (an instrument block has none). */
export async function listQuestions(options: {
  db: Executor;
  institutionId: number;
  templateId: number;
}): Promise<ListedTemplateQuestion[]> {
  const { db, institutionId, templateId } = options;
  await requireTemplate(db, institutionId, templateId);
  const rows = await queries.listQuestions(db, templateId);
  const saved = await queries.translationsOfTemplate(db, templateId);
  const languages = translationLanguages();
  return rows.map((row) => {
    const entry = toQuestion(row);
    if (isInstrumentBlock(entry)) return entry;
    const fingerprint = questionFingerprint(row);
    const translations = languages.map((language): QuestionTranslation => {
      const translation = saved.find((t) => t.question_id === row.id && t.language === language);
      if (!translation) return { language, status: 'missing', question_text: null, answer_choices: null };
      return {
        language,
        status: translation.source_fingerprint === fingerprint ? 'current' : 'outdated',
        question_text: translation.question_text,
        answer_choices: parseAnswerChoices(translation.answer_choices),
      };
    });
    return { ...entry, translations };
  });
}

export const NOT_A_TRANSLATION_LANGUAGE = (language: string) =>
  `Questions cannot be translated into "${language}": translate into ${translationLanguages().join(', ') || 'no language yet'}.`;
export const DEFAULT_LANGUAGE_IS_THE_QUESTION = `${DEFAULT_LANGUAGE} is the language questions are written in: change the question itself instead.`;
export const INSTRUMENT_NOT_TRANSLATABLE =
  'A validated instrument is asked only in its official translations, and none is available here: its items cannot be translated.';

function requireTranslationLanguage(language: string) {
  if (language === DEFAULT_LANGUAGE) throw new AppError('BAD_REQUEST', DEFAULT_LANGUAGE_IS_THE_QUESTION);
  if (!translationLanguages().includes(language)) {
    throw new AppError('BAD_REQUEST', NOT_A_TRANSLATION_LANGUAGE(language));
  }
}

/** The template's question (of the caller's institution), never an instrument block's items. */
async function requireTranslatableQuestion(
  trx: Executor,
  institutionId: number,
  templateId: number,
  questionId: number,
) {
  await requireTemplate(trx, institutionId, templateId);
  const row = await queries.findQuestion(trx, templateId, questionId);
  if (!row) throw new AppError('NOT_FOUND', QUESTION_NOT_FOUND);
  if (instrumentOf(row)) throw new AppError('BAD_REQUEST', INSTRUMENT_NOT_TRANSLATABLE);
  return row;
}

/** The translated choices, held to the question's own: the same answers, each translated. */
function checkTranslatedChoices(
  own: AnswerChoices | null,
  given: AnswerChoices | null | undefined,
): AnswerChoices | null {
  const ownKeys = Object.keys(own ?? {}).sort();
  const givenKeys = Object.keys(given ?? {}).sort();
  if (ownKeys.length !== givenKeys.length || ownKeys.some((key, index) => key !== givenKeys[index])) {
    throw new AppError(
      'BAD_REQUEST',
      ownKeys.length === 0
        ? 'This question uses the standard answer labels: send no answer_choices with its translation.'
        : `This question has ${ownKeys.length} custom answer choice${ownKeys.length === 1 ? '' : 's'} (${ownKeys.join(', ')}): translate each of them, and no other.`,
    );
  }
  return ownKeys.length === 0 ? null : (given as AnswerChoices);
}

/** Saves a question's translation into a language, replacing any there was; it is current from now. */
export async function setQuestionTranslation(
  options: {
    db: Kysely<Database>;
    institutionId: number;
    templateId: number;
    questionId: number;
    language: string;
    questionText: string;
    answerChoices: AnswerChoices | null | undefined;
    translatedBy: number | null;
  } & Audited,
): Promise<QuestionTranslation> {
  const { db, institutionId, templateId, questionId, language } = options;
  requireTranslationLanguage(language);
  return writeTransaction(db, async (trx) => {
    const question = await requireTranslatableQuestion(trx, institutionId, templateId, questionId);
    const choices = checkTranslatedChoices(
      parseAnswerChoices(question.answer_choices),
      options.answerChoices,
    );
    await queries.saveTranslation(trx, {
      question_id: questionId,
      language,
      question_text: options.questionText,
      answer_choices: choices ? JSON.stringify(choices) : null,
      source_fingerprint: questionFingerprint(question),
      translated_by: options.translatedBy,
      translated_at: now(),
    });
    await audit(trx, options, {
      action: 'question.translate',
      subject: { type: 'question', id: questionId },
      detail: { template_id: templateId, language },
    });
    return { language, status: 'current', question_text: options.questionText, answer_choices: choices };
  });
}

export async function deleteQuestionTranslation(
  options: {
    db: Kysely<Database>;
    institutionId: number;
    templateId: number;
    questionId: number;
    language: string;
  } & Audited,
): Promise<void> {
  const { db, institutionId, templateId, questionId, language } = options;
  requireTranslationLanguage(language);
  await writeTransaction(db, async (trx) => {
    await requireTranslatableQuestion(trx, institutionId, templateId, questionId);
    const deleted = await queries.deleteTranslation(trx, questionId, language);
    if (!deleted) throw new AppError('NOT_FOUND', 'This question has no translation into that language');
    await audit(trx, options, {
      action: 'question.translation.delete',
      subject: { type: 'question', id: questionId },
      detail: { template_id: templateId, language },
    });
  });
}

export async function addQuestion(
  options: {
    db: Kysely<Database>;
    institutionId: number;
    templateId: number;
    questionText: string;
    questionType: QuestionType;
    category: QuestionCategory;
    order: number;
    answerChoices: AnswerChoices | null | undefined;
  } & Audited,
): Promise<Question> {
  const { db, institutionId, templateId, questionType, category } = options;
  if (questionType === 'text' && category !== 'general') {
    throw new AppError('BAD_REQUEST', 'Text questions can only use the general category');
  }
  const hasChoices = options.answerChoices != null && Object.keys(options.answerChoices).length > 0;
  if (questionType === 'text' && hasChoices) {
    throw new AppError('BAD_REQUEST', 'Custom answer choices are only for likert questions');
  }
  return writeTransaction(db, async (trx) => {
    await requireTemplate(trx, institutionId, templateId);
    await requireRoomForQuestion(trx, templateId);
    const row = await queries.insertQuestion(trx, institutionId, templateId, {
      question_text: options.questionText,
      question_type: questionType,
      category,
      answer_choices: hasChoices ? JSON.stringify(options.answerChoices) : null,
      position: options.order,
      created_at: now(),
    });
    // No row: the template was deleted between the check and the insert.
    if (!row) throw new AppError('NOT_FOUND', TEMPLATE_NOT_FOUND);
    await audit(trx, options, {
      action: 'question.add',
      subject: { type: 'question', id: row.id },
      detail: { template_id: templateId },
    });
    return toPlainQuestion({ ...row, question_type: questionType });
  });
}

async function requireRoomForQuestion(trx: Executor, templateId: number) {
  const { count } = await queries.countQuestions(trx, templateId);
  if (Number(count) >= MAX_QUESTIONS_PER_TEMPLATE) {
    throw new AppError('CONFLICT', `A template can have at most ${MAX_QUESTIONS_PER_TEMPLATE} questions`);
  }
}

/**
 * Adds a whole instrument as one locked block. Only which instrument and where are stored: its
 * wording, items and scale are always read from the instrument library, so they cannot drift.
 */
export async function addInstrumentBlock(
  options: {
    db: Kysely<Database>;
    institutionId: number;
    templateId: number;
    instrumentId: InstrumentId;
    order: number;
  } & Audited,
): Promise<InstrumentBlock> {
  const { db, institutionId, templateId, instrumentId } = options;
  const instrument = INSTRUMENTS[instrumentId];
  return writeTransaction(db, async (trx) => {
    await requireTemplate(trx, institutionId, templateId);
    await requireRoomForQuestion(trx, templateId);
    const present = await queries.instrumentsOfTemplate(trx, templateId);
    const clash = present.find(
      (entry) =>
        entry.instrument_id && INSTRUMENT_FAMILY[entry.instrument_id] === INSTRUMENT_FAMILY[instrumentId],
    );
    if (clash?.instrument_id) {
      throw new AppError(
        'CONFLICT',
        `This template already has the ${INSTRUMENTS[clash.instrument_id].name}, which asks the same questions. Remove it first.`,
      );
    }
    const row = await queries.insertQuestion(trx, institutionId, templateId, {
      question_text: instrument.name,
      question_type: INSTRUMENT_BLOCK,
      category: 'general',
      answer_choices: null,
      position: options.order,
      created_at: now(),
      instrument_id: instrumentId,
    });
    if (!row) throw new AppError('NOT_FOUND', TEMPLATE_NOT_FOUND);
    await audit(trx, options, {
      action: 'question.add',
      subject: { type: 'question', id: row.id },
      detail: { template_id: templateId, instrument_id: instrumentId },
    });
    return toInstrumentBlock(row, instrumentId);
  });
}

/** Moves a question or a whole instrument block to another order; nothing else of it changes. */
export async function moveQuestion(
  options: {
    db: Kysely<Database>;
    institutionId: number;
    templateId: number;
    questionId: number;
    order: number;
  } & Audited,
): Promise<TemplateQuestion> {
  const { db, institutionId, templateId, questionId } = options;
  return writeTransaction(db, async (trx) => {
    await requireTemplate(trx, institutionId, templateId);
    const row = await queries.moveQuestion(trx, templateId, questionId, options.order);
    if (!row) throw new AppError('NOT_FOUND', QUESTION_NOT_FOUND);
    await audit(trx, options, {
      action: 'question.move',
      subject: { type: 'question', id: questionId },
      detail: { template_id: templateId, order: options.order },
    });
    return toQuestion(row);
  });
}

export async function deleteQuestion(
  options: {
    db: Kysely<Database>;
    institutionId: number;
    templateId: number;
    questionId: number;
  } & Audited,
): Promise<void> {
  const { db, institutionId, templateId, questionId } = options;
  await writeTransaction(db, async (trx) => {
    await requireTemplate(trx, institutionId, templateId);
    const deleted = await queries.deleteQuestion(trx, templateId, questionId);
    if (!deleted) throw new AppError('NOT_FOUND', QUESTION_NOT_FOUND);
    await audit(trx, options, {
      action: 'question.delete',
      subject: { type: 'question', id: questionId },
      detail: { template_id: templateId },
    });
  });
}
