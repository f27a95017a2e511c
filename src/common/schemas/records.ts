import { z } from 'zod/mini';
import { Email } from './common';
import { ownData, StudentEmailField } from './identity';

/**
 * A student's rights over what the institution holds about them (design section 14): erasure on
 * request, their own records to download, and staff records requests with FERPA's 45-day
 * deadline.
 */

const Timestamp = z.iso.datetime();

/** FERPA: a school answers a request to inspect records within 45 days. */
export const RECORDS_REQUEST_DAYS = 45;
export const RECORDS_REQUEST_NOTE_MAX = 1000;

// ---------------------------------------------------------------------------------------------
// Erasure.

export const ErasureRequest = z.object({ email: Email });
export type ErasureRequest = z.infer<typeof ErasureRequest>;

/** What an erasure removes of one student, by kind. */
export const ErasureCounts = z.object({
  /** The sign-in account, with its sessions and sign-in links. */
  accounts: z.number(),
  /** Check-ins, each with its answers and screening scores. */
  submissions: z.number(),
  question_answers: z.number(),
  screening_results: z.number(),
  drafts: z.number(),
  /** Emailed codes, proven addresses and unfinished registrations. */
  verification: z.number(),
  /** Personal survey links from campaigns. */
  invitations: z.number(),
  roster_entries: z.number(),
  /** Cases opened for the student, and their notes and history entries. */
  cases: z.number(),
  case_entries: z.number(),
  /** Mail still waiting to be sent to the student. */
  pending_mail: z.number(),
});
export type ErasureCounts = z.infer<typeof ErasureCounts>;

/** Why an erasure cannot go ahead now; null when it can. */
export const ErasureBlock = z.nullable(z.enum(['legal_hold', 'records_request']));

export const ErasurePreviewResponse = z.object({
  success: z.literal(true),
  counts: ErasureCounts,
  blocked_by: ErasureBlock,
});
export type ErasurePreviewResponse = z.infer<typeof ErasurePreviewResponse>;

export const ErasureResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  counts: ErasureCounts,
});
export type ErasureResponse = z.infer<typeof ErasureResponse>;

// ---------------------------------------------------------------------------------------------
// Records requests.

export const OpenRecordsRequest = z.object({
  email: Email,
  note: z.optional(
    z
      .string({ error: 'note must be text' })
      .check(
        z.trim(),
        z.maxLength(RECORDS_REQUEST_NOTE_MAX, `note must be at most ${RECORDS_REQUEST_NOTE_MAX} characters`),
      ),
  ),
});
export type OpenRecordsRequest = z.infer<typeof OpenRecordsRequest>;

export const RecordsRequest = z.object({
  id: z.number(),
  email: StudentEmailField,
  note: z.nullable(z.string()),
  opened_by: z.nullable(z.string()),
  opened_at: Timestamp,
  due_at: Timestamp,
  fulfilled_at: z.nullable(Timestamp),
  /** Open past its deadline. */
  overdue: z.boolean(),
});
export type RecordsRequest = z.infer<typeof RecordsRequest>;

export const RecordsRequestsResponse = z.object({
  success: z.literal(true),
  requests: z.array(RecordsRequest),
});
export type RecordsRequestsResponse = z.infer<typeof RecordsRequestsResponse>;

export const RecordsRequestResponse = z.object({ success: z.literal(true), request: RecordsRequest });
export type RecordsRequestResponse = z.infer<typeof RecordsRequestResponse>;

// ---------------------------------------------------------------------------------------------
// A student's own records.

const Answer = z.object({
  question: z.string(),
  category: z.string(),
  type: z.string(),
  value: z.string(),
});

/** The student's own answers to a validated instrument, in the publisher's wording. */
const InstrumentAnswers = z.object({
  instrument: z.string(),
  items: z.array(z.object({ item: z.string(), answer: z.string() })),
});

const CheckIn = z.object({
  submitted_at: Timestamp,
  /** Whether the address the check-in names was proven to be the student's. */
  verified: z.boolean(),
  answers: z.array(Answer),
  screening_answers: z.array(InstrumentAnswers),
});

const Draft = z.object({
  survey_id: z.number(),
  updated_at: Timestamp,
  /** The unsent answers as saved. */
  content: z.unknown(),
});

const Invitation = z.object({
  campaign_id: z.number(),
  round: z.number(),
  invited_at: Timestamp,
  expires_at: Timestamp,
  answered_at: z.nullable(Timestamp),
  reminders: z.number(),
});

/**
 * Everything the institution holds about the signed-in student, for them alone. Screening
 * scores and bands are shown to staff only (design section 13), and counsellors' case notes
 * are treatment records kept apart: neither is here.
 */
export const StudentRecords = ownData(
  z.object({
    generated_at: Timestamp,
    student: z.object({
      name: z.string(),
      email: z.string(),
      institution: z.string(),
      account_created_at: Timestamp,
    }),
    roster: z.nullable(
      z.object({
        name: z.string(),
        group: z.nullable(z.string()),
        added_at: Timestamp,
        last_invited_at: z.nullable(Timestamp),
        left_at: z.nullable(Timestamp),
      }),
    ),
    check_ins: z.array(CheckIn),
    drafts: z.array(Draft),
    invitations: z.array(Invitation),
    records_requests: z.array(
      z.object({ opened_at: Timestamp, due_at: Timestamp, fulfilled_at: z.nullable(Timestamp) }),
    ),
  }),
);
export type StudentRecords = z.infer<typeof StudentRecords>;

export const StudentRecordsResponse = z.object({ success: z.literal(true), records: StudentRecords });
export type StudentRecordsResponse = z.infer<typeof StudentRecordsResponse>;
