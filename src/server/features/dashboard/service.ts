import type { Kysely } from 'kysely';
import { can, roleName } from '../../../common/roles';
import {
  DASHBOARD_EVENT,
  type DashboardData,
  FLAGGED_LIST_LIMIT,
  type FlaggedPage,
  type FlaggedStudent,
  UNVERIFIED_LIST_LIMIT,
} from '../../../common/schemas/dashboard';
import { databaseUnavailability } from '../../db/availability';
import type { Executor } from '../../db/executor';
import { parseStoredJson, StoredReasons } from '../../db/stored-json';
import { readSnapshot } from '../../db/transaction-runner';
import type { Database, Role } from '../../db/types';
import { AppError } from '../../lib/errors';
import type { StaffUser } from '../../lib/guards';
import { streamSlots } from '../../lib/limits';
import { isSessionLive } from '../../lib/sessions';
import { DAY, now } from '../../lib/time';
import { LIMITS } from '../../limit-table';
import { EventStream, type LiveHub } from '../../live';
import { type CaseLink, caseLinksOf, followUpFigures } from '../cases';
import * as queries from './queries';
import {
  dashboardMonths,
  dayOf,
  dayStart,
  monthEnd,
  monthLabel,
  RESPONSE_WINDOW_DAYS,
} from './rollups/calendar';
import { type DashboardFigures, suppressSmallGroups, unsuppressed } from './small-groups';

/** Whole percent, rounded to nearest; 0 when there is nothing to divide by. */
function percent(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((100 * part) / whole)));
}

function parseReasons(json: string): string[] {
  return parseStoredJson(StoredReasons, json) ?? [];
}

async function readFlagged(
  db: Executor,
  institutionId: number,
  offset: number,
  limit: number,
): Promise<FlaggedStudent[]> {
  const rows = await queries.flaggedStudents(db, institutionId, offset, limit);
  const cases = await caseLinksOf(
    db,
    institutionId,
    rows.map((row) => row.respondent_id),
  );
  return rows.map((row) => ({
    name: row.name,
    email: row.email,
    tier: row.tier === 'urgent' ? 'urgent' : 'elevated',
    reasons: parseReasons(row.reasons),
    submitted_at: new Date(row.submitted_at ?? 0).toISOString(),
    ...caseColumns(row.respondent_id, cases),
  }));
}

/** The row's links: the student's history and case, and the case's state. */
function caseColumns(respondentId: number, cases: Map<number, CaseLink>) {
  const link = cases.get(respondentId);
  return { student_id: respondentId, case_id: link?.id ?? null, case_status: link?.status ?? null };
}

interface RateParts {
  students: number;
  base: number;
}

/**
 * The response rate and its monthly trend, as students over their denominator. Once the
 * institution has a roster, it is the denominator (design section 10): roster students who
 * answered over roster students known then. Until then, every student the institution knows of
 * (design section 5): `fallback`.
 */
async function responseRates(
  db: Executor,
  institutionId: number,
  options: { months: number[]; windowStart: number; fallback: { rate: RateParts; monthly: RateParts[] } },
): Promise<{ rate: RateParts; monthly: RateParts[]; overRoster: boolean }> {
  const { months, windowStart } = options;
  const roster = await queries.rosterFigures(db, institutionId, {
    activeSince: windowStart,
    monthEnds: months.map(monthEnd),
  });
  if (roster.size === 0) return { ...options.fallback, overRoster: false };
  const responders = await queries.rosterRespondersByMonth(db, institutionId, months[0] ?? 0);
  const byMonth = new Map<number, number>();
  for (const row of responders) {
    const month = Number(row.month);
    if (row.left_at !== null && Number(row.left_at) < monthEnd(month)) continue;
    byMonth.set(month, (byMonth.get(month) ?? 0) + Number(row.students));
  }
  return {
    rate: { students: roster.active, base: roster.size },
    monthly: months.map((month, index) => ({
      students: byMonth.get(month) ?? 0,
      base: roster.knownBy[index] ?? 0,
    })),
    overRoster: true,
  };
}

