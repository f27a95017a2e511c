import { z } from 'zod/mini';
import { INSTRUMENT_IDS } from '../instruments/types';
import { FLAGGED_TIERS } from '../risk/tiers';
import { MIN_SMALL_GROUP_THRESHOLD } from '../small-groups';
import { CaseStatus } from './case-status';
import { carriesStudentData, StudentEmailField, StudentNameField } from './identity';

/** How many flagged students the dashboard carries; the rest are paged through /api/dashboard/flagged/. */
export const FLAGGED_LIST_LIMIT = 100;

/** How many unproven flagged answers the dashboard shows. */
export const UNVERIFIED_LIST_LIMIT = 20;

export const FlaggedTier = z.enum(FLAGGED_TIERS);
export type FlaggedTier = z.infer<typeof FlaggedTier>;

/** A student whose latest submission is flagged, with what the counsellor needs to act on it. */
export const FlaggedStudent = z.object({
  name: StudentNameField,
  email: StudentEmailField,
  tier: FlaggedTier,
  /** Human-readable reasons from the risk screening of that latest submission. */
  reasons: z.array(z.string()),
  /** ISO 8601 time of the latest submission. */
  submitted_at: z.string(),
  /** The student, for their history (GET /api/students/{id}/history/). */
  student_id: z.optional(z.number()),
  /** The student's open case, else their latest; null when none was opened. */
  case_id: z.optional(z.nullable(z.number())),
  case_status: z.optional(z.nullable(CaseStatus)),
});
export type FlaggedStudent = z.infer<typeof FlaggedStudent>;

const count = z.number().check(z.int(), z.gte(0));
const percent = z.number().check(z.int(), z.gte(0), z.lte(100));

/**
 * In place of a figure over a small group (design section 14), for those who may not see names:
 * never the figure itself. The web shows it as "Fewer than {fewer_than}".
 */
export const Suppressed = z.object({
  suppressed: z.literal(true),
  fewer_than: z.number().check(z.int(), z.gte(MIN_SMALL_GROUP_THRESHOLD)),
});
export type Suppressed = z.infer<typeof Suppressed>;

const shownCount = z.union([count, Suppressed]);
const shownPercent = z.union([percent, Suppressed]);
const shownMs = z.union([z.nullable(z.number()), Suppressed]);

/** Milliseconds from a flagged submission to an event, over the cases that reached it. */
const Delays = z.object({ count: shownCount, median_ms: shownMs, p90_ms: shownMs });

/** Case work at a glance (design section 9). */
export const FollowUpFigures = z.object({
  open_cases: shownCount,
  /** Open, not acknowledged, past the deadline. */
  overdue_cases: shownCount,
  /** From an urgent submission to the first alert mail sent. */
  time_to_alert_sent: Delays,
  /** From the submission that opened a case to its acknowledgement. */
  time_to_acknowledge: Delays,
});
export type FollowUpFigures = z.infer<typeof FollowUpFigures>;

/**
 * Spec section 3 "Dashboard data", with the definitions of design.md section 5. Months are UTC
 * calendar months; percentages are whole numbers (rounded to nearest). For staff who may not see
 * names, a figure over fewer students than the institution's threshold, and those that would give
 * it away, are `Suppressed` instead (design section 14).
 */
