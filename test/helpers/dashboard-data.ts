import type { Kysely } from 'kysely';
import type { InstrumentAnswers, InstrumentId } from '../../src/common/instruments';
import { submissionEvents } from '../../src/server/app';
import { writeTransaction } from '../../src/server/db/transaction-runner';
import type { Database, QuestionsTable, SubmissionsTable } from '../../src/server/db/types';
import { findUserByEmail, insertStudentAccount } from '../../src/server/features/auth';
import {
  checkInstrumentAnswers,
  saveScreenedSubmission,
  upsertRespondent,
} from '../../src/server/features/surveys';
import { TEST_PASSWORD, testPasswordHash } from './factories';

/** Submissions counted on the dashboard (and refreshing it), opening no case, as before. */
const rollupsOnly = submissionEvents();

type Category = QuestionsTable['category'];
type Tier = SubmissionsTable['tier'];

export interface QuestionRef {
  id: number | null;
  text: string;
  category: Category;
  type: 'likert' | 'text';
}

export interface AnswerSpec {
  question: QuestionRef;
  value: string | number;
}

/** The active template's questions, first of each category, as the survey would show them. */
export async function activeQuestions(db: Kysely<Database>, institutionId: number) {
  const rows = await db
    .selectFrom('questions')
    .innerJoin('active_templates', 'active_templates.template_id', 'questions.template_id')
    .select([
      'questions.id',
      'questions.question_text',
      'questions.category',
      'questions.question_type',
      'questions.template_id',
    ])
    .where('active_templates.institution_id', '=', institutionId)
    .orderBy('questions.position')
    .execute();
  const byCategory = (category: Category, type: 'likert' | 'text' = 'likert'): QuestionRef => {
    const row = rows.find((question) => question.category === category && question.question_type === type);
    if (!row) throw new Error(`no ${type} ${category} question in the active template`);
    return { id: row.id, text: row.question_text, category, type };
  };
  return {
    templateId: rows[0]?.template_id ?? null,
    general: byCategory('general'),
    sleep: byCategory('sleep'),
    stress: byCategory('stress'),
    support: byCategory('support'),
    safety: byCategory('safety'),
    comment: byCategory('general', 'text'),
  };
}

/** A registered student, counted by the dashboard from `registeredAt`, through registration's own code. */
export async function addStudent(
  db: Kysely<Database>,
  options: { institutionId: number; email: string; name: string; registeredAt: number },
) {
  const email = options.email.toLowerCase();
  const id = await writeTransaction(db, async (trx, hooks) =>
    insertStudentAccount(trx, hooks, {
      institutionId: options.institutionId,
      email,
      name: options.name,
      passwordHash: await testPasswordHash(),
      joinedAt: options.registeredAt,
    }),
  );
  return { id, email, password: TEST_PASSWORD };
}

/**
 * A stored submission with the tier, time and answers given, written by the survey feature's own
 * code: respondent, submission and answers, and the dashboard rollups, in one transaction. Test
 * data stands for submissions whose address was proven, unless `unproven` says otherwise.
 */