/** Every number of the dashboard, from three small reads whatever the data size. */
async function readDashboard(db: Executor, institutionId: number, at: number): Promise<DashboardFigures> {
  const months = dashboardMonths(at);
  const windowStart = at - RESPONSE_WINDOW_DAYS * DAY;
  const edgeDay = dayOf(windowStart);
  const { totals, activeStudents, asks, smallGroupThreshold } = await queries.dashboardFigures(
    db,
    institutionId,
    {
      afterDay: edgeDay,
      edgeFrom: windowStart,
      edgeTo: dayStart(edgeDay + 1),
    },
  );
  const monthRows = await queries.monthRowsFrom(db, institutionId, months[0] ?? 0);
  const flagged = await readFlagged(db, institutionId, 0, FLAGGED_LIST_LIMIT);
  const unverified = await queries.unverifiedFlagged(db, institutionId, windowStart, UNVERIFIED_LIST_LIMIT);
  // The list stops at its limit; the count does not (a flood of them must show as what it is).
  const unverifiedCount = await queries.countUnverifiedFlagged(db, institutionId, windowStart);
  const unverifiedCases = await caseLinksOf(
    db,
    institutionId,
    unverified.map((row) => row.respondent_id),
  );
  const followUp = await followUpFigures(db, institutionId, at);

  const byMonth = new Map(monthRows.map((row) => [row.month, row]));
  // Students known by a month's end: everyone, minus those first seen after that month.
  const knownBy = (month: number) =>
    totals.students -
    monthRows.filter((row) => row.month > month).reduce((sum, row) => sum + row.new_students, 0);
  const rates = await responseRates(db, institutionId, {
    months,
    windowStart,
    fallback: {
      rate: { students: activeStudents, base: totals.students },
      monthly: months.map((month) => ({ students: byMonth.get(month)?.students ?? 0, base: knownBy(month) })),
    },
  });

  return {
    months: months.map(monthLabel),
    monthly_num_responses: months.map((month) => byMonth.get(month)?.students ?? 0),
    monthly_support_perception: months.map((month) => {
      const row = byMonth.get(month);
      return percent(row?.support_positive ?? 0, row?.support_answers ?? 0);
    }),
    monthly_response_rates: rates.monthly.map((rate) => percent(rate.students, rate.base)),
    num_responses: totals.responses,
    num_flagged_students: totals.flagged_students,
    num_stable_students: totals.stable_students,
    response_rate: percent(rates.rate.students, rates.rate.base),
    num_students: totals.students,
    num_good_sleep_quality: totals.good_sleep,
    num_bad_sleep_quality: totals.poor_sleep,
    num_low_stress: totals.low_stress,
    num_moderate_stress: totals.moderate_stress,
    num_high_stress: totals.high_stress,
    has_sleep_questions: asks.sleep,
    has_support_questions: asks.support,
    has_stress_questions: asks.stress,
    flagged_students: flagged.map((student) => [student.name, student.email] as [string, string]),
    flagged_details: flagged,
    unverified_flagged: unverified.map((row) => ({
      name: row.name,
      email: row.email,
      tier: row.tier === 'urgent' ? 'urgent' : 'elevated',
      reasons: parseReasons(row.reasons),
      submitted_at: new Date(row.created_at).toISOString(),
      ...caseColumns(row.respondent_id, unverifiedCases),
    })),
    identities_shown: true,
    num_unverified_flagged: unverifiedCount,
    follow_up: followUp,
    small_group_threshold: smallGroupThreshold,
    generated_at: new Date(at).toISOString(),
    bases: {
      active: rates.rate.students,
      rateBase: rates.rate.base,
      rateBaseIsStudents: !rates.overRoster,
      monthlyRates: rates.monthly,
      monthlySupportAnswers: months.map((month) => byMonth.get(month)?.support_answers ?? 0),
    },
  };
}

/**
 * The dashboard as a role may see it: a viewer sees numbers only, so every list of students goes
 * (their counts stay). Not rows without names: a tier, reasons and a time are enough to tell who
 * answered in a small department. For the same reason a viewer's figures over small groups are
 * suppressed (design section 14); staff who may see names anyway see every figure.
 */
