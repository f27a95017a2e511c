import { z } from 'zod/mini';

/** The roster: the registrar's list of students an institution surveys (design sections 10 and 12). */

export const ROSTER_NAME_MAX_LENGTH = 200;
export const ROSTER_GROUP_MAX_LENGTH = 100;
const ROSTER_PAGE_MAX = 100;

/** One refused line of an upload: its line number in the file (the header is line 1). */
export const RosterRowError = z.object({ line: z.number(), message: z.string() });
export type RosterRowError = z.infer<typeof RosterRowError>;

export const RosterImportResponse = z.object({
  success: z.literal(true),
  /** Students new to the roster. */
  imported: z.number(),
  /** Students already on it, whose name and group the file now sets. */
  updated: z.number(),
  /** Refused lines; the other lines are imported. */
  errors: z.array(RosterRowError),
  /** Students on the roster but not in the file, marked as left (with missing=leave; else 0). */
  left: z.number(),
});
export type RosterImportResponse = z.infer<typeof RosterImportResponse>;

export const RosterQuery = z.object({
  offset: z._default(
    z.coerce
      .number({ error: 'offset must be a number' })
      .check(
        z.int('offset must be a whole number'),
        z.gte(0, 'offset cannot be negative'),
        z.lte(10_000_000, 'offset is too large'),
      ),
    0,
  ),
  limit: z._default(
    z.coerce
      .number({ error: 'limit must be a number' })
      .check(
        z.int('limit must be a whole number'),
        z.gte(1, 'limit must be at least 1'),
        z.lte(ROSTER_PAGE_MAX, `limit is at most ${ROSTER_PAGE_MAX}`),
      ),
    50,
  ),
  /** Part of a name or an email address. */
  q: z.optional(z.string({ error: 'q must be text' }).check(z.maxLength(200, 'The search is too long'))),
  group: z.optional(
    z
      .string({ error: 'group must be text' })
      .check(z.maxLength(ROSTER_GROUP_MAX_LENGTH, 'group is too long')),
  ),
});
export type RosterQuery = z.input<typeof RosterQuery>;

/** What a re-upload does with the students on the roster whom the file no longer lists. */
export const MISSING_CHOICES = ['keep', 'leave'] as const;
export const RosterImportQuery = z.object({
  missing: z._default(z.enum(MISSING_CHOICES, { error: 'missing must be keep or leave' }), 'keep'),
});
export type RosterImportQuery = z.input<typeof RosterImportQuery>;

/** Marks a student as having left (invited no more, outside the response rate), or back. */
export const RosterLeftRequest = z.object({
  left: z.boolean({ error: 'left must be true or false' }),
});
export type RosterLeftRequest = z.infer<typeof RosterLeftRequest>;

export const RosterStudent = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  group: z.nullable(z.string()),
  /** ISO 8601 times, or null when never. */
  last_invited_at: z.nullable(z.string()),
  last_answered_at: z.nullable(z.string()),
  /** When the student was marked as having left; null while on the roster. */
  left_at: z.nullable(z.string()),
});
export type RosterStudent = z.infer<typeof RosterStudent>;

export const RosterPage = z.object({
  success: z.literal(true),
  /** Students matching the search, over all pages. */
  total: z.number(),
  offset: z.number(),
  students: z.array(RosterStudent),
  /** Every group of the roster, for the group filter and the campaign form. */
  groups: z.array(z.string()),
});
export type RosterPage = z.infer<typeof RosterPage>;

export const RosterStudentResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  student: RosterStudent,
});
export type RosterStudentResponse = z.infer<typeof RosterStudentResponse>;
