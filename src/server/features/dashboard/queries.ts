import { FLAGGED_TIERS } from '../../../common/risk/tiers';
import { smallGroupThresholdOf } from '../../../common/small-groups';
import type { Executor } from '../../db/executor';
import type { QuestionsTable } from '../../db/types';
import type { TotalsCounters } from './rollups/queries';

// ---------------------------------------------------------------------------------------------
// Read side: a fixed handful of indexed lookups per dashboard, whatever the data size.

export function totalsRow(db: Executor, institutionId: number) {
  return db
    .selectFrom('dashboard_totals')
    .selectAll()
    .where('institution_id', '=', institutionId)
    .executeTakeFirst();
}

/** Month rows from `fromMonth` on (the dashboard's window, plus any dated later). */
export function monthRowsFrom(db: Executor, institutionId: number, fromMonth: number) {
  return db
    .selectFrom('dashboard_months')
    .selectAll()
    .where('institution_id', '=', institutionId)
    .where('month', '>=', fromMonth)
    .orderBy('month')
    .execute();
}

interface ActivityWindow {
  /** Whole days after this one are summed from the per-day buckets. */
  afterDay: number;
  /** [edgeFrom, edgeTo): the partial day at the window's start, counted exactly. */
  edgeFrom: number;
  edgeTo: number;
}

/**
 * Every single-value figure of the dashboard in one statement: the counters, the students active
 * in the response-rate window, and which analytic categories the current templates ask about.
 */
export async function dashboardFigures(db: Executor, institutionId: number, window: ActivityWindow) {
  const asks = (category: QuestionsTable['category']) =>
    db
      .selectFrom('questions')
      .innerJoin('survey_templates', 'survey_templates.id', 'questions.template_id')
      .select('questions.id')
      .where('survey_templates.institution_id', '=', institutionId)
      .where('questions.category', '=', category);
  const row = await db
    .selectFrom('institutions')
    .leftJoin('dashboard_totals as totals', 'totals.institution_id', 'institutions.id')
    .select((eb) => [
      'institutions.small_group_threshold',
      'totals.responses',
      'totals.students',
      'totals.flagged_students',
      'totals.stable_students',
      'totals.good_sleep',
      'totals.poor_sleep',
      'totals.low_stress',
      'totals.moderate_stress',
      'totals.high_stress',
      eb
        .selectFrom('dashboard_latest_days')
        .select((sub) => sub.fn.sum<number>('students').as('students'))
        .where('institution_id', '=', institutionId)
        .where('day', '>', window.afterDay)
        .as('active_whole_days'),
      eb
        .selectFrom('dashboard_students')
        .select((sub) => sub.fn.countAll<number>().as('students'))
        .where('institution_id', '=', institutionId)
        .where('latest_at', '>=', window.edgeFrom)
        .where('latest_at', '<', window.edgeTo)
        .as('active_edge_day'),
      eb.exists(asks('sleep')).as('asks_sleep'),
      eb.exists(asks('support')).as('asks_support'),
      eb.exists(asks('stress')).as('asks_stress'),
    ])
    .where('institutions.id', '=', institutionId)
    .executeTakeFirst();
  const counter = (value: number | string | null | undefined) => Number(value ?? 0);
  return {
    totals: {
      responses: counter(row?.responses),
      students: counter(row?.students),
      flagged_students: counter(row?.flagged_students),
      stable_students: counter(row?.stable_students),
      good_sleep: counter(row?.good_sleep),
      poor_sleep: counter(row?.poor_sleep),
      low_stress: counter(row?.low_stress),
      moderate_stress: counter(row?.moderate_stress),
      high_stress: counter(row?.high_stress),
    } satisfies TotalsCounters,
    activeStudents: counter(row?.active_whole_days) + counter(row?.active_edge_day),
    smallGroupThreshold: smallGroupThresholdOf(row?.small_group_threshold),
    // SQLite answers EXISTS with 1/0, PostgreSQL with true/false.
    asks: {
      sleep: Boolean(row?.asks_sleep),
      support: Boolean(row?.asks_support),
      stress: Boolean(row?.asks_stress),
    },
  };
}

