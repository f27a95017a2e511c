import { z } from 'zod/mini';
// The module itself, not the risk package's index: the web app parses this contract, and the
// index would bring the screening's word lists and their compilation into every survey page.
import {
  DECLINED,
  INSTRUMENT_IDS,
  type InstrumentAnswers,
  type InstrumentForm as InstrumentFormShape,
} from '../instruments/types';
import { CrisisHelp } from '../risk/crisis-resources';
import { databaseId, EMAIL_MAX_LENGTH } from './common';
import { ownData } from './identity';
import { AnswerChoices, INSTRUMENT_BLOCK, Language, QuestionCategory, QuestionType } from './questions';
import {
  isSurveyInstrument,
  LINK_NOT_FOUND,
  NO_SURVEY_FOR_INSTITUTION,
  STUDENT_NAME_MAX_LENGTH,
  TEXT_ANSWER_MAX_LENGTH,
} from './values';

/** The contract of taking a survey, submitting it and its drafts (spec sections 3, 4 and 7; design section 5). */

export { LINK_NOT_FOUND, NO_SURVEY_FOR_INSTITUTION, STUDENT_NAME_MAX_LENGTH, TEXT_ANSWER_MAX_LENGTH };

/** More answers than any template can hold questions is not a survey, it is abuse. */
const MAX_ANSWERS = 200;

/** A question id as an object key: no sign, no leading zero, so each question has one spelling. */
const QUESTION_ID_KEY = /^[1-9][0-9]{0,9}$/;

export const SurveyQuestion = z.object({
  id: z.number().check(z.int()),
  text: z.string(),
  question_type: QuestionType,
  category: QuestionCategory,
  /** Likert only; null when the default labels apply. */
  answer_choices: z.nullable(AnswerChoices),
  order: z.number().check(z.int()),
  /** The language text and choices are in, all of them: the one asked for when the question has a translation into it, else the default. */
  language: z.string(),
});
export type SurveyQuestion = z.infer<typeof SurveyQuestion>;

const InstrumentItem = z.object({
  id: z.string(),
  number: z.number(),
  text: z.string(),
  declinable: z.optional(z.boolean()),
});

/**
 * An instrument's form (`InstrumentForm`, instruments/types.ts) in the library's own shape, so the
 * one rule of which items are asked reads it alike on the survey screen and on the server.
 */
const InstrumentForm: z.ZodMiniType<InstrumentFormShape> = z.object({
  name: z.string(),
  instructions: z.nullable(z.string()),
  items: z.array(InstrumentItem),
  conditionalItems: z.array(InstrumentItem),
  askConditionalItemsWhen: z.nullable(
    z.union([
      z.object({ kind: z.literal('totalAtLeast'), atLeast: z.number() }),
      z.object({
        kind: z.literal('anyAnswerIn'),
        values: z.array(z.union([z.number(), z.literal(DECLINED)])),
      }),
    ]),
  ),
  scale: z.array(z.object({ value: z.number(), label: z.string() })),
  licence: z.nullable(z.string()),
});

/**
 * A validated instrument in the survey, with its form as the instrument library holds it: its
 * stem, items, scale and licence line, the publisher's wording everywhere. The server sends the
 * forms of the survey's own instruments, so the survey screen carries none of the library.
 */
export const SurveyInstrumentBlock = z.object({
  id: z.number().check(z.int()),
  kind: z.literal(INSTRUMENT_BLOCK),
  instrument_id: z.enum(INSTRUMENT_IDS),
  instrument: InstrumentForm,
  order: z.number().check(z.int()),
  /** Always the default language: an instrument is asked only in its official wording. */
  language: z.string(),
});
export type SurveyInstrumentBlock = z.infer<typeof SurveyInstrumentBlock>;

export const SurveyEntry = z.union([SurveyQuestion, SurveyInstrumentBlock]);
export type SurveyEntry = z.infer<typeof SurveyEntry>;

export { isSurveyInstrument };

/**
 * The query of every survey a student opens: the language to show it in, one the product offers.
 * Left out, the language the student chose for the site (or their browser's) is used.
 */
export const SurveyLanguageQuery = z.object({ language: z.optional(Language) });
export type SurveyLanguageQuery = z.infer<typeof SurveyLanguageQuery>;

export const SurveyQuestionsResponse = z.object({
  success: z.literal(true),
  questions: z.array(SurveyEntry),
  template_id: z.number().check(z.int()),
});
export type SurveyQuestionsResponse = z.infer<typeof SurveyQuestionsResponse>;

/** An item id of an instrument as an object key ("phq9_9", "asq_5"). */
const ITEM_ID_KEY = /^[a-z0-9_]{1,20}$/;
const MAX_ITEM_ANSWERS = 50;
/** No published scale here goes past this; anything larger is not an answer. */
const ITEM_VALUE_MAX = 100;

/** A Likert value, a written answer, or one instrument block's answers (item id -> value or "declined"). */
export type AnswerValue = string | InstrumentAnswers;

const NOT_AN_ANSWER = 'Each answer must be text: "1" to "5" or a written answer';

