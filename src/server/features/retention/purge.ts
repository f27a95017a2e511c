import { sql } from 'kysely';
import { z } from 'zod/mini';
import { type Executor, isPostgres } from '../../db/executor';
import { recordAudit } from '../../lib/audit';
import { type JobKind, scheduleJob } from '../../lib/jobs';
import { HOUR } from '../../lib/time';
import { rebuildRollupsIn } from '../dashboard';
import { heldEmails } from '../legal-holds';
import {
  expiredAnonymousSubmissions,
  expiredAuditEntries,
  expiredCases,
  expiredDrafts,
  expiredSubmissions,
} from './expired';
import { cutoffsAt, readRetentionPolicy } from './policy';

/** The daily purge runs at this hour (UTC), when few students answer anywhere. */
const PURGE_HOUR_UTC = 3;
/** Ids deleted per statement: well inside both databases' limits on parameters. */
const CHUNK = 500;

export interface PurgeCounts {
  answers: number;
  anonymous_answers: number;
  /** Offers to ask for a counsellor that were never taken up within their hour. */
  contact_offers: number;
  closed_cases: number;
  drafts: number;
  audit_log: number;
  held_students: number;
}

/** The first purge time strictly after `at`. */
export function nextPurgeAt(at: number): number {
  const date = new Date(at);
  const today = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), PURGE_HOUR_UTC);
  return today > at ? today : today + 24 * HOUR;
}

async function inChunks(ids: number[], remove: (chunk: number[]) => Promise<unknown>) {
  for (let start = 0; start < ids.length; start += CHUNK) await remove(ids.slice(start, start + CHUNK));
}

/**
 * Deletes what the institution's policy no longer keeps, as of `at`, and recounts the dashboard
 * when answers went, so its numbers equal a recount of what is left. Call inside a transaction:
 * the deletions, the recount and the audit entry commit together or not at all.
 */
export async function purgeInstitution(
  trx: Executor,
  institutionId: number,
  at: number,
): Promise<PurgeCounts> {
  const cutoffs = cutoffsAt(await readRetentionPolicy(trx, institutionId), at);
  const held = await heldEmails(trx, institutionId);

  // Cases first: their events point at submissions, which can go only once no case keeps them.
  const expired = await expiredCases(trx, institutionId, cutoffs, held)
    .select(['cases.id', 'cases.respondent_id'])
    .execute();
  const caseIds = expired.map((row) => row.id);
  const contactRespondents = new Set<number>();
  await inChunks(caseIds, async (chunk) => {
    // What a student shared when asking to be contacted goes with the case it opened.
    const contacts = await trx
      .selectFrom('case_contacts')
      .innerJoin('cases', 'cases.id', 'case_contacts.case_id')
      .select('cases.respondent_id')
      .where('case_contacts.case_id', 'in', chunk)
      .execute();
    for (const row of contacts) contactRespondents.add(row.respondent_id);
    await trx.deleteFrom('case_contacts').where('case_id', 'in', chunk).execute();
    await trx.deleteFrom('case_events').where('case_id', 'in', chunk).execute();
    await trx.deleteFrom('case_mails').where('case_id', 'in', chunk).execute();
    await trx.deleteFrom('cases').where('id', 'in', chunk).execute();
  });

  const submissionIds = (
    await expiredSubmissions(trx, institutionId, cutoffs, held).select('submissions.id').execute()
  ).map((row) => row.id);
  await inChunks(submissionIds, async (chunk) => {
    await trx.deleteFrom('answers').where('submission_id', 'in', chunk).execute();
    await trx.deleteFrom('instrument_results').where('submission_id', 'in', chunk).execute();
    await trx.deleteFrom('submissions').where('id', 'in', chunk).execute();
  });

  await forgetContactRespondents(trx, [...contactRespondents]);

  const anonymousIds = (
    await expiredAnonymousSubmissions(trx, institutionId, cutoffs).select('id').execute()
  ).map((row) => row.id);
  await inChunks(anonymousIds, async (chunk) => {
    await trx.deleteFrom('contact_offers').where('submission_id', 'in', chunk).execute();
    await trx.deleteFrom('anonymous_answers').where('submission_id', 'in', chunk).execute();
    await trx.deleteFrom('anonymous_submissions').where('id', 'in', chunk).execute();
  });
  // An offer is good for an hour: one left over was never taken up, and is of no use to anyone.
  const offers = await trx
    .deleteFrom('contact_offers')
    .where('institution_id', '=', institutionId)
    .where('expires_at', '<=', at)
    .executeTakeFirst();

  const drafts = await expiredDrafts(trx, institutionId, cutoffs, held)
    .select(['drafts.user_id', 'drafts.template_id'])
    .execute();
  for (const draft of drafts)
    await trx
      .deleteFrom('drafts')
      .where('user_id', '=', draft.user_id)
      .where('template_id', '=', draft.template_id)
      .execute();

  const audit = await expiredAuditEntries(trx, institutionId, cutoffs).select('id').execute();
  await inChunks(
    audit.map((row) => row.id),
    (chunk) => trx.deleteFrom('audit_log').where('id', 'in', chunk).execute(),
  );

  if (submissionIds.length > 0) {
    // A submission committing while the recount reads would be missed by it, then added on top
    // of rows the recount replaced. On PostgreSQL the recount first waits for submissions that
    // have touched the rollups, and holds new ones until it commits; they then add to the new
    // rows. SQLite has one writer at a time already.
    if (isPostgres(trx))
      await sql`lock table dashboard_students, dashboard_totals in share row exclusive mode`.execute(trx);
    await rebuildRollupsIn(trx, institutionId);
  }

  const counts: PurgeCounts = {
    answers: submissionIds.length,
    anonymous_answers: anonymousIds.length,
    contact_offers: Number(offers.numDeletedRows),
    closed_cases: caseIds.length,
    drafts: drafts.length,
    audit_log: audit.length,
    held_students: held.length,
  };
  // The product acted, not a person: the entry says what went by number only.
  await recordAudit(
    trx,
    { institutionId, userId: null, email: null, address: null },
    { action: 'retention.purge', detail: { ...counts } },
  );
  return counts;
}

