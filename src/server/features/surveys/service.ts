import type { Transaction } from 'kysely';
import { instrumentForm } from '../../../common/instruments';
import { DEFAULT_LANGUAGE } from '../../../common/languages';
import {
  crisisHelpFor,
  LEXICON_VERSION,
  type RiskResult,
  screenSubmissionSafely,
} from '../../../common/risk';
import {
  type AnswerValue,
  LINK_NOT_FOUND,
  NO_SURVEY_FOR_INSTITUTION,
  type SubmitSurveyResponse,
  type SurveyEntry,
} from '../../../common/schemas/surveys';
import {
  type AnswerChoices,
  INSTRUMENT_BLOCK,
  isLikertValue,
  type QuestionType,
} from '../../../common/schemas/templates';
import { SUBMIT_MESSAGES } from '../../../common/schemas/values';
import type { Executor } from '../../db/executor';
import type { CommitHooks, TransactionRunner } from '../../db/transaction-runner';
import type { Database, Role } from '../../db/types';
import { AppError } from '../../lib/errors';
import { supportedLanguages } from '../../lib/languages';
import type { SessionUser } from '../../lib/sessions';
import { now } from '../../lib/time';
import type { TransactionSubscriber } from '../../lib/transaction-event';
import { deleteDraft } from '../drafts';
import { readOwnCrisisResources, requireInstitutionEmail } from '../institutions';
import {
  answerLabelOf,
  instrumentOf,
  listQuestions,
  parseAnswerChoices,
  templateTranslationsIn,
} from '../templates';
import { type AddressProven, isProvenBy } from '../verify';
import type { ProvenSubmission, StoredAnswer, SubmissionEvents } from './events';
import {
  checkInstrumentAnswers,
  type ScoredBlock,
  storeInstrumentResults,
  withInstrumentFollowUp,
} from './instruments';
import { hashProofToken, newProofToken } from './proof-tokens';
import type { SurveyTemplate } from './queries';
import * as queries from './queries';

export const SURVEY_NOT_FOUND = 'Survey not found';
export const ADMINS_CANNOT_SUBMIT = 'Admins cannot submit surveys';
export const STAFF_CANNOT_SUBMIT = 'Staff cannot submit surveys';
export const SUPERUSERS_CANNOT_SUBMIT = 'Super users cannot access this application';
export const LOGIN_TO_SUBMIT = 'Please log in to submit the survey.';
export const OTHER_INSTITUTION =
  'This survey belongs to another institution. Open the survey of your own institution.';
export const FILL_IN_ALL = 'Please fill in all required fields';
export const NAME_REQUIRED = 'Please enter your full name';
export const EMAIL_REQUIRED = 'Please enter your school email';
export const NO_QUESTIONS = 'This survey has no questions to answer yet.';
/**
 * The answers are keyed for other questions than the survey has now: an administrator added or
 * removed a question while the student had the survey open. A 409 tells the form to load the
 * survey again (and keep the answers), where a 400 would only say something is missing.
 */
export const SURVEY_CHANGED =
  'This survey has changed since you opened it. Please review the current questions and submit again.';
export const TEMPLATE_MISMATCH = 'survey_template_id does not match this survey link';
export const THANK_YOU = SUBMIT_MESSAGES.submitted;
export const RECEIVED = SUBMIT_MESSAGES.received;
export const CONFIRM_ADDRESS = SUBMIT_MESSAGES.confirmAddress;

type QuestionRow = Awaited<ReturnType<typeof listQuestions>>[number];

/** A question's wording in the language asked for, when it has a translation into it. */
interface ShownTranslation {
  question_text: string;
  answer_choices: string | null;
}

export const unsupportedLanguage = (language: string) =>
  `Surveys are not available in "${language}": ask for one of ${supportedLanguages().join(', ')}.`;

/**
 * The language a survey is shown (or was shown) in: the one the student asked for, which must be
 * one the product offers; else the one the site speaks to them in (`fallback`).
 */
export function surveyLanguage(asked: string | undefined, fallback: () => string): string {
  if (asked === undefined) return fallback();
  if (!supportedLanguages().includes(asked)) throw new AppError('BAD_REQUEST', unsupportedLanguage(asked));
  return asked;
}

