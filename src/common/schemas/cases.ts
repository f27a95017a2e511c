import { z } from 'zod/mini';
import { DECLINED, INSTRUMENT_IDS } from '../instruments/types';
import { FLAGGED_TIERS, RiskTier, SCREENING_RULES } from '../risk/tiers';
import { storedRolesWith } from '../roles';
import { CASE_STATUSES, CaseStatus } from './case-status';
import { databaseId, pageParams } from './common';
import { FlaggedTier } from './dashboard';
import { carriesStudentData, StudentEmailField, StudentNameField } from './identity';
import { QuestionCategory, QuestionType } from './templates';

/** Case work (design sections 9 and 12). */

export { CASE_STATUSES, CaseStatus } from './case-status';

/** How a case ended; `other` needs a note saying what happened. */
export const CASE_OUTCOMES = [
  'connected_to_counselling',
  'referred_elsewhere',
  'emergency_services',
  'no_concern_after_contact',
  'unable_to_reach',
  'other',
] as const;
export const CaseOutcome = z.enum(CASE_OUTCOMES, {
  error: `outcome must be one of ${CASE_OUTCOMES.join(', ')}`,
});
export type CaseOutcome = z.infer<typeof CaseOutcome>;

export const CASE_OUTCOME_LABELS: Record<CaseOutcome, string> = {
  connected_to_counselling: 'Connected to counselling',
  referred_elsewhere: 'Referred elsewhere',
  emergency_services: 'Emergency services',
  no_concern_after_contact: 'No concern after contact',
  unable_to_reach: 'Unable to reach',
  other: 'Other',
};

export const CASE_STATUS_LABELS: Record<CaseStatus, string> = {
  new: 'New',
  acknowledged: 'Acknowledged',
  in_progress: 'In progress',
  resolved: 'Resolved',
};

export const CASE_NOTE_MAX_LENGTH = 5000;

/** Staff roles that may work cases and read a student's history (design section 9). */
export const CASE_WORKER_ROLES = storedRolesWith('cases');

const Timestamp = z.iso.datetime();

export const CaseAssignee = z.object({ id: z.number(), name: z.string(), email: z.string() });
export type CaseAssignee = z.infer<typeof CaseAssignee>;

export const CaseSummary = z.object({
  id: z.number(),
  student_id: z.number(),
  student_name: StudentNameField,
  school_email: StudentEmailField,
  /**
   * While the case is unproven: the name its newest unproven sender gave, which may not be the
   * student's (anyone with the link can name any address). student_name is the record's own.
   */
  claimed_name: z.nullable(StudentNameField),
  tier: FlaggedTier,
  status: CaseStatus,
  assigned_to: z.nullable(CaseAssignee),
  opened_at: Timestamp,
  acknowledge_by: Timestamp,
  /** Not acknowledged and past acknowledge_by. */
  overdue: z.boolean(),
  /** Whether one of its submissions was proven to come from the student (design section 8). */
  verified: z.boolean(),
});
export type CaseSummary = z.infer<typeof CaseSummary>;

/**
 * Which cases: verified (a proven answer of the student's is in it), unproven (only answers from
 * senders who have not proven the address, who may be anyone), or both, verified first.
 */
export const CASE_QUEUES = ['all', 'verified', 'unproven'] as const;
export const CaseQueue = z.enum(CASE_QUEUES, { error: 'queue must be all, verified or unproven' });
export type CaseQueue = z.infer<typeof CaseQueue>;

/** Which cases by state: the open ones (any state but resolved), every one, or one state. */
export const CASE_STATE_FILTERS = ['open', 'all', ...CASE_STATUSES] as const;

/**
 * Orders of the case list: `priority` is the follow-up order (verified before unconfirmed,
 * overdue first, then by deadline, resolved last); the others sort by one column, `dir` saying
 * which way (tier: urgent first ascending; status: in the order cases move through).
 */
export const CASE_SORTS = ['priority', 'student', 'tier', 'status', 'opened', 'deadline'] as const;
export type CaseSort = (typeof CASE_SORTS)[number];

export const CASE_PAGE_SIZE = 50;
export const CASE_MAX_PAGE_SIZE = 200;

/** Filters of the Cases screen, shared by the list and its CSV export. */
export const CaseFilters = z.object({
  status: z._default(
    z.enum(CASE_STATE_FILTERS, { error: `status must be one of ${CASE_STATE_FILTERS.join(', ')}` }),
    'open',
  ),
  queue: z._default(CaseQueue, 'all'),
  tier: z._default(
    z.enum(['all', ...FLAGGED_TIERS], { error: 'tier must be all, urgent or elevated' }),
    'all',
  ),
  /** `anyone`, `nobody` (unassigned) or a staff member's id. */
  assigned_to: z._default(
    z
      .string()
      .check(z.regex(/^(anyone|nobody|[1-9]\d{0,9})$/, 'assigned_to must be anyone, nobody or a staff id')),
    'anyone',
  ),
  /** Cases of students whose name or email holds this text (case does not matter). */
  q: z.optional(z.string().check(z.trim(), z.maxLength(200, 'q is too long'))),
  sort: z._default(z.enum(CASE_SORTS, { error: `sort must be one of ${CASE_SORTS.join(', ')}` }), 'priority'),
  dir: z._default(z.enum(['asc', 'desc'], { error: 'dir must be asc or desc' }), 'asc'),
});
export type CaseFilters = z.infer<typeof CaseFilters>;

