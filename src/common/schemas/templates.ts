import { z } from 'zod/mini';
import { INSTRUMENT_IDS } from '../instruments/types';
import { databaseId } from './common';
import { FREQUENCY_LABELS, LIKERT_LABELS } from './likert-labels';
import { AnswerChoices, INSTRUMENT_BLOCK, LIKERT_VALUES, QuestionCategory, QuestionType } from './questions';

/** The contract of template and question management (spec sections 3 and 7; design section 5). */

export {
  AnswerChoices,
  INSTRUMENT_BLOCK,
  isLikertValue,
  Language,
  LIKERT_LABELS,
  LIKERT_MAX,
  LIKERT_MIN,
  LIKERT_VALUES,
  LikertValue,
  likertLabel,
  QUESTION_CATEGORIES,
  QUESTION_TYPES,
  QuestionCategory,
  QuestionType,
  type StoredQuestionType,
} from './questions';

export const QUESTION_TEXT_MAX_LENGTH = 1000;
export const ANSWER_CHOICE_MAX_LENGTH = 100;
export const QUESTION_ORDER_MAX = 10_000;
/** Caps that keep one institution from growing a survey nobody could answer. */
export const MAX_QUESTIONS_PER_TEMPLATE = 100;
export const MAX_TEMPLATES_PER_INSTITUTION = 100;

export const InstrumentIdInput = z.enum(INSTRUMENT_IDS, {
  error: `Instrument must be one of ${INSTRUMENT_IDS.join(', ')}`,
});

/** Refused whenever a request tries to set anything of an instrument block but its place. */
const INSTRUMENT_LOCKED_WORDS =
  "An instrument block is locked: its wording, item order and scale are the publisher's and cannot be changed.";
export const INSTRUMENT_LOCKED = `${INSTRUMENT_LOCKED_WORDS} Send only instrument_id and order.`;

/** Questions are added and removed, not edited: a move names nothing but the new order. */
export const ONLY_ORDER_CHANGES = `Only a question's order can change here. ${INSTRUMENT_LOCKED_WORDS}`;

/**
 * Each category's name where staff read about a student's answers: in the screening's reasons
 * ("Answered Very Poor to the sleep question") and beside the category means of the student's history.
 * The template editor's option labels ("Sleep Quality") are the spec's own, kept with the form.
 */
export const CATEGORY_NAMES: Record<QuestionCategory, string> = {
  general: 'General',
  sleep: 'Sleep',
  stress: 'Stress',
  support: 'Support',
  safety: 'Safety',
};

/** How a mean of Likert answers reads, wherever one is shown: its scale and which way is worse. */
export const LIKERT_SCALE_LEGEND = `1 = ${LIKERT_LABELS['1']} … 5 = ${LIKERT_LABELS['5']}; higher is worse`;

/** The same for a set of category means that may include the self-harm questions, whose scale has its own words. */
export const CATEGORY_MEANS_LEGEND = `${LIKERT_SCALE_LEGEND} (self-harm questions: 1 = ${FREQUENCY_LABELS['1']} … 5 = ${FREQUENCY_LABELS['5']})`;

const Timestamp = z.iso.datetime();

export const TemplateSummary = z.object({
  id: z.number().check(z.int()),
  /** The institution's active template; at most one is. */
  used: z.boolean(),
  /** Token of the shared link /survey/link/{hash_link}/. */
  hash_link: z.string(),
  question_count: z.number().check(z.int()),
  created_at: Timestamp,
});
export type TemplateSummary = z.infer<typeof TemplateSummary>;

export const TemplateListResponse = z.object({
  success: z.literal(true),
  templates: z.array(TemplateSummary),
});
export type TemplateListResponse = z.infer<typeof TemplateListResponse>;

export const CreateTemplateResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  template: TemplateSummary,
});
export type CreateTemplateResponse = z.infer<typeof CreateTemplateResponse>;