export async function addSubmission(
  db: Kysely<Database>,
  options: {
    institutionId: number;
    email: string;
    name: string;
    at: number;
    tier: Tier;
    reasons?: string[];
    templateId?: number | null;
    answers: AnswerSpec[];
    /** Answers to instrument blocks of the template, scored as the survey scores them. */
    instruments?: { questionId: number; instrumentId: InstrumentId; answers: InstrumentAnswers }[];
    /** Sent through a shared link by someone who has not proven the address. */
    unproven?: true;
  },
): Promise<number> {
  const email = options.email.toLowerCase();
  const likert = options.answers.filter(
    (answer) => answer.question.type === 'likert' && answer.question.category !== 'safety',
  );
  const likertMean = likert.length
    ? likert.reduce((sum, answer) => sum + Number(answer.value), 0) / likert.length
    : null;
  return writeTransaction(db, async (trx, hooks) => {
    const user = await findUserByEmail(trx, email);
    const respondent = {
      name: options.name,
      email,
      userId: options.unproven ? null : (user?.id ?? null),
      proven: options.unproven !== true,
    };
    const respondentId = await upsertRespondent(trx, {
      institutionId: options.institutionId,
      ...respondent,
      createdAt: options.at,
    });
    const submissionId = await saveScreenedSubmission(trx, hooks, {
      institutionId: options.institutionId,
      templateId: options.templateId ?? null,
      respondentId,
      respondent,
      createdAt: options.at,
      screened: { tier: options.tier, reasons: options.reasons ?? [], likertMean },
      answers: options.answers.map((answer) => ({
        questionId: answer.question.id,
        questionText: answer.question.text,
        questionType: answer.question.type,
        category: answer.question.category,
        value: String(answer.value),
        language: 'en',
      })),
      instrumentBlocks: (options.instruments ?? []).map((block) =>
        checkInstrumentAnswers({ id: block.questionId, instrumentId: block.instrumentId }, block.answers),
      ),
      events: rollupsOnly,
    });
    if (submissionId === undefined) throw new Error('addSubmission: nothing stored');
    return submissionId;
  });
}

