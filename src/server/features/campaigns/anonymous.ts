import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { z } from 'zod/mini';
import { DEFAULT_LANGUAGE } from '../../../common/languages';
import { LEXICON_VERSION } from '../../../common/risk';
import type { AnswerValue, ContactRequest, SubmitSurveyResponse } from '../../../common/schemas/surveys';
import type { Executor } from '../../db/executor';
import { type TransactionRunner, writeTransaction } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { AppError } from '../../lib/errors';
import { DAY, HOUR, now } from '../../lib/time';
import type { ContactAsked } from '../cases';
import {
  answerLanguages,
  findTemplateById,
  reply,
  SURVEY_NOT_FOUND,
  screenAnonymousAnswers,
} from '../surveys';

/**
 * The answers of an anonymous campaign (design section 14). The link proves only that its holder
 * is on the roster, once: the invitation is marked used, with the time it was sent rather than
 * the time it was answered, and the answers go to rows of their own that name no student,
 * respondent, invitation or address, dated by the day only. A flagged answer opens no case by
 * itself: the reply carries a once-only offer with which the student may ask to be contacted.
 */

/** How long the tab that answered may still ask for a counsellor. */
export const CONTACT_OFFER_HOURS = 1;

/** Midnight (UTC) of the day of `at`: the only time an anonymous answer keeps. */
export function dayOf(at: number): number {
  return at - (at % DAY);
}

export function contactOfferHash(token: string): string {
  return crypto.createHash('sha256').update(`contact-offer:${token}`).digest('hex');
}

/**
 * What a resent answer is known by: a hash of the link's token and the sending tab's own random
 * id for the submission. The token is kept nowhere but in the student's mail, and the id nowhere
 * but in that tab, so the hash ties the stored answer to no invitation; only the same link, sent
 * from the same tab, finds it again.
 */
export function anonymousRetryKey(token: string, clientSubmissionId: string): string {
  return crypto.createHash('sha256').update(`anonymous-retry:${token}:${clientSubmissionId}`).digest('hex');
}

export type Resent = NonNullable<Awaited<ReturnType<typeof findResent>>>;

/** The answer a resend repeats, if the campaign has one stored under that key. */
export function findResent(db: Executor, campaignId: number, retryKey: string) {
  return db
    .selectFrom('anonymous_submissions')
    .select(['id', 'tier'])
    .where('campaign_id', '=', campaignId)
    .where('retry_key', '=', retryKey)
    .executeTakeFirst();
}

interface AnonymousInvitation {
  id: number;
  campaign_id: number;
  template_id: number;
  institution_id: number;
  invited_at: number | string;
}

/**
 * Stores the answers with nothing that names the student, and uses up the invitation (checked
 * again, under lock, by `useInvitation`), in one transaction.
 */
