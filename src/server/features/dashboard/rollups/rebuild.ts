import type { Kysely } from 'kysely';
import type { Executor } from '../../../db/executor';
import { writeTransaction } from '../../../db/transaction-runner';
import type { Database } from '../../../db/types';
import { dayOf, monthOf } from './calendar';
import * as queries from './queries';
import { studentKey } from './record';
import {
  flagPriority,
  isNewer,
  type LatestCounters,
  type LatestSubmission,
  latestContribution,
  type RecordedAnswer,
  summariseAnswers,
} from './student-state';

/** Submissions read per round trip while rebuilding. */
const PAGE = 2_000;

interface StudentFacts {
  knownAt: number;
  latest: LatestSubmission | null;
  months: Set<number>;
}

type MonthFacts = queries.MonthCounters;

const emptyMonth = (): MonthFacts => ({
  responses: 0,
  students: 0,
  new_students: 0,
  support_answers: 0,
  support_positive: 0,
});

/** Replays every submission through the same arithmetic as the submit transaction. */
async function foldSources(trx: Executor, institutionId: number) {
  const students = new Map<string, StudentFacts>();
  const months = new Map<number, MonthFacts>();
  const monthFacts = (month: number) => {
    const facts = months.get(month) ?? emptyMonth();
    months.set(month, facts);
    return facts;
  };
  const know = (email: string, at: number) => {
    const key = studentKey(email);
    const facts = students.get(key) ?? { knownAt: at, latest: null, months: new Set<number>() };
    facts.knownAt = Math.min(facts.knownAt, at);
    students.set(key, facts);
    return facts;
  };

  for (const user of await queries.studentUsers(trx, institutionId)) know(user.email, user.created_at);
  const emailByRespondent = new Map(
    (await queries.respondentEmails(trx, institutionId)).map((row) => [row.id, row.email]),
  );

  let responses = 0;
  for (let afterId = 0; ; ) {
    const page = await queries.submissionsAfterId(trx, institutionId, afterId, PAGE);
    if (page.length === 0) break;
    afterId = page[page.length - 1]?.id ?? afterId;
    const answers = new Map<number, RecordedAnswer[]>();
    for (const fact of await queries.answerFacts(
      trx,
      page.map((submission) => submission.id),
    )) {
      const list = answers.get(fact.submission_id) ?? [];
      list.push({ category: fact.category, questionType: fact.question_type, value: fact.value });
      answers.set(fact.submission_id, list);
    }
    for (const submission of page) {
      const email = emailByRespondent.get(submission.respondent_id);
      if (email === undefined) continue;
      responses += 1;
      const student = know(email, submission.created_at);
      const summary = summariseAnswers(answers.get(submission.id) ?? []);
      const candidate: LatestSubmission = {
        submissionId: submission.id,
        submittedAt: submission.created_at,
        tier: submission.tier,
        sleepMean: summary.sleepMean,
        stressMean: summary.stressMean,
      };
      if (isNewer(candidate, student.latest)) student.latest = candidate;
      const month = monthOf(submission.created_at);
      const facts = monthFacts(month);
      facts.responses += 1;
      facts.support_answers += summary.supportAnswers;
      facts.support_positive += summary.supportPositive;
      if (!student.months.has(month)) {
        student.months.add(month);
        facts.students += 1;
      }
    }
  }
  return { students, months, monthFacts, responses };
}

/**
 * Recomputes an institution's rollups from its users, submissions and answers. The submit
 * transaction keeps them exact; this exists for data written by other means (imports, seeding,
 * benchmarks) and as the reference the incremental path is tested against.
 */
export async function rebuildDashboardRollups(db: Kysely<Database>, institutionId: number): Promise<void> {
  await writeTransaction(db, (trx) => rebuildRollupsIn(trx, institutionId));
  await queries.refreshPlannerStatistics(db);
}

/** The same recount, inside the caller's transaction (a purge that removed submissions). */
export async function rebuildRollupsIn(trx: Executor, institutionId: number): Promise<void> {
  const { students, months, monthFacts, responses } = await foldSources(trx, institutionId);

  const latestTotals: LatestCounters = latestContribution(null);
  const latestDays = new Map<number, number>();
  for (const student of students.values()) {
    monthFacts(monthOf(student.knownAt)).new_students += 1;
    const contribution = latestContribution(student.latest);
    for (const key of Object.keys(latestTotals) as (keyof LatestCounters)[])
      latestTotals[key] += contribution[key];
    if (student.latest) {
      const day = dayOf(student.latest.submittedAt);
      latestDays.set(day, (latestDays.get(day) ?? 0) + 1);
    }
  }

  await queries.deleteRollups(trx, institutionId);
  const ids = await queries.insertStudents(
    trx,
    [...students].map(([email, student]) => ({
      institution_id: institutionId,
      email,
      known_at: student.knownAt,
      latest_submission_id: student.latest?.submissionId ?? null,
      latest_at: student.latest?.submittedAt ?? null,
      latest_tier: student.latest?.tier ?? null,
      latest_priority: flagPriority(student.latest?.tier ?? null),
      latest_sleep_mean: student.latest?.sleepMean ?? null,
      latest_stress_mean: student.latest?.stressMean ?? null,
    })),
  );
  await queries.insertStudentMonths(
    trx,
    [...students].flatMap(([email, student]) =>
      [...student.months].map((month) => ({ student_id: ids.get(email) as number, month })),
    ),
  );
  await queries.insertMonths(
    trx,
    [...months].map(([month, facts]) => ({ institution_id: institutionId, month, ...facts })),
  );
  await queries.insertLatestDays(
    trx,
    [...latestDays].map(([day, count]) => ({ institution_id: institutionId, day, students: count })),
  );
  await queries.insertTotals(trx, {
    institution_id: institutionId,
    responses,
    students: students.size,
    ...latestTotals,
  });
}