const requiredId = /* @__NO_SIDE_EFFECTS__ */ (label: string) =>
  databaseId(label, { notANumber: `${label} is required` });

/** Ids arrive from HTML forms as strings as often as numbers; both mean the same id. */
const numericString = (value: unknown) =>
  typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;

export const DeleteTemplateRequest = z.object({
  template_id: z.pipe(z.transform(numericString), requiredId('template_id')),
});
export type DeleteTemplateRequest = z.infer<typeof DeleteTemplateRequest>;

export const Question = z.object({
  id: z.number().check(z.int()),
  /** Stored as `position`; questions are listed by order, then id. */
  order: z.number().check(z.int()),
  question_text: z.string(),
  question_type: QuestionType,
  category: QuestionCategory,
  /** Likert only; null when the default labels apply. */
  answer_choices: z.nullable(AnswerChoices),
});
export type Question = z.infer<typeof Question>;

/** A locked instrument block in a template's question list: which instrument, and where. */
export const InstrumentBlock = z.object({
  kind: z.literal(INSTRUMENT_BLOCK),
  id: z.number().check(z.int()),
  order: z.number().check(z.int()),
  instrument_id: z.enum(INSTRUMENT_IDS),
  /** The instrument's published name, for the editor's list. */
  name: z.string(),
});
export type InstrumentBlock = z.infer<typeof InstrumentBlock>;

/** An entry of a template's list: a Likert or free-text question, or an instrument block. */
export const TemplateQuestion = z.union([Question, InstrumentBlock]);
export type TemplateQuestion = z.infer<typeof TemplateQuestion>;

export function isInstrumentBlock(
  entry: TemplateQuestion | ListedTemplateQuestion,
): entry is InstrumentBlock {
  return 'kind' in entry && entry.kind === INSTRUMENT_BLOCK;
}

/**
 * Where a question's translation into one language stands: none yet; saved for wording the
 * question has since changed (still shown to students, until corrected); saved for its wording now.
 */
export const TRANSLATION_STATUSES = ['missing', 'outdated', 'current'] as const;
export const TranslationStatus = z.enum(TRANSLATION_STATUSES);
export type TranslationStatus = z.infer<typeof TranslationStatus>;

export const QuestionTranslation = z.object({
  language: z.string(),
  status: TranslationStatus,
  /** null when missing. */
  question_text: z.nullable(z.string()),
  /** The question's own choices in this language; null when it has none, or when missing. */
  answer_choices: z.nullable(AnswerChoices),
});
export type QuestionTranslation = z.infer<typeof QuestionTranslation>;

/** A question as the editor lists it: with one translation entry per language besides the default. */
export const ListedQuestion = z.extend(Question, { translations: z.array(QuestionTranslation) });
export type ListedQuestion = z.infer<typeof ListedQuestion>;

export const ListedTemplateQuestion = z.union([ListedQuestion, InstrumentBlock]);
export type ListedTemplateQuestion = z.infer<typeof ListedTemplateQuestion>;

export const QuestionListResponse = z.object({
  success: z.literal(true),
  questions: z.array(ListedTemplateQuestion),
});
export type QuestionListResponse = z.infer<typeof QuestionListResponse>;

const AnswerChoicesInput = z.pipe(
  z
    .record(
      z.string(),
      z
        .string({ error: 'Each answer choice must be text' })
        .check(
          z.trim(),
          z.minLength(1, 'Answer choices must not be blank'),
          z.maxLength(
            ANSWER_CHOICE_MAX_LENGTH,
            `Each answer choice must be at most ${ANSWER_CHOICE_MAX_LENGTH} characters`,
          ),
        ),
      { error: 'Answer choices must be an object keyed 1 to 5' },
    )
    // Checked here rather than by a key schema, whose message zod replaces with a generic one.
    .check(
      z.refine(
        (choices) => Object.keys(choices).every((key) => (LIKERT_VALUES as readonly string[]).includes(key)),
        'Answer choices must be keyed 1 to 5',
      ),
    ),
  z.transform((choices: Record<string, string>) => choices as AnswerChoices),
);