/** Flagged students in dashboard order (urgent first, then newest), read off an index. */
export function flaggedStudents(db: Executor, institutionId: number, offset: number, limit: number) {
  // The page is picked from the index first and only then joined: however the planner estimates
  // the tables, it never has to join every flagged student to sort them.
  const page = db
    .selectFrom('dashboard_students')
    .select(['id', 'email', 'latest_submission_id', 'latest_tier', 'latest_at', 'latest_priority'])
    .where('institution_id', '=', institutionId)
    .where('latest_priority', '>', 0)
    .orderBy('latest_priority', 'desc')
    .orderBy('latest_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset);
  return db
    .selectFrom(page.as('student'))
    .innerJoin('submissions as latest', 'latest.id', 'student.latest_submission_id')
    .select([
      'student.email',
      'student.latest_tier as tier',
      'student.latest_at as submitted_at',
      'latest.student_name as name',
      'latest.reasons',
      'latest.respondent_id',
    ])
    .orderBy('student.latest_priority', 'desc')
    .orderBy('student.latest_at', 'desc')
    .orderBy('student.id', 'desc')
    .execute();
}

/** How many flagged submissions since `since` are not (yet) proven: exact, however long the list. */
export async function countUnverifiedFlagged(db: Executor, institutionId: number, since: number) {
  const row = await db
    .selectFrom('submissions')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('institution_id', '=', institutionId)
    .where('verified_at', 'is', null)
    .where('created_at', '>=', since)
    .where('tier', 'in', FLAGGED_TIERS)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Flagged submissions not (yet) proven, newest first: shown to staff, counted nowhere. */
export function unverifiedFlagged(db: Executor, institutionId: number, since: number, limit: number) {
  return db
    .selectFrom('submissions')
    .select([
      'student_name as name',
      'school_email as email',
      'tier',
      'reasons',
      'created_at',
      'respondent_id',
    ])
    .where('institution_id', '=', institutionId)
    .where('verified_at', 'is', null)
    .where('created_at', '>=', since)
    .where('tier', 'in', FLAGGED_TIERS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// The roster as the response rate's denominator (design section 10), once the institution has one.

/**
 * The roster's size, how many of its students answered since `activeSince`, and how many had
 * joined it before each of `monthEnds`: indexed counts whose cost follows the roster, not the
 * number of submissions.
 */
export async function rosterFigures(
  db: Executor,
  institutionId: number,
  window: { activeSince: number; monthEnds: number[] },
) {
  const row = await db
    .selectFrom('institutions')
    .select((eb) => [
      eb
        .selectFrom('roster_students')
        .select((sub) => sub.fn.countAll<number | string>().as('n'))
        .where('institution_id', '=', institutionId)
        .where('left_at', 'is', null)
        .as('size'),
      eb
        .selectFrom('roster_students')
        .innerJoin('dashboard_students', (join) =>
          join
            .onRef('dashboard_students.institution_id', '=', 'roster_students.institution_id')
            .onRef('dashboard_students.email', '=', 'roster_students.email'),
        )
        .select((sub) => sub.fn.countAll<number | string>().as('n'))
        .where('roster_students.institution_id', '=', institutionId)
        .where('roster_students.left_at', 'is', null)
        .where('dashboard_students.latest_at', '>=', window.activeSince)
        .as('active'),
      ...window.monthEnds.map((end, index) =>
        eb
          .selectFrom('roster_students')
          .select((sub) => sub.fn.countAll<number | string>().as('n'))
          .where('institution_id', '=', institutionId)
          .where('created_at', '<', end)
          // On the roster at the month's end: not yet left by then.
          .where((where) => where.or([where('left_at', 'is', null), where('left_at', '>=', end)]))
          .as(`known_${index}`),
      ),
    ])
    .where('institutions.id', '=', institutionId)
    .executeTakeFirst();
  const values = (row ?? {}) as Record<string, number | string | null>;
  return {
    size: Number(values.size ?? 0),
    active: Number(values.active ?? 0),
    knownBy: window.monthEnds.map((_end, index) => Number(values[`known_${index}`] ?? 0)),
  };
}

/**
 * Roster students who answered in each month from `fromMonth` on, by when they left (null: on
 * the roster): a month counts those still on the roster at its end, as its denominator does.
 */
export function rosterRespondersByMonth(db: Executor, institutionId: number, fromMonth: number) {
  return db
    .selectFrom('roster_students')
    .innerJoin('dashboard_students', (join) =>
      join
        .onRef('dashboard_students.institution_id', '=', 'roster_students.institution_id')
        .onRef('dashboard_students.email', '=', 'roster_students.email'),
    )
    .innerJoin('dashboard_student_months', 'dashboard_student_months.student_id', 'dashboard_students.id')
    .select((eb) => [
      'dashboard_student_months.month',
      'roster_students.left_at',
      eb.fn.countAll<number | string>().as('students'),
    ])
    .where('roster_students.institution_id', '=', institutionId)
    .where('dashboard_student_months.month', '>=', fromMonth)
    .groupBy(['dashboard_student_months.month', 'roster_students.left_at'])
    .execute();
}

/** The institution's small-group threshold, as used. */
export async function smallGroupThreshold(db: Executor, institutionId: number): Promise<number> {
  const row = await db
    .selectFrom('institutions')
    .select('small_group_threshold')
    .where('id', '=', institutionId)
    .executeTakeFirst();
  return smallGroupThresholdOf(row?.small_group_threshold);
}
