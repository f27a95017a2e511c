import { z } from 'zod/mini';
import { pageParams } from './common';
import { StudentNameField } from './identity';

const AUDIT_PAGE_SIZE = 50;
const AUDIT_MAX_PAGE_SIZE = 200;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date from a date input, a day of the institution's time zone; the range includes both of its days. */
const Day = /* @__NO_SIDE_EFFECTS__ */ (label: string) =>
  z.optional(
    z.string().check(
      z.regex(DATE, `${label} must be a date like 2026-01-31`),
      z.refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), `${label} is not a real date`),
    ),
  );

/** Filters of the Activity screen, shared by the list and its CSV export. */
export const AuditFilters = z
  .object({
    /** The actor's email, exactly (case does not matter). */
    actor: z.optional(z.string().check(z.trim(), z.maxLength(254, 'actor is too long'))),
    /** An action (`staff.invite`) or a family of them (`staff`). */
    action: z.optional(
      z
        .string()
        .check(
          z.trim(),
          z.maxLength(60, 'action is too long'),
          z.regex(/^[a-z._]*$/, 'action may hold lower-case letters, dots and underscores only'),
        ),
    ),
    /** Entries about a student whose name or email holds this text (case does not matter). */
    student: z.optional(z.string().check(z.trim(), z.maxLength(200, 'student is too long'))),
    from: Day('from'),
    to: Day('to'),
  })
  .check(
    z.refine(
      (filters) => !filters.from || !filters.to || filters.from <= filters.to,
      'from must not be after to',
    ),
  );
export type AuditFilters = z.infer<typeof AuditFilters>;

export const AuditQuery = z.extend(AuditFilters, {
  ...pageParams(AUDIT_PAGE_SIZE, AUDIT_MAX_PAGE_SIZE),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditEntry = z.object({
  id: z.number().check(z.int()),
  /** ISO 8601. */
  at: z.string(),
  /** Null for the product's own actions (jobs). */
  actor_email: z.nullable(z.string()),
  /** The actor's name today; null for the product's own actions. */
  actor_name: z.nullable(z.string()),
  action: z.string(),
  subject_type: z.nullable(z.string()),
  subject_id: z.nullable(z.string()),
  /**
   * Who the subject is, by name: the student a case or history is about, or the staff member an
   * entry concerns. Null where the reader may not see students' names, or the subject is no person.
   */
  subject_name: z.nullable(StudentNameField),
  detail: z.nullable(z.record(z.string(), z.unknown())),
  address: z.nullable(z.string()),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditPage = z.object({
  success: z.literal(true),
  total: z.number().check(z.int()),
  page: z.number().check(z.int()),
  page_size: z.number().check(z.int()),
  /** The institution's time zone: its days are the date filters' days, its clock the times shown. */
  time_zone: z.string(),
  entries: z.array(AuditEntry),
});
export type AuditPage = z.infer<typeof AuditPage>;