const QuestionOrder = z.pipe(
  z.transform(numericString),
  z
    .number({ error: 'Order must be a number' })
    .check(
      z.int('Order must be a whole number'),
      z.gte(1, 'Order must be at least 1'),
      z.lte(QUESTION_ORDER_MAX, `Order must be at most ${QUESTION_ORDER_MAX}`),
    ),
);

export const NewQuestionRequest = z.object({
  question_text: z
    .string({ error: 'Question text is required' })
    .check(
      z.trim(),
      z.minLength(1, 'Question text is required'),
      z.maxLength(
        QUESTION_TEXT_MAX_LENGTH,
        `Question text must be at most ${QUESTION_TEXT_MAX_LENGTH} characters`,
      ),
    ),
  question_type: QuestionType,
  /** Text questions are always general (design section 5); omitted means general. */
  question_category: z._default(QuestionCategory, 'general'),
  order: QuestionOrder,
  /** Only the non-empty custom labels; omitted, null or {} mean the default labels. */
  answer_choices: z.nullish(AnswerChoicesInput),
});
export type NewQuestionRequest = z.input<typeof NewQuestionRequest>;

export const AddQuestionResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  question: Question,
});
export type AddQuestionResponse = z.infer<typeof AddQuestionResponse>;

export const DeleteQuestionRequest = z.object({
  question_id: z.pipe(z.transform(numericString), requiredId('question_id')),
});
export type DeleteQuestionRequest = z.infer<typeof DeleteQuestionRequest>;

/** Only the fields a request may set; any other (wording, items, scale) is refused, not ignored. */
/* @__NO_SIDE_EFFECTS__ */
function onlyKeys(allowed: readonly string[], message: string) {
  return z.refine(
    (body: unknown) =>
      typeof body !== 'object' || body === null || Object.keys(body).every((key) => allowed.includes(key)),
    message,
  );
}

/** POST /api/survey-templates/{id}/instruments/: adds a whole instrument block at `order`. */
export const NewInstrumentBlockRequest = z.pipe(
  // The keys first: an attempt to send wording is told the block is locked, whatever else is wrong.
  z.unknown().check(onlyKeys(['instrument_id', 'order'], INSTRUMENT_LOCKED)),
  z.object({ instrument_id: InstrumentIdInput, order: QuestionOrder }),
);
export type NewInstrumentBlockRequest = z.input<typeof NewInstrumentBlockRequest>;

export const AddInstrumentBlockResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  question: InstrumentBlock,
});
export type AddInstrumentBlockResponse = z.infer<typeof AddInstrumentBlockResponse>;

/**
 * PATCH /api/survey-templates/{id}/questions/{questionId}/: moves a question or an instrument
 * block. Its order is all that can change; a request naming anything else changes nothing.
 */
export const MoveQuestionRequest = z.pipe(
  z.unknown().check(onlyKeys(['order'], ONLY_ORDER_CHANGES)),
  z.object({ order: QuestionOrder }),
);
export type MoveQuestionRequest = z.input<typeof MoveQuestionRequest>;

export const MoveQuestionResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  question: TemplateQuestion,
});
export type MoveQuestionResponse = z.infer<typeof MoveQuestionResponse>;

/**
 * PUT /api/survey-templates/{id}/questions/{questionId}/translations/{language}/: a question's
 * wording in that language. A question with custom answer choices needs each of them translated
 * (the same keys); one without takes none.
 */
export const SetTranslationRequest = z.object({
  question_text: NewQuestionRequest.shape.question_text,
  answer_choices: z.nullish(AnswerChoicesInput),
});
export type SetTranslationRequest = z.input<typeof SetTranslationRequest>;

export const SetTranslationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  translation: QuestionTranslation,
});
export type SetTranslationResponse = z.infer<typeof SetTranslationResponse>;