export const DashboardData = z.object({
  /** The 12 calendar months ending with the current one, oldest first, labelled like "Dec 2025". */
  months: z.array(z.string()),
  /** Distinct students who submitted in each month. */
  monthly_num_responses: z.array(shownCount),
  /** Percent of support answers in each month that are Good or Excellent (<= 2); 0 without any. */
  monthly_support_perception: z.array(shownPercent),
  /** Distinct students who submitted in each month / students known by that month's end (with a roster: roster students). */
  monthly_response_rates: z.array(shownPercent),
  /** All submissions ever. */
  num_responses: shownCount,
  /** Students whose latest submission is urgent or elevated. */
  num_flagged_students: shownCount,
  /** Students with at least one submission whose latest is not flagged. */
  num_stable_students: shownCount,
  /** Students who submitted in the last 30 days / all students; once there is a roster, roster students who did / the roster. */
  response_rate: shownPercent,
  /** All students: registered students and link respondents, one per email. */
  num_students: shownCount,
  num_good_sleep_quality: shownCount,
  num_bad_sleep_quality: shownCount,
  num_low_stress: shownCount,
  num_moderate_stress: shownCount,
  num_high_stress: shownCount,
  has_sleep_questions: z.boolean(),
  has_support_questions: z.boolean(),
  has_stress_questions: z.boolean(),
  /** [name, email] of flagged students, urgent first, then newest; at most FLAGGED_LIST_LIMIT. */
  flagged_students: z.array(z.tuple([StudentNameField, StudentEmailField])),
  /** The same students in the same order, with tier, reasons and time. */
  flagged_details: z.array(FlaggedStudent),
  /**
   * Urgent and elevated answers of the last 30 days from senders who have not proven the address
   * they gave (design section 8), newest first, at most UNVERIFIED_LIST_LIMIT: staff see them, but
   * they count in none of the numbers above and change no student's place in the list.
   */
  unverified_flagged: z.array(FlaggedStudent),
  /**
   * Whether the three lists above are filled. A viewer (design section 9: numbers only) gets
   * them empty, with the counts below and above in their place, small groups suppressed.
   */
  identities_shown: z.boolean(),
  /** Exactly how many answers the unverified list stands for, past its limit too (and for a viewer). */
  num_unverified_flagged: shownCount,
  follow_up: FollowUpFigures,
  /** The institution's small-group threshold: groups of fewer students are suppressed for viewers. */
  small_group_threshold: z.number().check(z.int(), z.gte(MIN_SMALL_GROUP_THRESHOLD)),
  /** ISO 8601 time the numbers were computed. */
  generated_at: z.string(),
});
export type DashboardData = z.infer<typeof DashboardData>;

export const FlaggedPageQuery = z.object({
  offset: z._default(
    z.coerce.number({ error: 'offset must be a number' }).check(z.int(), z.gte(0), z.lte(1_000_000)),
    0,
  ),
  limit: z._default(
    z.coerce.number({ error: 'limit must be a number' }).check(z.int(), z.gte(1), z.lte(FLAGGED_LIST_LIMIT)),
    FLAGGED_LIST_LIMIT,
  ),
});
export type FlaggedPageQuery = z.infer<typeof FlaggedPageQuery>;

/** One page of the flagged list, in dashboard order. */
export const FlaggedPage = z.object({
  total: count,
  offset: count,
  students: z.array(FlaggedStudent),
});
export type FlaggedPage = z.infer<typeof FlaggedPage>;

/** The live dashboard's stream: its events carry the dashboard, names included for those who see them. */
export const DashboardEventStream = carriesStudentData(z.string().check(z.describe('text/event-stream')));

/** Payload of the `dashboard` Server-Sent Event: the fresh numbers after a change. */
export const DashboardEvent = DashboardData;
export type DashboardEvent = DashboardData;

/** Name of the Server-Sent Event carrying fresh dashboard data. */
export const DASHBOARD_EVENT = 'dashboard';

/**
 * GET /api/dashboard/instruments/: per instrument and month, how many students' results fell in
 * each band, and the mean total with its change from the month before. Numbers only, so every
 * staff role (viewers too) may read it; for a viewer, small bands, a small month's students and
 * the mean over them (which would give their scores away) are `Suppressed`.
 */
export const InstrumentBandMonths = z.object({
  success: z.literal(true),
  instruments: z.array(
    z.object({
      instrument_id: z.enum(INSTRUMENT_IDS),
      name: z.string(),
      months: z.array(
        z.object({
          /** "2026-11", in UTC. */
          month: z.string(),
          /** Distinct students per band (or ASQ outcome) in that month. */
          bands: z.array(z.object({ band: z.string(), students: shownCount })),
          /** Distinct students with a result of the instrument in that month. */
          students: shownCount,
          /**
           * The mean total, each student's totals of the month averaged first so everyone counts
           * once; one decimal. Null for the ASQ, which has outcomes rather than a total.
           */
          mean_total: z.union([z.nullable(z.number()), Suppressed]),
          /** The mean's change from the previous month listed (a gap is skipped); null for the first. */
          mean_change: z.union([
            z.nullable(z.object({ from_month: z.string(), change: z.number() })),
            Suppressed,
          ]),
        }),
      ),
    }),
  ),
});
export type InstrumentBandMonths = z.infer<typeof InstrumentBandMonths>;
