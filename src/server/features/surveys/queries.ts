import type { Insertable } from 'kysely';
import type { Executor } from '../../db/executor';
import { reusableQuery } from '../../db/reusable-query';
import type { AnswersTable, SubmissionsTable } from '../../db/types';

/** A template together with what taking it needs to know about its institution. */
function templatesWithInstitution(db: Executor) {
  return db
    .selectFrom('survey_templates')
    .innerJoin('institutions', 'institutions.id', 'survey_templates.institution_id')
    .select([
      'survey_templates.id',
      'survey_templates.institution_id',
      'survey_templates.hash_link',
      'institutions.name as institution_name',
      'institutions.crisis_resources',
    ]);
}

export type SurveyTemplate = NonNullable<Awaited<ReturnType<typeof findTemplateById>>>;

export function findTemplateById(db: Executor, templateId: number) {
  return templatesWithInstitution(db).where('survey_templates.id', '=', templateId).executeTakeFirst();
}

export function findTemplateByHashLink(db: Executor, hashLink: string) {
  return templatesWithInstitution(db).where('survey_templates.hash_link', '=', hashLink).executeTakeFirst();
}

/** The institution's active template, or its first one when none is active (spec section 4). */
export function findCurrentTemplate(db: Executor, institutionId: number) {
  return templatesWithInstitution(db)
    .leftJoin('active_templates', 'active_templates.template_id', 'survey_templates.id')
    .where('survey_templates.institution_id', '=', institutionId)
    .orderBy((eb) => eb('active_templates.template_id', 'is', null))
    .orderBy('survey_templates.id')
    .limit(1)
    .executeTakeFirst();
}

interface NewRespondent {
  institution_id: number;
  email: string;
  name: string;
  user_id: number | null;
  created_at: number;
}

const upsertRespondentQuery = reusableQuery((db, respondent: NewRespondent) =>
  db
    .insertInto('respondents')
    .values(respondent)
    .onConflict((oc) =>
      oc.columns(['institution_id', 'email']).doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        user_id: eb.fn.coalesce('excluded.user_id', 'respondents.user_id'),
      })),
    )
    .returning('id'),
);

/**
 * What a student record is called while only unproven senders have named it: the name they
 * claimed stays with their submissions, and the record takes her own once the address is proven
 * or she registers.
 */
export const UNCONFIRMED_NAME = 'Name not confirmed';

/** The same, except that a known respondent keeps its name: an unproven sender renames no one. */
const ensureRespondentQuery = reusableQuery((db, respondent: NewRespondent) =>
  db
    .insertInto('respondents')
    .values(respondent)
    .onConflict((oc) =>
      oc.columns(['institution_id', 'email']).doUpdateSet((eb) => ({ name: eb.ref('respondents.name') })),
    )
    .returning('id'),
);

/**
 * The respondent for this email at this institution, created on first submission. Race-free:
 * the unique (institution, email) constraint decides. A proven sender's name and account win;
 * an unproven one names no one: a new record gets the neutral UNCONFIRMED_NAME.
 */
export async function upsertRespondent(
  db: Executor,
  respondent: {
    institutionId: number;
    email: string;
    name: string;
    userId: number | null;
    createdAt: number;
    proven: boolean;
  },
): Promise<number> {
  const query = respondent.proven ? upsertRespondentQuery : ensureRespondentQuery;
  const { rows } = await query(db, {
    institution_id: respondent.institutionId,
    email: respondent.email,
    name: respondent.proven ? respondent.name : UNCONFIRMED_NAME,
    user_id: respondent.userId,
    created_at: respondent.createdAt,
  });
  return (rows[0] as { id: number }).id;
}

export function findSubmissionByClientId(db: Executor, respondentId: number, clientSubmissionId: string) {
  return db
    .selectFrom('submissions')
    .select(['id', 'tier', 'verified_at'])
    .where('respondent_id', '=', respondentId)
    .where('client_submission_id', '=', clientSubmissionId)
    .executeTakeFirst();
}

/**
 * Likert mean of the respondent's latest proven submission up to `at`, for the worsening rule:
 * an unproven one must not set the baseline a student's own answers are compared with.
 */
const previousLikertMeanQuery = reusableQuery((db, values: { respondentId: number; at: number }) =>
  db
    .selectFrom('submissions')
    .select('likert_mean')
    .where('respondent_id', '=', values.respondentId)
    .where('verified_at', 'is not', null)
    .where('created_at', '<=', values.at)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1),
);

export async function previousLikertMean(
  db: Executor,
  respondentId: number,
  at: number,
): Promise<number | null> {
  const { rows } = await previousLikertMeanQuery(db, { respondentId, at });
  return rows[0]?.likert_mean ?? null;
}

/**
 * Inserts the submission unless the respondent already sent one with this client id; then
 * nothing is inserted and undefined comes back. On PostgreSQL a concurrent copy waits for the
 * first to commit and then does nothing, so a retried submit is stored once without an error.
 */
const insertSubmissionQuery = reusableQuery((db, submission: Omit<Insertable<SubmissionsTable>, 'id'>) =>
  db
    .insertInto('submissions')
    .values(submission)
    .onConflict((oc) => oc.columns(['respondent_id', 'client_submission_id']).doNothing())
    .returning('id'),
);

export async function insertSubmission(
  db: Executor,
  submission: Omit<Insertable<SubmissionsTable>, 'id'>,
): Promise<number | undefined> {
  const { rows } = await insertSubmissionQuery(db, submission);
  return rows[0]?.id;
}

/** An answer as stored: the language it was shown in is always decided, never left to the column's default. */
type NewAnswer = Omit<Insertable<AnswersTable>, 'id'> & { language: string };

const insertAnswersQuery = reusableQuery((db, answers: NewAnswer[]) =>
  db.insertInto('answers').values(answers),
);

export async function insertAnswers(db: Executor, answers: NewAnswer[]) {
  if (answers.length === 0) return;
  await insertAnswersQuery(db, answers);
}

/**
 * Submissions this browser sent in the address's name that are waiting for it to be proven, of
 * those whose secrets (their hashes here) the proving tab holds.
 */
export async function unprovenSubmissionsOf(
  db: Executor,
  sender: { visitorHash: string; email: string; proofTokenHashes: readonly string[] },
) {
  if (sender.proofTokenHashes.length === 0) return [];
  return db
    .selectFrom('submissions')
    .select(['id', 'institution_id', 'respondent_id', 'student_name', 'created_at', 'tier', 'likert_mean'])
    .where('visitor_hash', '=', sender.visitorHash)
    .where('school_email', '=', sender.email)
    .where('proof_token_hash', 'in', sender.proofTokenHashes)
    .where('verified_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function setProofTokenHash(db: Executor, submissionId: number, hash: string) {
  await db
    .updateTable('submissions')
    .set({ proof_token_hash: hash })
    .where('id', '=', submissionId)
    .execute();
}

export async function markSubmissionProven(db: Executor, submissionId: number, at: number) {
  await db.updateTable('submissions').set({ verified_at: at }).where('id', '=', submissionId).execute();
}

export async function renameRespondent(db: Executor, respondentId: number, name: string) {
  await db.updateTable('respondents').set({ name }).where('id', '=', respondentId).execute();
}

export function answersOfSubmission(db: Executor, submissionId: number) {
  return db
    .selectFrom('answers')
    .select(['category', 'question_type', 'value'])
    .where('submission_id', '=', submissionId)
    .orderBy('id')
    .execute();
}
