import { z } from 'zod/mini';
import { CrisisResource, InstitutionCrisisResource } from '../risk/crisis-resources';
import { MAX_SMALL_GROUP_THRESHOLD, MIN_SMALL_GROUP_THRESHOLD } from '../small-groups';
import { isTimeZone } from '../time-zones';
import { Email } from './common';

/** Design section 9: an acknowledgement window is whole minutes, from 1 minute to 30 days. */
const MIN_ACK_MINUTES = 1;
const MAX_ACK_MINUTES = 30 * 24 * 60;
export const DEFAULT_URGENT_ACK_MINUTES = 60;
export const DEFAULT_ELEVATED_ACK_MINUTES = 48 * 60;
const MAX_CONTACTS = 20;
const MAX_CRISIS_RESOURCES = 10;

const Contacts = /* @__NO_SIDE_EFFECTS__ */ (label: string) =>
  z.array(Email).check(
    z.maxLength(MAX_CONTACTS, `At most ${MAX_CONTACTS} ${label}es`),
    z.refine((emails) => new Set(emails).size === emails.length, `Each ${label} once`),
  );

export const InstitutionSettings = z.object({
  /** Mailed at once when a submission is urgent. */
  alert_emails: Contacts('alert address'),
  /** Mailed when a case is not acknowledged in time, and again while it stays overdue. */
  escalation_emails: Contacts('escalation address'),
  urgent_ack_minutes: z
    .number({ error: 'urgent_ack_minutes must be a number' })
    .check(
      z.int('urgent_ack_minutes must be a whole number of minutes'),
      z.gte(MIN_ACK_MINUTES, 'urgent_ack_minutes must be at least 1 minute'),
      z.lte(MAX_ACK_MINUTES, 'urgent_ack_minutes must be at most 30 days'),
    ),
  /** Hours, in steps of whole minutes (0.5 is 30 minutes): 1 minute to 30 days. */
  elevated_ack_hours: z.number({ error: 'elevated_ack_hours must be a number' }).check(
    z.refine((hours) => Number.isInteger(Math.round(hours * 60 * 1e6) / 1e6), {
      error: 'elevated_ack_hours must come to whole minutes',
    }),
    z.gte(MIN_ACK_MINUTES / 60, 'elevated_ack_hours must be at least 1 minute'),
    z.lte(MAX_ACK_MINUTES / 60, 'elevated_ack_hours must be at most 30 days (720 hours)'),
  ),
  time_zone: z
    .string({ error: 'time_zone must be a text' })
    .check(z.refine(isTimeZone, { error: 'time_zone must be an IANA time zone such as Europe/London' })),
  /**
   * The institution's own resources, each with its hours, shown to a student whose answers are
   * urgent along with the always-open national lines (never instead of them).
   */
  crisis_resources: z.array(InstitutionCrisisResource).check(
    z.maxLength(MAX_CRISIS_RESOURCES, `At most ${MAX_CRISIS_RESOURCES} crisis resources`),
    z.refine((resources) => new Set(resources.map(({ name }) => name)).size === resources.length, {
      error: 'Each crisis resource name once',
    }),
  ),
  /** List the institution's own resources before the always-open lines; absent means after. */
  crisis_resources_first: z.optional(z.boolean({ error: 'crisis_resources_first must be true or false' })),
  /**
   * Groups of fewer students are shown as "Fewer than N" to staff who may not see names (design
   * section 14). Absent keeps the current value: a client that does not know it never lowers it.
   */
  small_group_threshold: z.optional(
    z
      .number({ error: 'small_group_threshold must be a number' })
      .check(
        z.int('small_group_threshold must be a whole number of students'),
        z.gte(
          MIN_SMALL_GROUP_THRESHOLD,
          `small_group_threshold must be at least ${MIN_SMALL_GROUP_THRESHOLD}`,
        ),
        z.lte(
          MAX_SMALL_GROUP_THRESHOLD,
          `small_group_threshold must be at most ${MAX_SMALL_GROUP_THRESHOLD}`,
        ),
      ),
  ),
});
export type InstitutionSettings = z.infer<typeof InstitutionSettings>;

export const InstitutionSettingsResponse = z.extend(InstitutionSettings, {
  success: z.literal(true),
  /** As stored: a resource saved before hours were asked for has none until it is saved again. */
  crisis_resources: z.array(CrisisResource),
  crisis_resources_first: z.boolean(),
  small_group_threshold: z.number(),
});
export type InstitutionSettingsResponse = z.infer<typeof InstitutionSettingsResponse>;

/** Minutes from hours given in whole minutes (the contract's elevated_ack_hours). */
export function hoursToMinutes(hours: number): number {
  return Math.round(hours * 60);
}
