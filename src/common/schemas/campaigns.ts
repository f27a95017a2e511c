import { z } from 'zod/mini';
import { INSTRUMENT_IDS } from '../instruments/types';
import { databaseId } from './common';
import { Suppressed } from './dashboard';
import { StudentEmailField, StudentNameField } from './identity';
import { ROSTER_GROUP_MAX_LENGTH } from './roster';

/** Campaigns: the schedule form made real for roster groups (design sections 10 and 12). */

export const WEEKDAYS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;
export const Weekday = z.enum(WEEKDAYS, { error: `day must be one of ${WEEKDAYS.join(', ')}` });
export type Weekday = z.infer<typeof Weekday>;

const DEFAULT_REMINDER_AFTER_DAYS = 2;
const MAX_REMINDER_AFTER_DAYS = 14;
/** Reminders per round, to those who have not answered. */
export const MAX_REMINDERS = 2;
const MAX_CAMPAIGN_GROUPS = 50;

const CAMPAIGN_STATUSES = ['active', 'paused', 'finished', 'cancelled'] as const;
export const CampaignStatus = z.enum(CAMPAIGN_STATUSES);
export type CampaignStatus = z.infer<typeof CampaignStatus>;

export const CampaignRequest = z
  .object({
    template_id: databaseId('template_id'),
    groups: z
      .array(
        z
          .string({ error: 'Each group must be text' })
          .check(
            z.trim(),
            z.minLength(1, 'A group name cannot be blank'),
            z.maxLength(ROSTER_GROUP_MAX_LENGTH, 'A group name is too long'),
          ),
        { error: 'groups must be a list of roster groups' },
      )
      .check(z.maxLength(MAX_CAMPAIGN_GROUPS, `Choose at most ${MAX_CAMPAIGN_GROUPS} groups`)),
    /** Every student of the roster, whatever their group (groups and no_group are then moot). */
    all_students: z._default(z.boolean({ error: 'all_students must be true or false' }), false),
    /** The students the roster gives no group, besides the named groups. */
    no_group: z._default(z.boolean({ error: 'no_group must be true or false' }), false),
    day: Weekday,
    hour: z
      .number({ error: 'hour must be a number from 1 to 12' })
      .check(
        z.int('hour must be a whole number'),
        z.gte(1, 'hour must be from 1 to 12'),
        z.lte(12, 'hour must be from 1 to 12'),
      ),
    minute: z
      .number({ error: 'minute must be a number from 0 to 59' })
      .check(
        z.int('minute must be a whole number'),
        z.gte(0, 'minute must be from 0 to 59'),
        z.lte(59, 'minute must be from 0 to 59'),
      ),
    ampm: z.enum(['AM', 'PM'], { error: 'ampm must be AM or PM' }),
    recurring: z._default(z.boolean({ error: 'recurring must be true or false' }), false),
    send_now: z._default(z.boolean({ error: 'send_now must be true or false' }), false),
    /**
     * Its answers are stored with nothing that names the student, and staff see them only as
     * figures over enough students (design section 14).
     */
    anonymous: z._default(z.boolean({ error: 'anonymous must be true or false' }), false),
    reminder_after_days: z._default(
      z
        .number({ error: `reminder_after_days must be a number from 0 to ${MAX_REMINDER_AFTER_DAYS}` })
        .check(
          z.int('reminder_after_days must be a whole number'),
          z.gte(0, 'reminder_after_days cannot be negative (0 sends no reminders)'),
          z.lte(MAX_REMINDER_AFTER_DAYS, `reminder_after_days is at most ${MAX_REMINDER_AFTER_DAYS}`),
        ),
      DEFAULT_REMINDER_AFTER_DAYS,
    ),
  })
  .check(
    z.refine((request) => request.all_students || request.no_group || request.groups.length > 0, {
      message: 'Choose at least one roster group, "All students" or "Students with no group"',
      path: ['groups'],
    }),
  );
export type CampaignRequest = z.input<typeof CampaignRequest>;