/** Every rollup row of an institution, in a form that compares equal however it was produced. */
export async function rollupSnapshot(db: Kysely<Database>, institutionId: number) {
  const totals = await db
    .selectFrom('dashboard_totals')
    .selectAll()
    .where('institution_id', '=', institutionId)
    .executeTakeFirst();
  const months = await db
    .selectFrom('dashboard_months')
    .selectAll()
    .where('institution_id', '=', institutionId)
    .where((eb) =>
      eb.or([
        eb('responses', '!=', 0),
        eb('students', '!=', 0),
        eb('new_students', '!=', 0),
        eb('support_answers', '!=', 0),
      ]),
    )
    .orderBy('month')
    .execute();
  const days = await db
    .selectFrom('dashboard_latest_days')
    .select(['day', 'students'])
    .where('institution_id', '=', institutionId)
    .where('students', '!=', 0)
    .orderBy('day')
    .execute();
  const students = await db
    .selectFrom('dashboard_students')
    .select([
      'email',
      'known_at',
      'latest_submission_id',
      'latest_at',
      'latest_tier',
      'latest_priority',
      'latest_sleep_mean',
      'latest_stress_mean',
    ])
    .where('institution_id', '=', institutionId)
    .orderBy('email')
    .execute();
  const studentMonths = await db
    .selectFrom('dashboard_student_months')
    .innerJoin('dashboard_students', 'dashboard_students.id', 'dashboard_student_months.student_id')
    .select(['dashboard_students.email', 'dashboard_student_months.month'])
    .where('dashboard_students.institution_id', '=', institutionId)
    .orderBy('dashboard_students.email')
    .orderBy('dashboard_student_months.month')
    .execute();
  return { totals, months, days, students, studentMonths };
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const round = (part: number, whole: number) => (whole > 0 ? Math.round((100 * part) / whole) : 0);
const mean = (values: number[]) =>
  values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : null;

/**
 * design.md section 5 computed the slow, obvious way from the source tables: the oracle the
 * rollups are tested against. Shares no code with the feature.
 */
export async function referenceDashboard(db: Kysely<Database>, institutionId: number, at: number) {
  const users = await db
    .selectFrom('users')
    .select(['email', 'created_at'])
    .where('institution_id', '=', institutionId)
    .where('role', '=', 'student')
    .execute();
  const submissions = await db
    .selectFrom('submissions')
    .innerJoin('respondents', 'respondents.id', 'submissions.respondent_id')
    .select([
      'submissions.id',
      'submissions.created_at',
      'submissions.tier',
      'submissions.student_name',
      'respondents.email',
    ])
    .where('submissions.institution_id', '=', institutionId)
    // Design section 8: only submissions whose address was proven count.
    .where('submissions.verified_at', 'is not', null)
    .execute();
  const answers = await db
    .selectFrom('answers')
    .innerJoin('submissions', 'submissions.id', 'answers.submission_id')
    .select([
      'answers.submission_id',
      'answers.category',
      'answers.question_type',
      'answers.value',
      'submissions.created_at',
    ])
    .where('submissions.institution_id', '=', institutionId)
    .where('submissions.verified_at', 'is not', null)
    .execute();

  const knownAt = new Map<string, number>();
  const know = (email: string, time: number) =>
    knownAt.set(email, Math.min(knownAt.get(email) ?? time, time));
  for (const user of users) know(user.email, user.created_at);
  for (const submission of submissions) know(submission.email, submission.created_at);

  const latest = new Map<string, (typeof submissions)[number]>();
  for (const submission of submissions) {
    const current = latest.get(submission.email);
    const newer =
      !current ||
      submission.created_at > current.created_at ||
      (submission.created_at === current.created_at && submission.id > current.id);
    if (newer) latest.set(submission.email, submission);
  }
  const likertOf = (submissionId: number, category: string) =>
    answers
      .filter(
        (answer) =>
          answer.submission_id === submissionId &&
          answer.category === category &&
          answer.question_type === 'likert',
      )
      .map((answer) => Number(answer.value));

  const current = new Date(at);
  const months = Array.from({ length: 12 }, (_, index) => {
    const start = Date.UTC(current.getUTCFullYear(), current.getUTCMonth() - 11 + index, 1);
    const end = Date.UTC(current.getUTCFullYear(), current.getUTCMonth() - 10 + index, 1);
    const date = new Date(start);
    return { start, end, label: `${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCFullYear()}` };
  });
  const inMonth = (time: number, month: { start: number; end: number }) =>
    time >= month.start && time < month.end;
  const studentsIn = (month: { start: number; end: number }) =>
    new Set(
      submissions
        .filter((submission) => inMonth(submission.created_at, month))
        .map((submission) => submission.email),
    ).size;

  const latestList = [...latest.values()];
  const isFlagged = (tier: string) => tier === 'urgent' || tier === 'elevated';
  const sleepMeans = latestList
    .map((submission) => mean(likertOf(submission.id, 'sleep')))
    .filter((value) => value !== null);
  const stressMeans = latestList
    .map((submission) => mean(likertOf(submission.id, 'stress')))
    .filter((value) => value !== null);
  const flagged = latestList
    .filter((submission) => isFlagged(submission.tier))
    .sort((a, b) => (a.tier === b.tier ? b.created_at - a.created_at : a.tier === 'urgent' ? -1 : 1));
  const windowStart = at - 30 * 24 * 3_600_000;

  return {
    months: months.map((month) => month.label),
    monthly_num_responses: months.map(studentsIn),
    monthly_support_perception: months.map((month) => {
      const support = answers.filter(
        (answer) =>
          answer.category === 'support' &&
          answer.question_type === 'likert' &&
          inMonth(answer.created_at, month),
      );
      return round(support.filter((answer) => Number(answer.value) <= 2).length, support.length);
    }),
    monthly_response_rates: months.map((month) =>
      round(studentsIn(month), [...knownAt.values()].filter((time) => time < month.end).length),
    ),
    num_responses: submissions.length,
    num_flagged_students: flagged.length,
    num_stable_students: latestList.length - flagged.length,
    response_rate: round(
      latestList.filter((submission) => submission.created_at >= windowStart).length,
      knownAt.size,
    ),
    num_students: knownAt.size,
    num_good_sleep_quality: sleepMeans.filter((value) => value <= 2).length,
    num_bad_sleep_quality: sleepMeans.filter((value) => value >= 4).length,
    num_low_stress: stressMeans.filter((value) => value <= 2).length,
    num_moderate_stress: stressMeans.filter((value) => value > 2 && value < 4).length,
    num_high_stress: stressMeans.filter((value) => value >= 4).length,
    flagged_students: flagged.map((submission) => [submission.student_name, submission.email]),
  };
}