export const CaseListQuery = z.extend(CaseFilters, {
  ...pageParams(CASE_PAGE_SIZE, CASE_MAX_PAGE_SIZE),
});
export type CaseListQuery = z.infer<typeof CaseListQuery>;

export const CaseListResponse = z.object({
  success: z.literal(true),
  /** The page asked for. */
  cases: z.array(CaseSummary),
  /** Cases matching the filters, on every page. */
  total: z.number().check(z.int()),
  page: z.number().check(z.int()),
  page_size: z.number().check(z.int()),
  /** Open cases in each queue, whatever the filters. */
  open_counts: z.object({ verified: z.number(), unproven: z.number() }),
  /** Who may be assigned a case: the institution's admins and counsellors. */
  assignees: z.array(CaseAssignee),
});
export type CaseListResponse = z.infer<typeof CaseListResponse>;

/** Which rule raised which tier, in the survey's own words. */
export const ScreeningFinding = z.object({
  tier: z.enum(['urgent', 'elevated', 'monitor']),
  rule: z.enum(SCREENING_RULES),
  reason: z.string(),
});
export type ScreeningFinding = z.infer<typeof ScreeningFinding>;

/** A phrase the screening matched in a written answer: `value.slice(start, end)`. */
export const ScreenedPhrase = z.object({
  start: z.number(),
  end: z.number(),
  severity: z.enum(['high', 'medium']),
});
export type ScreenedPhrase = z.infer<typeof ScreenedPhrase>;

/** One answer of a submission, as the student saw the question and gave the answer. */
export const SubmittedAnswer = z.object({
  /** Null once the question has been deleted; its text, type and category were kept with the answer. */
  question_id: z.nullable(z.number()),
  /** The question's text when the student answered (copied with the answer; questions are never edited). */
  question_text: z.string(),
  question_type: QuestionType,
  category: QuestionCategory,
  /** Likert: "1" (best) to "5" (worst). Text: the written answer, in full. */
  value: z.string(),
  /**
   * Likert: the words the student saw for the value ("Often", "Very Poor"); null for written
   * answers and for answers to deleted questions with labels of their own, which were not kept.
   */
  answer_label: z.nullable(z.string()),
  /** Written answers: where the screening matched a phrase, in text order. */
  phrases: z.array(ScreenedPhrase),
});
export type SubmittedAnswer = z.infer<typeof SubmittedAnswer>;

/** One item of a scored instrument, as asked and answered. */
export const InstrumentItemAnswer = z.object({
  item_id: z.string(),
  /** Its number in the published form ("item 9"). */
  number: z.number(),
  text: z.string(),
  answer: z.union([z.number(), z.literal(DECLINED)]),
  /** The scale's words for the answer ("Several days"), or "Prefer not to answer". */
  answer_label: z.string(),
});
export type InstrumentItemAnswer = z.infer<typeof InstrumentItemAnswer>;

/**
 * A validated instrument's result in a submission (design section 13), for staff only: never
 * shown to the student. `disclaimer` goes beside every score and band.
 */
export const InstrumentScore = z.object({
  instrument_id: z.enum(INSTRUMENT_IDS),
  /** What the sitting was scored as: a PHQ-2 that reached its cut point is a PHQ-9. */
  scored_as: z.enum(INSTRUMENT_IDS),
  name: z.string(),
  /** Null for the ASQ, which has outcomes rather than a total. */
  total: z.nullable(z.number()),
  /** The publisher's band, or the ASQ's outcome; null where the publisher names none. */
  band: z.nullable(z.string()),
  tier: RiskTier,
  reason: z.string(),
  acute: z.boolean(),
  safety_assessment: z.boolean(),
  items: z.array(InstrumentItemAnswer),
  /** The change from the student's previous total of the same instrument; null for the first. */
  change: z.nullable(
    z.object({
      previous: z.number(),
      change: z.number(),
      /** Null where no clinically significant change is published for the instrument. */
      clinically_significant: z.nullable(z.boolean()),
      description: z.string(),
    }),
  ),
  disclaimer: z.string(),
});
export type InstrumentScore = z.infer<typeof InstrumentScore>;