/** The template's questions translated into the language, by question id (none for the default language). */
async function translationsIn(
  db: Executor,
  templateId: number,
  language: string,
): Promise<Map<number, ShownTranslation>> {
  if (language === DEFAULT_LANGUAGE) return new Map();
  const rows = await templateTranslationsIn(db, templateId, language);
  return new Map(rows.map((row) => [row.question_id, row]));
}

/**
 * A question whole in one language: in the one asked for when it has a translation there (an
 * outdated one too: better than none), else in the default; never its text in one and its
 * choices in another. Instruments are always in their own wording.
 */
function toSurveyQuestion(
  row: QuestionRow,
  translations: ReadonlyMap<number, ShownTranslation>,
  language: string,
): SurveyEntry {
  const instrumentId = instrumentOf(row);
  if (instrumentId) {
    return {
      id: row.id,
      kind: INSTRUMENT_BLOCK,
      instrument_id: instrumentId,
      instrument: instrumentForm(instrumentId),
      order: row.position,
      language: DEFAULT_LANGUAGE,
    };
  }
  const translation = translations.get(row.id);
  const choices: AnswerChoices | null = parseAnswerChoices(row.answer_choices);
  return {
    id: row.id,
    text: translation ? translation.question_text : row.question_text,
    question_type: row.question_type as QuestionType,
    category: row.category,
    // Translated choices have the question's own keys (saved so); when the question's choices
    // changed since, the translation keeps its own, whole, rather than mixing the two languages.
    answer_choices: translation ? parseAnswerChoices(translation.answer_choices) : choices,
    order: row.position,
    language: translation ? language : DEFAULT_LANGUAGE,
  };
}

async function surveyOf(db: Executor, template: SurveyTemplate, language: string) {
  const rows = await listQuestions(db, template.id);
  const translations = await translationsIn(db, template.id, language);
  return {
    success: true as const,
    template_id: template.id,
    questions: rows.map((row) => toSurveyQuestion(row, translations, language)),
  };
}

/** The logged-in user's survey: the institution's active template, else its first. */
export async function getSurveyForUser(options: { db: Executor; user: SessionUser; language: string }) {
  const { db, user } = options;
  const template =
    user.institutionId === null ? undefined : await queries.findCurrentTemplate(db, user.institutionId);
  if (!template) throw new AppError('NOT_FOUND', NO_SURVEY_FOR_INSTITUTION);
  return surveyOf(db, template, options.language);
}

/** A template's survey, for a caller that has checked who may see it (a personal invitation). */
export async function getSurveyOfTemplate(options: { db: Executor; templateId: number; language: string }) {
  const template = await queries.findTemplateById(options.db, options.templateId);
  if (!template) throw new AppError('NOT_FOUND', SURVEY_NOT_FOUND);
  return surveyOf(options.db, template, options.language);
}

/** Anyone holding the link may see its questions. */
export async function getSurveyForLink(options: { db: Executor; hashLink: string; language: string }) {
  const template = await queries.findTemplateByHashLink(options.db, options.hashLink);
  if (!template) throw new AppError('NOT_FOUND', LINK_NOT_FOUND);
  return surveyOf(options.db, template, options.language);
}

/**
 * The language each answer records: the one the survey was asked for in, for a question that has
 * a translation into it (so it was shown so), else the default. Decided here from what is stored,
 * never from what the form says of each question.
 */
export async function answerLanguages(
  db: Executor,
  templateId: number,
  language: string,
): Promise<(questionId: number) => string> {
  const translations = await translationsIn(db, templateId, language);
  return (questionId) => (translations.has(questionId) ? language : DEFAULT_LANGUAGE);
}

/** Which survey is being answered: a template of the user's institution, or a shared link. */
export type SurveyTarget = { templateId: number } | { hashLink: string; templateId?: number };

