import type { Executor } from '../../../db/executor';
import type { CommitHooks } from '../../../db/transaction-runner';
import type { TransactionSubscriber } from '../../../lib/transaction-event';
import { announceChangeAfterCommit } from '../../../live';
import type { ProvenSubmission, SubmissionStored, SubmissionsProven } from '../../surveys';
import { dayOf, monthOf } from './calendar';
import { countersBeforeCommit, type PendingCounters } from './pending-counters';
import * as queries from './queries';
import { flagPriority, isNewer, type LatestSubmission, latestDelta, summariseAnswers } from './student-state';

export type { RecordedAnswer } from './student-state';

/** Emails identify students across registration and shared links; compare them in one case. */
export function studentKey(email: string): string {
  return email.trim().toLowerCase();
}

interface StudentRollup {
  id: number;
  isNew: boolean;
  knownAt: number;
  latest: LatestSubmission | null;
}

type StudentRow = NonNullable<Awaited<ReturnType<typeof queries.lockStudent>>>;

function knownStudent(row: StudentRow): StudentRollup {
  const latest =
    row.latest_submission_id === null || row.latest_at === null || row.latest_tier === null
      ? null
      : {
          submissionId: row.latest_submission_id,
          submittedAt: row.latest_at,
          tier: row.latest_tier,
          sleepMean: row.latest_sleep_mean,
          stressMean: row.latest_stress_mean,
        };
  return { id: row.id, isNew: false, knownAt: row.known_at, latest };
}

/**
 * The student's rollup row, created when first seen; locked for the rest of the transaction.
 * Looked up first: most submissions come from students already known, and then one statement
 * does. When a concurrent transaction (PostgreSQL) creates the row between the lookup and the
 * insert, the insert does nothing and the second lookup waits for that transaction's commit.
 */
async function claimStudent(
  trx: Executor,
  institutionId: number,
  email: string,
  at: number,
): Promise<StudentRollup> {
  const known = await queries.lockStudent(trx, institutionId, email);
  if (known) return knownStudent(known);
  const newId = await queries.insertStudentIfAbsent(trx, {
    institution_id: institutionId,
    email,
    known_at: at,
  });
  if (newId !== undefined) return { id: newId, isNew: true, knownAt: at, latest: null };
  const row = await queries.lockStudent(trx, institutionId, email);
  if (!row) throw new Error(`claimStudent: no dashboard student ${email} at institution ${institutionId}`);
  return knownStudent(row);
}

/**
 * A student counts towards "students known by the month's end" from the first time we knew of
 * them. Moves that count when an earlier sighting turns up (e.g. a back-dated import).
 */
async function moveKnownAt(
  trx: Executor,
  counters: PendingCounters,
  institutionId: number,
  student: StudentRollup,
  at: number,
) {
  if (monthOf(at) !== monthOf(student.knownAt)) {
    counters.addToMonth(institutionId, monthOf(student.knownAt), { new_students: -1 });
    counters.addToMonth(institutionId, monthOf(at), { new_students: 1 });
  }
  await queries.updateStudent(trx, student.id, { known_at: at });
}

/**
 * Moves one student's latest submission between the per-day buckets behind the response rate.
 * The buckets are shared by every submission of the day: written with the other counters, just
 * before the commit (see PendingCounters).
 */
function moveLatestDay(
  counters: PendingCounters,
  institutionId: number,
  before: LatestSubmission | null,
  after: LatestSubmission,
) {
  const from = before ? dayOf(before.submittedAt) : null;
  const to = dayOf(after.submittedAt);
  if (from === to) return;
  if (from !== null) counters.addToLatestDay(institutionId, from, -1);
  counters.addToLatestDay(institutionId, to, 1);
}

/**
 * Folds one new submission into its institution's dashboard rollups. Called inside the
 * submission transaction, so the dashboard never disagrees with the submissions table, and a
 * rolled-back submission leaves no trace in it. The month and totals counters are written with
 * the transaction's commit, summed with those of the submissions committed alongside.
 */
async function recordSubmission(
  trx: Executor,
  hooks: CommitHooks,
  submission: ProvenSubmission,
): Promise<void> {
  const counters = hooks.beforeCommit(countersBeforeCommit);
  const { institutionId, createdAt } = submission;
  const student = await claimStudent(trx, institutionId, studentKey(submission.email), createdAt);
  const summary = summariseAnswers(submission.answers);
  const candidate: LatestSubmission = {
    submissionId: submission.submissionId,
    submittedAt: createdAt,
    tier: submission.tier,
    sleepMean: summary.sleepMean,
    stressMean: summary.stressMean,
  };

  const becomesLatest = isNewer(candidate, student.latest);
  if (becomesLatest) {
    await queries.updateStudent(trx, student.id, {
      latest_submission_id: candidate.submissionId,
      latest_at: candidate.submittedAt,
      latest_tier: candidate.tier,
      latest_priority: flagPriority(candidate.tier),
      latest_sleep_mean: candidate.sleepMean,
      latest_stress_mean: candidate.stressMean,
    });
  }
  if (!student.isNew && createdAt < student.knownAt)
    await moveKnownAt(trx, counters, institutionId, student, createdAt);

  const month = monthOf(createdAt);
  // A latest submission in this month means the month is marked already: no need to ask.
  const firstThisMonth =
    !(student.latest && monthOf(student.latest.submittedAt) === month) &&
    (await queries.markStudentMonth(trx, student.id, month));
  counters.addToMonth(institutionId, month, {
    responses: 1,
    students: firstThisMonth ? 1 : 0,
    new_students: student.isNew ? 1 : 0,
    support_answers: summary.supportAnswers,
    support_positive: summary.supportPositive,
  });
  counters.addToTotals(institutionId, {
    responses: 1,
    students: student.isNew ? 1 : 0,
    ...(becomesLatest ? latestDelta(student.latest, candidate) : {}),
  });
  if (becomesLatest) moveLatestDay(counters, institutionId, student.latest, candidate);
}

/**
 * The rollups' part in a stored submission (surveys' SubmissionStored): a proven one counts at
 * once; an unproven one changes no counter until it is proven (SubmissionsProven).
 */
export const rollUpStoredSubmission: TransactionSubscriber<SubmissionStored> = async (trx, hooks, stored) => {
  if (stored.proven) await recordSubmission(trx, hooks, stored);
};

/** The rollups' part in submissions just proven: each counts now, at its own time. */
export const rollUpProvenSubmissions: TransactionSubscriber<SubmissionsProven> = async (
  trx,
  hooks,
  proven,
) => {
  for (const submission of proven.submissions) await recordSubmission(trx, hooks, submission);
};

/**
 * A registered student counts as a student (response rate denominators) from registration on,
 * even before answering. Call inside the registration transaction.
 */
export async function recordStudentJoined(
  trx: Executor,
  hooks: CommitHooks,
  joined: { institutionId: number; email: string; joinedAt: number },
): Promise<void> {
  const { institutionId, joinedAt } = joined;
  const student = await claimStudent(trx, institutionId, studentKey(joined.email), joinedAt);
  const counters = hooks.beforeCommit(countersBeforeCommit);
  if (student.isNew) {
    counters.addToMonth(institutionId, monthOf(joinedAt), { new_students: 1 });
    counters.addToTotals(institutionId, { students: 1 });
  } else if (joinedAt < student.knownAt) {
    await moveKnownAt(trx, counters, institutionId, student, joinedAt);
  } else {
    // A link respondent registering: already counted from their first answer.
    return;
  }
  announceChangeAfterCommit(hooks, institutionId);
}