function itemAnswersProblem(value: object): string | null {
  const entries = Object.entries(value);
  if (entries.length > MAX_ITEM_ANSWERS) return `An instrument has at most ${MAX_ITEM_ANSWERS} answers`;
  for (const [key, item] of entries) {
    if (!ITEM_ID_KEY.test(key)) return "An instrument's answers must be keyed by its item ids";
    const whole = typeof item === 'number' && Number.isInteger(item) && item >= 0 && item <= ITEM_VALUE_MAX;
    if (!whole && item !== DECLINED) {
      return `Each answer to an instrument item must be a whole number of its scale or "${DECLINED}"`;
    }
  }
  return null;
}

function answerValueProblem(value: unknown): string | null {
  if (typeof value === 'string') {
    return value.length > TEXT_ANSWER_MAX_LENGTH
      ? `Each answer must be at most ${TEXT_ANSWER_MAX_LENGTH} characters`
      : null;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return itemAnswersProblem(value);
  return NOT_AN_ANSWER;
}

/** Checked by hand so each kind of wrong answer gets its own words (a union would say "Invalid input"). */
const AnswerValueInput = z.pipe(
  z.unknown().check(
    z.superRefine((value, ctx) => {
      const problem = answerValueProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
    }),
  ),
  z.transform((value) => value as AnswerValue),
);

/**
 * Answers keyed by question id: a Likert value "1".."5", free text, or for an instrument block
 * its item answers. Which keys and values are right depends on the template, so the server
 * checks them against its questions (and an instrument's answers against the instrument).
 */
export const Answers = z
  .record(z.string(), AnswerValueInput, { error: 'Answers must be an object keyed by question id' })
  // Checked here rather than by a key schema, whose message zod replaces with a generic one.
  .check(
    z.refine(
      (answers) => Object.keys(answers).every((key) => QUESTION_ID_KEY.test(key)),
      'Answers must be keyed by question id',
    ),
    z.refine(
      (answers) => Object.keys(answers).length <= MAX_ANSWERS,
      `At most ${MAX_ANSWERS} answers are accepted`,
    ),
  );
export type Answers = z.infer<typeof Answers>;

const StudentName = z
  .string({ error: 'Full name must be text' })
  .check(
    z.trim(),
    z.maxLength(STUDENT_NAME_MAX_LENGTH, `Full name must be at most ${STUDENT_NAME_MAX_LENGTH} characters`),
  );

/** Blank means "not given"; otherwise a valid address, compared case-insensitively. */
const SchoolEmail = z.pipe(
  z.string({ error: 'School email must be text' }).check(
    z.trim(),
    z.maxLength(EMAIL_MAX_LENGTH, 'Email is too long'),
    z.refine((email) => email === '' || z.email().safeParse(email).success, 'Enter a valid email address'),
  ),
  z.transform((email: string) => email.toLowerCase()),
);

const TemplateId = databaseId('survey_template_id', { missing: 'survey_template_id is required' });

/**
 * POST /api/survey/ and /api/survey/link/{hashLink}/. A logged-in student's name and email come
 * from the account (a different email is refused); on a link, an anonymous respondent must give both.
 */
export const SubmitSurveyRequest = z.object({
  /** Required on /api/survey/; on a link the link decides, and a different id is refused. */
  survey_template_id: z.optional(TemplateId),
  student_name: z.optional(StudentName),
  school_email: z.optional(SchoolEmail),
  answers: Answers,
  /**
   * The language the survey was opened in (as asked for when it was loaded): each answer records
   * the language its question was shown in. Left out, the site's language for this visitor.
   */
  language: z.optional(Language),
  /** Client-generated (a UUID): a retried submit with the same id stores nothing new. */
  submission_id: z.optional(
    z
      .string({ error: 'submission_id must be text' })
      .check(
        z.regex(
          /^[A-Za-z0-9_-]{8,64}$/,
          'submission_id must be 8 to 64 letters, digits, "-" or "_" (a UUID)',
        ),
      ),
  ),
});
export type SubmitSurveyRequest = z.input<typeof SubmitSurveyRequest>;

/** Submitting as the logged-in student (POST /api/survey/): the body names the template. */
export const SubmitOwnSurveyRequest = z.extend(SubmitSurveyRequest, { survey_template_id: TemplateId });
export type SubmitOwnSurveyRequest = z.input<typeof SubmitOwnSurveyRequest>;

/**
 * Never says how a submission was screened. `crisis_resources` is present only when the student
 * should see where to get help right now.
 */
export const SubmitSurveyResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  crisis_resources: z.optional(CrisisHelp),
  /**
   * The answers are stored but the sender has not proven the email address they name: they count
   * as that student's once the address is proven with a code (POST /api/verify/start/, /check/).
   */
  verification_required: z.optional(z.boolean()),
  /**
   * With verification_required: this submission's secret. Keep it in the tab that sent it and
   * send it with the code (POST /api/verify/check/ proof_tokens): a proof promotes only the
   * submissions whose secrets it presents.
   */
  proof_token: z.optional(z.string()),
  /**
   * An anonymous campaign's answer: a once-only token with which, within the hour, the student may
   * ask a counsellor to contact them (POST /api/survey/contact/), sharing only what they choose.
   */
  contact_token: z.optional(z.string()),
});
export type SubmitSurveyResponse = z.infer<typeof SubmitSurveyResponse>;