export async function submitAnonymousAnswers(options: {
  runTransaction: TransactionRunner;
  invitation: AnonymousInvitation;
  /**
   * Locks the invitation and uses it up; refuses it if anything but this very submission used
   * it, and then returns that earlier answer (a resend).
   */
  useInvitation: (trx: Executor) => Promise<Resent | undefined>;
  /** anonymousRetryKey of the link and the tab's submission id, when the tab sent one. */
  retryKey?: string;
  answers: Record<string, AnswerValue>;
  /** The language the survey was shown in, checked as one the product offers. */
  language: string;
}): Promise<SubmitSurveyResponse> {
  const { invitation, retryKey, language } = options;
  return options.runTransaction(async (trx) => {
    const at = now();
    const resent = await options.useInvitation(trx);
    if (resent) return answerAgain(trx, resent, invitation.template_id, at, language);
    const { template, plain, blocks, screened } = await screenAnonymousAnswers(
      trx,
      invitation.template_id,
      options.answers,
    );
    const languageOf = await answerLanguages(trx, template.id, options.language);
    const submission = await trx
      .insertInto('anonymous_submissions')
      .values({
        institution_id: invitation.institution_id,
        campaign_id: invitation.campaign_id,
        template_id: template.id,
        tier: screened.tier,
        likert_mean: screened.likertMean,
        lexicon_version: LEXICON_VERSION,
        sent_on: dayOf(at),
        retry_key: retryKey ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = [
      ...plain.map(({ question, value }) => ({
        submission_id: submission.id,
        question_id: question.id,
        question_text: question.question_text,
        question_type: question.question_type,
        category: question.category,
        value,
        language: languageOf(question.id),
      })),
      ...blocks.map((block) => ({
        submission_id: submission.id,
        question_id: block.questionId,
        question_text: block.instrumentId,
        question_type: 'instrument',
        category: null,
        value: JSON.stringify(block.answers),
        language: DEFAULT_LANGUAGE,
      })),
    ];
    if (rows.length > 0) await trx.insertInto('anonymous_answers').values(rows).execute();
    // Offers not taken up are of no use to anyone: each new answer clears the expired ones.
    await trx.deleteFrom('contact_offers').where('expires_at', '<=', at).execute();
    const token = crypto.randomBytes(32).toString('base64url');
    await trx
      .insertInto('contact_offers')
      .values({
        token_hash: contactOfferHash(token),
        institution_id: invitation.institution_id,
        submission_id: submission.id,
        tier: screened.tier,
        expires_at: at + CONTACT_OFFER_HOURS * HOUR,
      })
      .execute();
    // Proven: the link proves a roster student answered; the tier itself is never told.
    return { ...reply(screened.tier, template, true, undefined, language), contact_token: token };
  });
}

/**
 * The reply a resent answer gets: the first one's, as the tab never saw it, storing nothing new.
 * Its offer to ask for a counsellor, if still unused and within its hour, comes with a new token
 * (only the token's hash was kept), and the old token no longer works.
 */
async function answerAgain(
  trx: Executor,
  earlier: Resent,
  templateId: number,
  at: number,
  language?: string,
): Promise<SubmitSurveyResponse> {
  const template = await findTemplateById(trx, templateId);
  if (!template) throw new AppError('NOT_FOUND', SURVEY_NOT_FOUND);
  const offer = await trx
    .selectFrom('contact_offers')
    .select('token_hash')
    .where('submission_id', '=', earlier.id)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  if (!offer) return reply(earlier.tier, template, true, undefined, language);
  const token = crypto.randomBytes(32).toString('base64url');
  await trx
    .updateTable('contact_offers')
    .set({ token_hash: contactOfferHash(token) })
    .where('token_hash', '=', offer.token_hash)
    .execute();
  return { ...reply(earlier.tier, template, true, undefined, language), contact_token: token };
}

/** The offer a token names, if it has not expired; deleted, so it is used once. */
export async function takeContactOffer(trx: Executor, token: string, at: number) {
  const hash = contactOfferHash(token);
  const offer = await trx
    .selectFrom('contact_offers')
    .selectAll()
    .where('token_hash', '=', hash)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  if (!offer) return undefined;
  await trx.deleteFrom('contact_offers').where('token_hash', '=', hash).execute();
  return offer;
}

/** The answers of an anonymous submission, as a counsellor reads them when the student shares them. */
export async function answersToShare(db: Executor, submissionId: number) {
  const rows = await db
    .selectFrom('anonymous_answers')
    .select(['question_text', 'question_type', 'value'])
    .where('submission_id', '=', submissionId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ question: row.question_text, answer: row.value }));
}

export const CONTACT_OFFER_GONE =
  'This request can no longer be sent: it is made once, within an hour of answering. If you need help now, use the contacts shown on this page.';
export const CONTACT_ASKED =
  'Thank you. A counsellor will contact you using the details you gave. If you need help sooner, use the contacts shown on this page.';

/**
 * A student of an anonymous campaign asks to be contacted: the offer their answer gave is used
 * up, and a case opened with only what they filled in (and their answers if they chose to share
 * them). The anonymous answer row is left as it was: nothing points from it to the case.
 */
export async function askForContact(options: {
  db: Kysely<Database>;
  request: z.output<typeof ContactRequest>;
  openCase: (trx: Executor, asked: ContactAsked) => Promise<number>;
}) {
  const { request } = options;
  await writeTransaction(options.db, async (trx) => {
    const offer = await takeContactOffer(trx, request.contact_token, now());
    if (!offer) throw new AppError('NOT_FOUND', CONTACT_OFFER_GONE);
    await options.openCase(trx, {
      institutionId: offer.institution_id,
      name: request.name === '' ? null : request.name,
      email: request.email === '' ? null : request.email,
      phone: request.phone === '' ? null : request.phone,
      answerTier: offer.tier,
      answers: request.share_answers ? await answersToShare(trx, offer.submission_id) : null,
    });
  });
  return { success: true as const, message: CONTACT_ASKED };
}