interface SubmissionInput {
  target: SurveyTarget;
  /** The logged-in user, or null on a shared link. */
  user: SessionUser | null;
  studentName?: string;
  /** Lower-cased already (the contract's schema does it). */
  schoolEmail?: string;
  answers: Record<string, AnswerValue>;
  /**
   * The language the survey was shown in (checked as one the product offers; the default when
   * left out): its answers record it, and crisis help is shown in it.
   */
  language?: string;
  clientSubmissionId?: string;
  /** When the submission happened; only the demo seed sets it (back-dated samples). */
  createdAt?: number;
  /** The sending browser (its visitor hash): on a link, it proves the address or may prove it later. */
  visitorHash?: string;
  /** The sending client's address (a visitor on a link): unproven urgent answers are limited by it. */
  clientAddress?: string;
  /**
   * Set by the demo seed (its sample respondents stand for students who proved their address)
   * and by personal invitation links, which prove the address they were mailed to.
   */
  addressProven?: true;
  /** Told of the stored submission, in its transaction: rollups, cases, live dashboards (app.ts). */
  events: SubmissionEvents;
  /**
   * Runs first in the submission's transaction: a personal invitation is used up there, so the
   * submission and the invitation's use are kept together or not at all. It may refuse (throw).
   */
  beforeStore?: (trx: Transaction<Database>) => Promise<void>;
}

interface Respondent {
  name: string;
  email: string;
  userId: number | null;
  /**
   * Whether the sender proved the address (design section 8): signed in, or proved it with a code
   * from this browser. An unproven submission is kept and screened, but changes nothing anyone
   * counts or sees about the named student until the address is proven.
   */
  proven: boolean;
}

interface CheckedAnswer {
  question: QuestionRow & { question_type: QuestionType };
  value: string;
}

/** A submission's answers once checked: Likert and written ones, and each instrument block scored. */
interface CheckedAnswers {
  plain: CheckedAnswer[];
  blocks: ScoredBlock[];
}

/** Only students answer surveys: an account of any other role is refused, saying why. */
export function refuseNonStudentRole(role: Role) {
  if (role === 'institution_admin') throw new AppError('FORBIDDEN', ADMINS_CANNOT_SUBMIT);
  if (role === 'superuser') throw new AppError('FORBIDDEN', SUPERUSERS_CANNOT_SUBMIT);
  if (role !== 'student') throw new AppError('FORBIDDEN', STAFF_CANNOT_SUBMIT);
}

/** Who may submit at all, decided before anything is read: students, and visitors on a link. */
export function refuseNonStudents(user: SessionUser | null, viaLink: boolean) {
  if (user) refuseNonStudentRole(user.role);
  if (!user && !viaLink) throw new AppError('REQUIRES_AUTH', LOGIN_TO_SUBMIT, { requires_auth: true });
}

/** A visitor has no account to take a name and an email from. */
function requireVisitorIdentity(input: SubmissionInput) {
  if (input.user) return;
  if (!input.studentName) throw new AppError('BAD_REQUEST', NAME_REQUIRED);
  if (!input.schoolEmail) throw new AppError('BAD_REQUEST', EMAIL_REQUIRED);
}

interface TargetSurvey {
  template: SurveyTemplate | undefined;
  questions: QuestionRow[];
}

/**
 * Surveys read inside a transaction, by target. Submissions never change templates or
 * questions, so within one transaction a survey read once stays right, and the submissions
 * committed together as a group (all in one transaction) read it once between them.
 */
const surveysReadIn = new WeakMap<Executor, Map<string, Promise<TargetSurvey>>>();

function readTargetSurvey(trx: Executor, target: SurveyTarget): Promise<TargetSurvey> {
  const key = 'hashLink' in target ? `link:${target.hashLink}` : `id:${target.templateId}`;
  let surveys = surveysReadIn.get(trx);
  if (!surveys) {
    surveys = new Map();
    surveysReadIn.set(trx, surveys);
  }
  let survey = surveys.get(key);
  if (!survey) {
    survey = (async () => {
      const template =
        'hashLink' in target
          ? await queries.findTemplateByHashLink(trx, target.hashLink)
          : await queries.findTemplateById(trx, target.templateId);
      return { template, questions: template ? await listQuestions(trx, template.id) : [] };
    })();
    surveys.set(key, survey);
  }
  return survey;
}

async function findTarget(
  trx: Executor,
  input: SubmissionInput,
): Promise<TargetSurvey & { template: SurveyTemplate }> {
  const { target } = input;
  const survey = await readTargetSurvey(trx, target);
  const { template } = survey;
  if ('hashLink' in target) {
    if (!template) throw new AppError('NOT_FOUND', LINK_NOT_FOUND);
    if (target.templateId !== undefined && target.templateId !== template.id) {
      throw new AppError('BAD_REQUEST', TEMPLATE_MISMATCH);
    }
    return { template, questions: survey.questions };
  }
  // Another institution's template is answered exactly like one that does not exist.
  if (!template || template.institution_id !== input.user?.institutionId) {
    throw new AppError('NOT_FOUND', SURVEY_NOT_FOUND);
  }
  return { template, questions: survey.questions };
}