const DraftTemplateId = databaseId('template_id', { notANumber: 'template_id is required' });

export const AutosaveRequest = z.object({
  template_id: DraftTemplateId,
  student_name: z._default(StudentName, ''),
  /** Kept as typed: a draft may hold a half-written address. */
  school_email: z._default(
    z
      .string({ error: 'School email must be text' })
      .check(z.trim(), z.maxLength(EMAIL_MAX_LENGTH, 'Email is too long')),
    '',
  ),
  answers: Answers,
  /**
   * The `updated_at` of the draft this save builds on, so two windows never overwrite each
   * other's answers unseen: null when it builds on no draft. When the stored draft is another
   * (a newer save, or none: submitted or cleared elsewhere) the save is refused with a 409 and
   * the window merges with the stored one. Left out, the save simply replaces the draft.
   */
  base_updated_at: z.optional(
    z.nullable(z.iso.datetime({ error: 'base_updated_at must be an ISO 8601 time' })),
  ),
});
export type AutosaveRequest = z.input<typeof AutosaveRequest>;

export const AutosaveResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  /** The saved draft's version: send it as `base_updated_at` with the next save. */
  updated_at: z.iso.datetime(),
});
export type AutosaveResponse = z.infer<typeof AutosaveResponse>;

/** What a draft keeps (spec section 3: "Saved draft"); the browser's copy of one holds the same. */
export const DraftContent = z.object({
  template_id: z.number().check(z.int()),
  student_name: z.string(),
  school_email: z.string(),
  answers: z.record(
    z.string(),
    z.union([z.string(), z.record(z.string(), z.union([z.number().check(z.int()), z.literal(DECLINED)]))]),
  ),
});
export type DraftContent = z.infer<typeof DraftContent>;

/** Read back only by the user who wrote it: their own data, not a read that is audited. */
export const SavedDraft = ownData(z.extend(DraftContent, { updated_at: z.iso.datetime() }));
export type SavedDraft = z.infer<typeof SavedDraft>;

export const LoadDraftResponse = z.object({ success: z.literal(true), saved_data: z.nullable(SavedDraft) });
export type LoadDraftResponse = z.infer<typeof LoadDraftResponse>;

/**
 * What a personal invitation link opens: the survey, for the one student it was sent to. The name
 * and address are the holder's own, read back through their own link: not a staff read.
 */
export const InvitationSurveyResponse = z.extend(SurveyQuestionsResponse, {
  /** An anonymous campaign's: its answers are kept with nothing that names the student (then name and email are blank). */
  anonymous: z.boolean(),
  student_name: ownData(z.string()),
  school_email: ownData(z.string()),
});
export type InvitationSurveyResponse = z.infer<typeof InvitationSurveyResponse>;

const CONTACT_NAME_MAX_LENGTH = 200;
const PHONE_MAX_LENGTH = 40;
/** Blank means "not given". */
const optionalText = /* @__NO_SIDE_EFFECTS__ */ (field: string, max: number) =>
  z._default(
    z
      .string({ error: `${field} must be text` })
      .check(z.trim(), z.maxLength(max, `${field} must be at most ${max} characters`)),
    '',
  );

/**
 * A student of an anonymous campaign asking a counsellor to contact them, after answering: only
 * what they fill in is kept, on the case it opens. One way of contact at least.
 */
export const ContactRequest = z
  .object({
    contact_token: z
      .string({ error: 'contact_token is required' })
      .check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'contact_token is not one this survey gave')),
    name: optionalText('Name', CONTACT_NAME_MAX_LENGTH),
    email: z._default(
      z.pipe(
        z.string({ error: 'Email must be text' }).check(
          z.trim(),
          z.maxLength(EMAIL_MAX_LENGTH, 'Email is too long'),
          z.refine(
            (email) => email === '' || z.email().safeParse(email).success,
            'Enter a valid email address',
          ),
        ),
        z.transform((email: string) => email.toLowerCase()),
      ),
      '',
    ),
    phone: z._default(
      z
        .string({ error: 'Phone must be text' })
        .check(
          z.trim(),
          z.maxLength(PHONE_MAX_LENGTH, `Phone must be at most ${PHONE_MAX_LENGTH} characters`),
          z.regex(
            /^$|^\+?[0-9][0-9 ()./-]{4,}$/,
            'Enter a phone number of digits, spaces, "+", "-" or brackets',
          ),
        ),
      '',
    ),
    /** Whether the counsellor may read the answers just sent. */
    share_answers: z._default(z.boolean({ error: 'share_answers must be true or false' }), false),
  })
  .check(
    z.refine((request) => request.email !== '' || request.phone !== '', {
      message: 'Give an email address or a phone number, so a counsellor can reach you',
      path: ['email'],
    }),
  );
export type ContactRequest = z.input<typeof ContactRequest>;

export const ContactResponse = z.object({ success: z.literal(true), message: z.string() });
export type ContactResponse = z.infer<typeof ContactResponse>;
