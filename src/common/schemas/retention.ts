import { z } from 'zod/mini';
import { Email } from './common';
import { StudentEmailField } from './identity';

/**
 * How long an institution keeps students' data (design section 14), and the legal holds that
 * keep one student's data whatever its age. Periods are whole months, counted back from the
 * moment of each daily purge.
 */

export const RETENTION_DEFAULTS = {
  answers_months: 24,
  closed_cases_months: 24,
  audit_log_months: 84,
} as const;

/** Twenty years: beyond it a period is a typing slip, not a policy. */
const MAX_MONTHS = 240;
/** The audit log is the record that every other deletion was made: kept at least a year. */
const MIN_AUDIT_MONTHS = 12;

const months = /* @__NO_SIDE_EFFECTS__ */ (field: string, min: number) =>
  z
    .number({ error: `${field} must be a number of months` })
    .check(
      z.int(`${field} must be a whole number of months`),
      z.gte(min, `${field} must be at least ${min} month${min === 1 ? '' : 's'}`),
      z.lte(MAX_MONTHS, `${field} must be at most ${MAX_MONTHS} months`),
    );

export const RetentionSettings = z.object({
  answers_months: months('answers_months', 1),
  closed_cases_months: months('closed_cases_months', 1),
  audit_log_months: months('audit_log_months', MIN_AUDIT_MONTHS),
});
export type RetentionSettings = z.infer<typeof RetentionSettings>;

const Timestamp = z.iso.datetime();

/** What one kind of record loses at the next purge: how many, and from before when. */
const PurgeShare = z.object({ count: z.number(), before: Timestamp });

export const RetentionSettingsResponse = z.object({
  success: z.literal(true),
  ...RetentionSettings.shape,
  next_purge: z.object({
    at: Timestamp,
    /** Submissions with their answers and scores. */
    submissions: PurgeShare,
    /** Anonymous campaigns' answers, by the day they were sent: the first day kept is `before`. */
    anonymous_answers: PurgeShare,
    /** Unsent answers left untouched as long. */
    drafts: PurgeShare,
    /** Resolved cases with their notes, events and what a student shared asking to be contacted. */
    closed_cases: PurgeShare,
    audit_log: PurgeShare,
    /** Students whose data the purge leaves alone, being under a legal hold. */
    held_students: z.number(),
  }),
});
export type RetentionSettingsResponse = z.infer<typeof RetentionSettingsResponse>;

export const LEGAL_HOLD_REASON_MAX = 1000;

const Reason = z
  .string({ error: 'reason is required' })
  .check(
    z.trim(),
    z.minLength(1, 'reason is required'),
    z.maxLength(LEGAL_HOLD_REASON_MAX, `reason must be at most ${LEGAL_HOLD_REASON_MAX} characters`),
  );

export const PlaceLegalHold = z.object({ email: Email, reason: Reason });
export type PlaceLegalHold = z.infer<typeof PlaceLegalHold>;

export const LiftLegalHold = z.object({ reason: Reason });
export type LiftLegalHold = z.infer<typeof LiftLegalHold>;

export const LegalHold = z.object({
  id: z.number(),
  email: StudentEmailField,
  reason: z.string(),
  placed_by: z.nullable(z.string()),
  placed_at: Timestamp,
});
export type LegalHold = z.infer<typeof LegalHold>;

export const LegalHoldsResponse = z.object({ success: z.literal(true), holds: z.array(LegalHold) });
export type LegalHoldsResponse = z.infer<typeof LegalHoldsResponse>;

export const LegalHoldResponse = z.object({ success: z.literal(true), hold: LegalHold });
export type LegalHoldResponse = z.infer<typeof LegalHoldResponse>;