/**
 * A logged-in student submits as their account, whatever the form says; a visitor on a link
 * must use an email of the institution, and is answered alike whether or not it has an account.
 */
async function identifyRespondent(
  trx: Executor,
  input: SubmissionInput,
  template: SurveyTemplate,
  at: number,
): Promise<Respondent> {
  const { user } = input;
  if (user) {
    if (user.institutionId !== template.institution_id) throw new AppError('FORBIDDEN', OTHER_INSTITUTION);
    if (input.schoolEmail && input.schoolEmail !== user.email) {
      throw new AppError(
        'FORBIDDEN',
        `You are logged in as ${user.email}. You can only submit the survey as yourself.`,
      );
    }
    return { name: user.name, email: user.email, userId: user.id, proven: true };
  }
  const email = input.schoolEmail as string;
  await requireInstitutionEmail(trx, { id: template.institution_id, name: template.institution_name }, email);
  const proven =
    input.addressProven === true ||
    (input.visitorHash !== undefined &&
      (await isProvenBy(trx, { visitorHash: input.visitorHash, email, at })));
  return { name: input.studentName as string, email, userId: null, proven };
}

/** Every question answered exactly once, with a value its type allows; nothing else. */
function checkAnswers(
  questions: readonly QuestionRow[],
  answers: Record<string, AnswerValue>,
): CheckedAnswers {
  if (questions.length === 0) throw new AppError('BAD_REQUEST', NO_QUESTIONS);
  // A form sends every question it shows, answered or not; a key missing or unknown means the
  // form was showing a different version of this survey.
  const byId = new Map(questions.map((question) => [String(question.id), question]));
  const unknown = Object.keys(answers).some((id) => !byId.has(id));
  const unseen = questions.some((question) => !Object.hasOwn(answers, String(question.id)));
  if (unknown || unseen) throw new AppError('CONFLICT', SURVEY_CHANGED);
  const checked: CheckedAnswer[] = [];
  const blocks: ScoredBlock[] = [];
  for (const question of questions) {
    const answer = answers[String(question.id)];
    const instrumentId = instrumentOf(question);
    if (instrumentId) blocks.push(checkInstrumentAnswers({ id: question.id, instrumentId }, answer));
    else {
      if (typeof answer !== 'string') {
        throw new AppError('BAD_REQUEST', `Question ${question.position}: the answer must be text`);
      }
      checked.push({ question: question as CheckedAnswer['question'], value: answer.trim() });
    }
  }
  if (checked.some((answer) => answer.value === '')) throw new AppError('BAD_REQUEST', FILL_IN_ALL);
  for (const { question, value } of checked) {
    if (question.question_type === 'likert' && !isLikertValue(value)) {
      throw new AppError('BAD_REQUEST', `Question ${question.position}: choose an answer from 1 to 5`);
    }
  }
  return { plain: checked, blocks };
}

/**
 * What the student is told. Never the tier: only where to get help, at once, when it is urgent
 * (proven or not), and whether the address still needs its code. A student who needs help reads
 * the help first: the request for the code comes after it, on the screen, not in the thank-you.
 */
export function reply(
  tier: RiskResult['tier'],
  template: SurveyTemplate,
  proven: boolean,
  proofToken?: string,
  language?: string,
): SubmitSurveyResponse {
  const urgent = tier === 'urgent';
  return {
    success: true,
    message: proven ? THANK_YOU : urgent ? RECEIVED : CONFIRM_ADDRESS,
    ...(proven ? {} : { verification_required: true }),
    ...(proofToken === undefined ? {} : { proof_token: proofToken }),
    ...(urgent
      ? { crisis_resources: crisisHelpFor(readOwnCrisisResources(template.crisis_resources), language) }
      : {}),
  };
}