export function dashboardFor(role: Role, figures: DashboardFigures): DashboardData {
  if (can(roleName(role), 'student_identities')) return unsuppressed(figures);
  return {
    ...suppressSmallGroups(figures),
    flagged_students: [],
    flagged_details: [],
    unverified_flagged: [],
    identities_shown: false,
  };
}

/** The institution's dashboard, read from one snapshot so its numbers agree with each other. */
export async function getDashboard(options: {
  db: Kysely<Database>;
  institutionId: number;
  at?: number;
}): Promise<DashboardFigures> {
  const at = options.at ?? now();
  return readSnapshot(options.db, (trx) => readDashboard(trx, options.institutionId, at));
}

/** Flagged students past the dashboard's first page, in the same order. */
export async function listFlaggedStudents(options: {
  db: Kysely<Database>;
  institutionId: number;
  offset: number;
  limit: number;
}): Promise<FlaggedPage> {
  const { db, institutionId, offset, limit } = options;
  return readSnapshot(db, async (trx) => {
    const totals = await queries.totalsRow(trx, institutionId);
    return {
      total: totals?.flagged_students ?? 0,
      offset,
      students: await readFlagged(trx, institutionId, offset, limit),
    };
  });
}

/** Several tabs are normal; hundreds from one account are not. Counted across all instances. */
export const MAX_STREAMS_PER_USER = LIMITS.dashboardStreamsPerUser.max;
const HEARTBEAT_MS = 15_000;
/** A stream renews its slot at every heartbeat; one left by a crashed instance frees itself after this. */
const STREAM_SLOT_LEASE_MS = 3 * HEARTBEAT_MS;
const RECONNECT_MS = 3_000;

/**
 * A live dashboard for one staff member, as their role may see it: the current numbers at once (a reconnecting browser is back in
 * step), then fresh numbers after every change to the institution. Ends when the session does.
 */
export async function openDashboardStream(options: {
  db: Kysely<Database>;
  hub: LiveHub<DashboardFigures>;
  admin: StaffUser;
  sessionIdHash: string;
}): Promise<EventStream> {
  const { db, hub, admin, sessionIdHash } = options;
  const shown = (figures: DashboardFigures) => dashboardFor(admin.role, figures);
  const slot = await streamSlots(db, {
    perUser: MAX_STREAMS_PER_USER,
    leaseMs: STREAM_SLOT_LEASE_MS,
  }).acquire(admin.id);
  if (!slot) {
    throw new AppError(
      'TOO_MANY_REQUESTS',
      'Too many open dashboards. Close another dashboard tab and try again.',
    );
  }
  // A database blip does not end an open dashboard: the session is asked again at the next beat.
  const keepThroughOutage = (error: unknown) => {
    if (databaseUnavailability(error)) return true;
    throw error;
  };
  // Asking does not refresh the session: an open dashboard tab is not activity.
  const stillWanted = () => isSessionLive(db, sessionIdHash).catch(keepThroughOutage);
  // Asked at every heartbeat: a stream still wanted keeps its slot for another lease.
  const stillWantedRenewing = async () => {
    const live = await stillWanted();
    if (live) await slot.renew().catch(keepThroughOutage);
    return live;
  };
  const stream = new EventStream({
    heartbeatMs: HEARTBEAT_MS,
    retryMs: RECONNECT_MS,
    stillWanted: stillWantedRenewing,
  });
  stream.onClose(() => void slot.release().catch(() => undefined));
  try {
    const unwatch = await hub.watch({
      institutionId: admin.institutionId,
      userId: admin.id,
      deliver: async (data) => {
        if (await stillWanted()) stream.send(DASHBOARD_EVENT, shown(data));
        else stream.close();
      },
      close: () => stream.close(),
    });
    stream.onClose(unwatch);
    stream.send(DASHBOARD_EVENT, shown(await getDashboard({ db, institutionId: admin.institutionId })));
    return stream;
  } catch (error) {
    stream.close();
    throw error;
  }
}