/** One of the student's submissions, as staff see it in a case or the history. */
export const StudentSubmission = z.object({
  id: z.number(),
  submitted_at: Timestamp,
  tier: RiskTier,
  /** The reasons recorded when it arrived, in the wording of the time. */
  reasons: z.array(z.string()),
  /** The rules that apply to its answers, worded today; their highest tier is `tier` unless the rules changed since. */
  findings: z.array(ScreeningFinding),
  /** Every question in the order asked, with the answer. */
  answers: carriesStudentData(z.array(SubmittedAnswer)),
  /** Each validated instrument it asked, scored; empty for a survey without any. */
  instruments: carriesStudentData(z.array(InstrumentScore)),
  verified: z.boolean(),
  /** Mean Likert value per category (1 = best, 5 = worst); only the categories it asked. */
  category_means: z.record(z.string(), z.number()),
  /** The change of each category mean from the student's own baseline (positive = worse). */
  change_from_baseline: z.record(z.string(), z.number()),
});
export type StudentSubmission = z.infer<typeof StudentSubmission>;

const CASE_EVENT_KINDS = [
  'opened',
  /** A student of an anonymous campaign asked to be contacted (it opens the case, or joins it). */
  'contact_asked',
  'submission',
  'verified',
  'alert_queued',
  'alert_digested',
  'acknowledged',
  'assigned',
  'note',
  'escalated',
  'resolved',
  'reopened',
] as const;
const CaseEventKind = z.enum(CASE_EVENT_KINDS);

export const CaseEvent = z.object({
  id: z.number(),
  kind: CaseEventKind,
  at: Timestamp,
  /** Who did it; null for what the product did on its own (opening, alerts, escalations). */
  actor: z.nullable(z.string()),
  submission_id: z.nullable(z.number()),
  /** The note's text, the outcome, the assignee's name, the escalation round. */
  text: z.nullable(z.string()),
});
export type CaseEvent = z.infer<typeof CaseEvent>;

const CaseMail = z.object({
  kind: z.enum(['alert', 'escalation']),
  to: z.string(),
  status: z.enum(['pending', 'sent', 'failed']),
  queued_at: Timestamp,
  sent_at: z.nullable(Timestamp),
});

/** Only what the student chose to share; blank fields were left out. */
export const CaseContact = z.object({
  name: z.nullable(StudentNameField),
  email: z.nullable(StudentEmailField),
  phone: z.nullable(StudentEmailField),
  /** The tier of the anonymous answer they had just sent. */
  tier: RiskTier,
  /** Their answers, only when they chose to share them. */
  answers: carriesStudentData(z.nullable(z.array(z.object({ question: z.string(), answer: z.string() })))),
  asked_at: Timestamp,
});
export type CaseContact = z.infer<typeof CaseContact>;

const CaseDetail = z.extend(CaseSummary, {
  acknowledged_at: z.nullable(Timestamp),
  resolved_at: z.nullable(Timestamp),
  outcome: z.nullable(CaseOutcome),
  submissions: z.array(StudentSubmission),
  /** What a student of an anonymous campaign shared when asking to be contacted: nothing else is known. */
  contacts: z.array(CaseContact),
  events: z.array(CaseEvent),
  mails: z.array(CaseMail),
});

export const CaseDetailResponse = z.object({
  success: z.literal(true),
  case: CaseDetail,
  assignees: z.array(CaseAssignee),
});
export type CaseDetailResponse = z.infer<typeof CaseDetailResponse>;

export const AssignCaseRequest = z.object({ user_id: databaseId('user_id') });
export type AssignCaseRequest = z.infer<typeof AssignCaseRequest>;

const NoteText = z
  .string({ error: 'text is required' })
  .check(
    z.trim(),
    z.minLength(1, 'Write a note first'),
    z.maxLength(CASE_NOTE_MAX_LENGTH, `A note must be at most ${CASE_NOTE_MAX_LENGTH} characters`),
  );

export const CaseNoteRequest = z.object({ text: NoteText });
export type CaseNoteRequest = z.infer<typeof CaseNoteRequest>;

export const ResolveCaseRequest = z.object({
  outcome: CaseOutcome,
  note: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(CASE_NOTE_MAX_LENGTH, `A note must be at most ${CASE_NOTE_MAX_LENGTH} characters`),
      ),
  ),
});
export type ResolveCaseRequest = z.infer<typeof ResolveCaseRequest>;

/** Reopening a resolved case; the note says why, for the trail. */
export const ReopenCaseRequest = z.object({
  note: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(CASE_NOTE_MAX_LENGTH, `A note must be at most ${CASE_NOTE_MAX_LENGTH} characters`),
      ),
  ),
});
export type ReopenCaseRequest = z.infer<typeof ReopenCaseRequest>;

export const StudentHistoryResponse = z.object({
  success: z.literal(true),
  student: z.object({ id: z.number(), name: StudentNameField, email: StudentEmailField }),
  /** Mean per category over the student's proven submissions before the latest one. */
  baseline: z.record(z.string(), z.number()),
  submissions: z.array(StudentSubmission),
  cases: z.array(
    z.extend(CaseSummary, {
      resolved_at: z.nullable(Timestamp),
      outcome: z.nullable(CaseOutcome),
      events: z.array(CaseEvent),
    }),
  ),
});
export type StudentHistoryResponse = z.infer<typeof StudentHistoryResponse>;