/** A submission already checked and screened, ready to be stored. */
interface ScreenedSubmission {
  institutionId: number;
  templateId: number | null;
  respondentId: number;
  respondent: Respondent;
  clientSubmissionId?: string;
  visitorHash?: string;
  clientAddress?: string;
  /** Unproven: the hash of the sending tab's secret (proof-tokens.ts). */
  proofTokenHash?: string;
  createdAt: number;
  screened: Pick<RiskResult, 'tier' | 'reasons' | 'likertMean'>;
  answers: {
    questionId: number | null;
    questionText: string;
    questionType: StoredAnswer['questionType'];
    category: StoredAnswer['category'];
    value: string;
    /** The language the question was shown in (answerLanguages). */
    language: string;
  }[];
  /** Scored instrument blocks, stored with the submission (none for a survey without any). */
  instrumentBlocks?: readonly ScoredBlock[];
  events: SubmissionEvents;
}

/**
 * Stores a screened submission with its answers and announces it (SubmissionEvents): proven, it
 * counts on the dashboard; flagged, proven or not, it reaches a counsellor. Returns its id, or undefined when it is a retry of one already stored (then
 * nothing is stored). Call inside the submission's transaction.
 */
export async function saveScreenedSubmission(
  trx: Executor,
  hooks: CommitHooks,
  submission: ScreenedSubmission,
): Promise<number | undefined> {
  const { respondent, createdAt, screened } = submission;
  const submissionId = await queries.insertSubmission(trx, {
    institution_id: submission.institutionId,
    template_id: submission.templateId,
    respondent_id: submission.respondentId,
    user_id: respondent.userId,
    client_submission_id: submission.clientSubmissionId ?? null,
    student_name: respondent.name,
    school_email: respondent.email,
    tier: screened.tier,
    reasons: JSON.stringify(screened.reasons),
    likert_mean: screened.likertMean,
    lexicon_version: LEXICON_VERSION,
    created_at: createdAt,
    verified_at: respondent.proven ? createdAt : null,
    visitor_hash: submission.visitorHash ?? null,
    proof_token_hash: respondent.proven ? null : (submission.proofTokenHash ?? null),
  });
  if (submissionId === undefined) return undefined;
  storeInstrumentResults(hooks, submissionId, submission.instrumentBlocks ?? [], createdAt);
  await queries.insertAnswers(
    trx,
    submission.answers.map((answer) => ({
      submission_id: submissionId,
      question_id: answer.questionId,
      question_text: answer.questionText,
      question_type: answer.questionType,
      category: answer.category,
      value: answer.value,
      language: answer.language,
    })),
  );
  // Unproven, it waits out of the counts until promoteProvenSubmissions announces it proven.
  await submission.events.stored.announce(trx, hooks, {
    institutionId: submission.institutionId,
    respondentId: submission.respondentId,
    submissionId,
    email: respondent.email,
    tier: screened.tier,
    likertMean: screened.likertMean,
    createdAt,
    proven: respondent.proven,
    answers: submission.answers,
    ...(!respondent.proven && submission.clientAddress !== undefined
      ? { clientAddress: submission.clientAddress }
      : {}),
  });
  return submissionId;
}

/** The whole submission in one transaction: checked, screened, stored, rolled up, draft cleared. */
async function storeSubmission(
  trx: Transaction<Database>,
  hooks: CommitHooks,
  input: SubmissionInput,
): Promise<SubmitSurveyResponse> {
  const createdAt = input.createdAt ?? now();
  if (input.beforeStore) await input.beforeStore(trx);
  const { template, questions } = await findTarget(trx, input);
  const respondent = await identifyRespondent(trx, input, template, createdAt);
  const { plain: answers, blocks } = checkAnswers(questions, input.answers);
  const respondentId = await queries.upsertRespondent(trx, {
    institutionId: template.institution_id,
    ...respondent,
    createdAt,
  });

  const screenedAnswers = screenSubmissionSafely({
    answers: answers.map(({ question, value }) => ({
      questionType: question.question_type,
      category: question.category,
      value,
      label: answerLabelOf(question, value) ?? undefined,
    })),
    previousLikertMean: await queries.previousLikertMean(trx, respondentId, createdAt),
  });
  const proof = respondent.proven ? undefined : newProofToken();
  const screened = withInstrumentFollowUp(screenedAnswers, blocks);
  const languageOf = await answerLanguages(trx, template.id, input.language ?? DEFAULT_LANGUAGE);
  const submissionId = await saveScreenedSubmission(trx, hooks, {
    institutionId: template.institution_id,
    templateId: template.id,
    respondentId,
    respondent,
    ...(proof ? { proofTokenHash: proof.hash } : {}),
    clientSubmissionId: input.clientSubmissionId,
    visitorHash: input.visitorHash,
    ...(input.clientAddress === undefined ? {} : { clientAddress: input.clientAddress }),
    createdAt,
    screened,
    instrumentBlocks: blocks,
    events: input.events,
    answers: answers.map(({ question, value }) => ({
      questionId: question.id,
      questionText: question.question_text,
      questionType: question.question_type,
      category: question.category,
      value,
      language: languageOf(question.id),
    })),
  });
  if (submissionId === undefined) {
    // A retry of a submission already stored: answer as the first time, store nothing.
    const earlier = await queries.findSubmissionByClientId(
      trx,
      respondentId,
      input.clientSubmissionId as string,
    );
    const earlierProven = (earlier?.verified_at ?? null) !== null;
    // The first answer never reached the tab: it gets a new secret for the waiting submission.
    if (earlier && !earlierProven && proof) await queries.setProofTokenHash(trx, earlier.id, proof.hash);
    const token = earlierProven ? undefined : proof?.token;
    return reply(earlier?.tier ?? 'none', template, earlierProven, token, input.language);
  }
  if (respondent.userId !== null) await deleteDraft(trx, respondent.userId, template.id);
  return reply(screened.tier, template, respondent.proven, proof?.token, input.language);
}