/**
 * The record a request to be contacted made of the student (the name, address or phone number
 * they gave), once its cases are gone: kept while an account, an answer or another case is theirs.
 */
async function forgetContactRespondents(trx: Executor, respondentIds: number[]) {
  await inChunks(respondentIds, (chunk) =>
    trx
      .deleteFrom('respondents')
      .where('id', 'in', chunk)
      .where('user_id', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('submissions')
              .select('submissions.id')
              .whereRef('submissions.respondent_id', '=', 'respondents.id'),
          ),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('cases').select('cases.id').whereRef('cases.respondent_id', '=', 'respondents.id'),
          ),
        ),
      )
      .execute(),
  );
}

const PurgePayload = z.object({ runAt: z.number() });

const purgeJob = {
  kind: 'retention-purge',
  /** One key per day: however many instances schedule it, one purge runs that day. */
  keyOf: (runAt: number) => `retention-purge:${new Date(runAt).toISOString().slice(0, 10)}`,
};

/** Makes sure the first purge after `at` is scheduled; scheduling it again does nothing. */
export async function scheduleNextPurge(db: Executor, at: number): Promise<void> {
  const runAt = nextPurgeAt(at);
  await scheduleJob(db, purgeJob, { key: purgeJob.keyOf(runAt), runAt, payload: { runAt }, at });
}

/** When the next purge is due: the one scheduled, or the next purge time. */
export async function scheduledPurgeAt(db: Executor, at: number): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.min('run_at').as('run_at'))
    .where('kind', '=', purgeJob.kind)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row?.run_at == null ? nextPurgeAt(at) : Number(row.run_at);
}

/**
 * The daily purge of every institution: run once across instances by the job lease, in one
 * transaction with the next day's scheduling, so a purge that fails leaves all as it was and
 * runs again.
 */
export const purgeJobKind: JobKind<typeof PurgePayload> = {
  kind: purgeJob.kind,
  payload: PurgePayload,
  async run({ trx, at }) {
    const institutions = await trx.selectFrom('institutions').select('id').orderBy('id').execute();
    for (const { id } of institutions) await purgeInstitution(trx, id, at);
    await scheduleNextPurge(trx, at);
  },
};