export const Campaign = z.object({
  id: z.number(),
  template_id: z.number(),
  /** The template's name, as the campaign list shows it. */
  template_name: z.string(),
  groups: z.array(z.string()),
  all_students: z.boolean(),
  no_group: z.boolean(),
  /** Its first round went out at creation; with recurring false, the only one (no weekly slot). */
  send_now: z.boolean(),
  anonymous: z.boolean(),
  status: CampaignStatus,
  /** ISO 8601 time of the next round; null when none is due (one-off sent, paused, cancelled). */
  next_run_at: z.nullable(z.string()),
  /** ISO 8601 time the latest round went out; null before the first. */
  last_run_at: z.nullable(z.string()),
  /** Invitations sent over all rounds, answered among them, and reminders sent. */
  invited: z.number(),
  answered: z.number(),
  reminded: z.number(),
  day: Weekday,
  /** "9:00 AM", in `time_zone`. */
  time: z.string(),
  time_zone: z.string(),
  recurring: z.boolean(),
  reminder_after_days: z.number(),
  rounds: z.number(),
  created_at: z.string(),
});
export type Campaign = z.infer<typeof Campaign>;

export const CampaignListResponse = z.object({ success: z.literal(true), campaigns: z.array(Campaign) });
export type CampaignListResponse = z.infer<typeof CampaignListResponse>;

export const CampaignResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  campaign: Campaign,
});
export type CampaignResponse = z.infer<typeof CampaignResponse>;

/** Names listed at most by the not-answered list; the counts cover everyone. */
export const NOT_ANSWERED_MAX_LISTED = 500;

export const NotAnsweredStudent = z.object({
  name: StudentNameField,
  email: StudentEmailField,
  group: z.nullable(z.string()),
  /** Reminders sent to them this round. */
  reminders: z.number(),
});

/** A campaign as the screens about one campaign name it, in the words of the campaign list. */
const CAMPAIGN_HEADING = {
  template_name: true,
  groups: true,
  all_students: true,
  no_group: true,
  status: true,
  anonymous: true,
} as const;

/**
 * Who of the current round has not answered yet. `students` only for roles that may see
 * students' names (its read is audited), and never for an anonymous campaign, where those who
 * have answered would be everyone else; a viewer gets the counts.
 */
export const NotAnsweredResponse = z.object({
  success: z.literal(true),
  /** Which campaign, in the words of the campaign list: no student in it. */
  campaign: z.pick(Campaign, { ...CAMPAIGN_HEADING, last_run_at: true }),
  /** The current round (0: none sent yet). */
  round: z.number(),
  invited: z.number(),
  not_answered: z.number(),
  students: z.optional(z.array(NotAnsweredStudent)),
});
export type NotAnsweredResponse = z.infer<typeof NotAnsweredResponse>;

const shownCount = z.union([z.number(), Suppressed]);

/**
 * The results of an anonymous campaign, for every staff role alike: figures over all its rounds,
 * each hidden as "Fewer than N" under the small-group rule (design section 14). No answer is ever
 * shown on its own, and no written answer at all.
 */
export const AnonymousResultsResponse = z.object({
  success: z.literal(true),
  /** Which campaign, in the words of the campaign list. */
  campaign: z.pick(Campaign, CAMPAIGN_HEADING),
  /** The small-group threshold the figures were hidden by. */
  threshold: z.number(),
  answered: z.number(),
  /** How many answers each screening tier took in. */
  tiers: z.object({
    none: shownCount,
    monitor: shownCount,
    elevated: shownCount,
    urgent: shownCount,
  }),
  /** Each 1-5 question's mean answer, over every answer (all are required). */
  questions: z.array(z.object({ text: z.string(), mean: z.union([z.nullable(z.number()), Suppressed]) })),
  /**
   * Each instrument block's answers per band (or ASQ outcome), as scored: a PHQ-2 (GAD-2) that
   * reached its cut point counts under the PHQ-9 (GAD-7) it became (`scored_as`). Every band the
   * block can reach is listed.
   */
  instruments: z.array(
    z.object({
      instrument_id: z.enum(INSTRUMENT_IDS),
      name: z.string(),
      bands: z.array(z.object({ scored_as: z.enum(INSTRUMENT_IDS), band: z.string(), count: shownCount })),
    }),
  ),
});
export type AnonymousResultsResponse = z.infer<typeof AnonymousResultsResponse>;