/**
 * This browser has just proven the address: the submissions it sent in that name while unproven,
 * and whose secrets the proving tab presents (proof-tokens.ts), now count, as they would have had
 * it been proven then (at their own time, with their own name). Call inside the transaction that
 * records the proof.
 */
export async function promoteProvenSubmissions(
  trx: Executor,
  hooks: CommitHooks,
  events: SubmissionEvents,
  sender: AddressProven,
): Promise<number> {
  const waiting = await queries.unprovenSubmissionsOf(trx, {
    visitorHash: sender.visitorHash,
    email: sender.email,
    proofTokenHashes: sender.proofTokens.map(hashProofToken),
  });
  const proven: ProvenSubmission[] = [];
  for (const submission of waiting) {
    await queries.markSubmissionProven(trx, submission.id, sender.at);
    await queries.renameRespondent(trx, submission.respondent_id, submission.student_name);
    const answers = await queries.answersOfSubmission(trx, submission.id);
    proven.push({
      institutionId: submission.institution_id,
      submissionId: submission.id,
      email: sender.email,
      createdAt: submission.created_at,
      tier: submission.tier,
      likertMean: submission.likert_mean,
      answers: answers.map((answer) => ({
        category: answer.category,
        questionType: answer.question_type,
        value: answer.value,
      })),
    });
  }
  await events.proven.announce(trx, hooks, { at: sender.at, submissions: proven });
  return waiting.length;
}

/** Surveys' part in a proof (verify's AddressProven): the browser's waiting answers now count. */
export function promoteOnProof(events: SubmissionEvents): TransactionSubscriber<AddressProven> {
  return async (trx, hooks, proven) => {
    await promoteProvenSubmissions(trx, hooks, events, proven);
  };
}

/**
 * A template's answers checked and screened, with no student behind them (an anonymous
 * campaign): no earlier answers to compare with, so the worsening rule has nothing to go on.
 */
export async function screenAnonymousAnswers(
  trx: Executor,
  templateId: number,
  given: Record<string, AnswerValue>,
) {
  const { template, questions } = await readTargetSurvey(trx, { templateId });
  if (!template) throw new AppError('NOT_FOUND', SURVEY_NOT_FOUND);
  const { plain, blocks } = checkAnswers(questions, given);
  const screened = withInstrumentFollowUp(
    screenSubmissionSafely({
      answers: plain.map(({ question, value }) => ({
        questionType: question.question_type,
        category: question.category,
        value,
        label: answerLabelOf(question, value) ?? undefined,
      })),
      previousLikertMean: null,
    }),
    blocks,
  );
  return { template, plain, blocks, screened };
}

/**
 * Submits a survey. Idempotent on the client's submission id: a retry gets the first answer
 * and stores nothing. Replies only once the submission is committed.
 */
export async function submitSurvey(options: { runTransaction: TransactionRunner } & SubmissionInput) {
  const { runTransaction, ...input } = options;
  refuseNonStudents(input.user, 'hashLink' in input.target);
  requireVisitorIdentity(input);
  return runTransaction((trx, hooks) => storeSubmission(trx, hooks, input));
}
