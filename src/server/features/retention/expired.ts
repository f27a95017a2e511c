import { sql } from 'kysely';
import type { Executor } from '../../db/executor';
import { DAY } from '../../lib/time';
import type { RetentionCutoffs } from './policy';

/**
 * What a purge at given cutoffs removes, as queries the purge and its preview share: the
 * preview's counts are what the purge deletes. A held student's rows are never among them.
 */

/**
 * Submissions (with their answers and scores) older than the answers' period. One a remaining
 * case points at stays as long as that case: a case's record keeps the answers that opened it,
 * and they go with it.
 */
export function expiredSubmissions(
  db: Executor,
  institutionId: number,
  cutoffs: RetentionCutoffs,
  held: string[],
) {
  return db
    .selectFrom('submissions')
    .innerJoin('respondents', 'respondents.id', 'submissions.respondent_id')
    .where('submissions.institution_id', '=', institutionId)
    .where('submissions.created_at', '<', cutoffs.answers)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('case_events')
            .innerJoin('cases', 'cases.id', 'case_events.case_id')
            .select('case_events.id')
            .whereRef('case_events.submission_id', '=', 'submissions.id')
            // A case that goes in the same purge keeps nothing.
            .where((eb) =>
              eb.or([
                eb('cases.status', '!=', 'resolved'),
                eb('cases.resolved_at', '>=', cutoffs.closedCases),
              ]),
            ),
        ),
      ),
    )
    .$if(held.length > 0, (query) => query.where(sql<string>`lower(respondents.email)`, 'not in', held));
}

/** Resolved cases whose resolution is older than the closed cases' period. */
export function expiredCases(db: Executor, institutionId: number, cutoffs: RetentionCutoffs, held: string[]) {
  return db
    .selectFrom('cases')
    .innerJoin('respondents', 'respondents.id', 'cases.respondent_id')
    .where('cases.institution_id', '=', institutionId)
    .where('cases.status', '=', 'resolved')
    .where('cases.resolved_at', '<', cutoffs.closedCases)
    .$if(held.length > 0, (query) => query.where(sql<string>`lower(respondents.email)`, 'not in', held));
}

/** Unsent answers (drafts) left untouched for longer than the answers' period. */
export function expiredDrafts(
  db: Executor,
  institutionId: number,
  cutoffs: RetentionCutoffs,
  held: string[],
) {
  return db
    .selectFrom('drafts')
    .innerJoin('users', 'users.id', 'drafts.user_id')
    .where('users.institution_id', '=', institutionId)
    .where('drafts.updated_at', '<', cutoffs.answers)
    .$if(held.length > 0, (query) => query.where(sql<string>`lower(users.email)`, 'not in', held));
}

export function expiredAuditEntries(db: Executor, institutionId: number, cutoffs: RetentionCutoffs) {
  return db
    .selectFrom('audit_log')
    .where('institution_id', '=', institutionId)
    .where('at', '<', cutoffs.auditLog);
}

/**
 * An anonymous campaign's answers older than the answers' period, by the day they were sent (all
 * they keep of their time): only a day wholly before the cutoff goes, so none goes early. They
 * name no one, so no legal hold can reach them.
 */
export function expiredAnonymousSubmissions(db: Executor, institutionId: number, cutoffs: RetentionCutoffs) {
  return db
    .selectFrom('anonymous_submissions')
    .where('institution_id', '=', institutionId)
    .where('sent_on', '<', anonymousCutoff(cutoffs));
}

/** The first day (its UTC midnight, as anonymous answers are dated) whose answers are still kept. */
export function anonymousCutoff(cutoffs: RetentionCutoffs): number {
  return cutoffs.answers - (cutoffs.answers % DAY);
}
