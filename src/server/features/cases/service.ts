import { z } from 'zod/mini';
import {
  CASE_OUTCOME_LABELS,
  CASE_WORKER_ROLES,
  type CaseAssignee,
  type CaseContact,
  type CaseDetailResponse,
  type CaseEvent,
  CaseOutcome,
  type CaseSummary,
  type StudentHistoryResponse,
  type StudentSubmission,
} from '../../../common/schemas/cases';
import { isUniqueViolation } from '../../db/errors';
import type { Executor } from '../../db/executor';
import { parseStoredJson, StoredReasons } from '../../db/stored-json';
import { baselineOf, type CategoryMeans, categoryMeans, changeFromBaseline } from '../../lib/answer-means';
import { type AuditActor, recordAudit, recordRead } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import type { StaffUser } from '../../lib/guards';
import { scheduleJob } from '../../lib/jobs';
import { now } from '../../lib/time';
import { addLocalMinutes } from '../../lib/zoned-time';
import { readFollowUpSettings } from '../institutions';
import { findingsOf, submittedAnswersOf } from './answers';
import { instrumentScoresBySubmission } from './instruments';
import { ackWindowMinutes, escalationJob } from './jobs';
import * as queries from './queries';
import { recordCaseEvent } from './trail';

export const CASE_NOT_FOUND = 'Case not found';
export const STUDENT_NOT_FOUND = 'Student not found';
export const CASE_RESOLVED = 'This case is resolved already.';
export const ASSIGNEE_NOT_FOUND = 'Choose an admin or counsellor of your institution.';
export const OTHER_NEEDS_NOTE = 'Say in a note what happened when the outcome is Other.';
export const OTHER_CASE_OPEN =
  'This student has another open case: work on that one, so that the student has one open case.';

export type CaseWorker = StaffUser<(typeof CASE_WORKER_ROLES)[number]>;

const iso = (at: number) => new Date(at).toISOString();
const isoOrNull = (at: number | null) => (at === null ? null : iso(at));

function isOverdue(
  row: { acknowledged_at: number | null; resolved_at: number | null; acknowledge_by: number },
  at: number,
) {
  return row.acknowledged_at === null && row.resolved_at === null && row.acknowledge_by <= at;
}

export function summaryOf(row: queries.CaseListRow, at: number): CaseSummary {
  return {
    id: row.id,
    student_id: row.respondent_id,
    student_name: row.student_name,
    school_email: row.school_email,
    claimed_name: row.claimed_name ?? null,
    tier: row.tier,
    status: row.status,
    assigned_to:
      row.assigned_to === null
        ? null
        : { id: row.assigned_to, name: row.assignee_name ?? '', email: row.assignee_email ?? '' },
    opened_at: iso(row.opened_at),
    acknowledge_by: iso(row.acknowledge_by),
    overdue: isOverdue(row, at),
    verified: row.verified_at !== null,
  };
}

type EventRow = Awaited<ReturnType<typeof queries.caseEvents>>[number];

/** What an event says to staff, besides its kind: the note, the outcome, the assignee, the round. */
function eventText(row: EventRow): string | null {
  const detail = parseStoredJson(CaseEventDetail, row.detail);
  if (!detail) return null;
  if (row.kind === 'resolved' && detail.outcome) {
    const outcome = CaseOutcome.safeParse(detail.outcome);
    const label = outcome.success ? CASE_OUTCOME_LABELS[outcome.data] : detail.outcome;
    return detail.note ? `${label}: ${detail.note}` : label;
  }
  if (row.kind === 'note' || row.kind === 'reopened') return detail.note ?? null;
  if (row.kind === 'assigned') return detail.assignee ?? null;
  if (row.kind === 'escalated')
    return `Reminder ${detail.round ?? 1} to ${detail.recipients ?? 0} contact(s)`;
  if (row.kind === 'alert_queued') return `Alert to ${detail.recipients ?? 0} contact(s)`;
  return null;
}

const CaseEventDetail = z.object({
  note: z.optional(z.string()),
  outcome: z.optional(z.string()),
  assignee: z.optional(z.string()),
  round: z.optional(z.number()),
  recipients: z.optional(z.number()),
});

function eventOf(row: EventRow): CaseEvent {
  return {
    id: row.id,
    kind: row.kind as CaseEvent['kind'],
    at: iso(row.at),
    actor: row.actor_name,
    submission_id: row.submission_id,
    text: eventText(row),
  };
}

export async function assigneesOf(db: Executor, institutionId: number): Promise<CaseAssignee[]> {
  return queries.caseWorkers(db, institutionId, CASE_WORKER_ROLES);
}

/**
 * The student's submissions with every answer, the rules that raised their tiers, category means
 * and the change from their own baseline.
 */
async function studentSubmissions(db: Executor, respondentId: number) {
  const rows = await queries.submissionsOfRespondent(db, respondentId);
  const instruments = await instrumentScoresBySubmission(
    db,
    rows.map((row) => row.id),
  );
  const provenMeans: CategoryMeans[] = [];
  const submissions: StudentSubmission[] = [];
  let previousLikertMean: number | null = null;
  for (const row of rows) {
    const means = categoryMeans(
      row.answers.map((answer) => ({
        category: answer.category,
        questionType: answer.question_type,
        value: answer.value,
      })),
    );
    // Compared with the proven submissions before it; an unproven one sets no one's baseline.
    const change = changeFromBaseline(means, baselineOf(provenMeans));
    submissions.push({
      id: row.id,
      submitted_at: iso(row.created_at),
      tier: row.tier,
      reasons: parseStoredJson(StoredReasons, row.reasons) ?? [],
      findings: findingsOf(row, previousLikertMean),
      answers: submittedAnswersOf(row),
      instruments: instruments.get(row.id) ?? [],
      verified: row.verified_at !== null,
      category_means: roundMeans(means),
      change_from_baseline: change,
    });
    if (row.verified_at !== null) {
      provenMeans.push(means);
      previousLikertMean = row.likert_mean;
    }
  }
  const baseline = baselineOf(provenMeans.slice(0, -1));
  return { submissions, baseline: roundMeans(baseline) };
}

function roundMeans(means: CategoryMeans): Record<string, number> {
  return Object.fromEntries(
    Object.entries(means).map(([category, value]) => [category, Math.round(value * 100) / 100]),
  );
}

export async function getCase(options: {
  db: Executor;
  worker: CaseWorker;
  actor: AuditActor;
  caseId: number;
}): Promise<CaseDetailResponse> {
  const { db, worker, caseId } = options;
  const at = now();
  const row = await queries.findCaseWithStudent(db, worker.institutionId, caseId);
  if (!row) throw new AppError('NOT_FOUND', CASE_NOT_FOUND);
  const events = await queries.caseEvents(db, [caseId]);
  const inCase = new Set(
    events.flatMap((event) => (event.submission_id === null ? [] : [event.submission_id])),
  );
  const submissions = (await studentSubmissions(db, row.respondent_id)).submissions.filter((submission) =>
    inCase.has(submission.id),
  );
  const mails = await queries.caseMails(db, caseId);
  const contacts = await queries.caseContacts(db, caseId);
  await recordRead(db, options.actor, {
    action: 'case.read',
    subject: { type: 'case', id: caseId },
    detail: { answers_of_submissions: submissions.map((submission) => submission.id) },
  });
  return {
    success: true,
    case: {
      ...summaryOf(row, at),
      acknowledged_at: isoOrNull(row.acknowledged_at),
      resolved_at: isoOrNull(row.resolved_at),
      outcome: CaseOutcome.safeParse(row.outcome).data ?? null,
      submissions,
      contacts: contacts.map((contact) => ({
        name: contact.name,
        email: contact.email,
        phone: contact.phone,
        tier: contact.tier,
        answers: contact.answers === null ? null : (JSON.parse(contact.answers) as CaseContact['answers']),
        asked_at: iso(contact.asked_at),
      })),
      events: events.map(eventOf),
      mails: mails.map((mail) => ({
        kind: mail.kind,
        to: mail.to_address,
        status: mail.status,
        queued_at: iso(mail.created_at),
        sent_at: isoOrNull(mail.sent_at),
      })),
    },
    assignees: await assigneesOf(db, worker.institutionId),
  };
}

/** The case, if it is this institution's and still open; locked for the change. */
async function openCaseFor(trx: Executor, worker: CaseWorker, caseId: number) {
  const found = await queries.lockCaseOf(trx, worker.institutionId, caseId);
  if (!found) throw new AppError('NOT_FOUND', CASE_NOT_FOUND);
  if (found.resolved_at !== null) throw new AppError('CONFLICT', CASE_RESOLVED);
  return found;
}

const actorOf = (worker: CaseWorker) => ({ id: worker.id, name: worker.name });

/** Someone is on it: stops the escalations. Acknowledging twice changes nothing. */
export async function acknowledgeCase(options: {
  trx: Executor;
  worker: CaseWorker;
  actor: AuditActor;
  caseId: number;
}): Promise<void> {
  const { trx, worker, caseId } = options;
  const found = await openCaseFor(trx, worker, caseId);
  if (found.acknowledged_at !== null) return;
  const at = now();
  await queries.updateCase(trx, caseId, {
    status: 'acknowledged',
    acknowledged_at: at,
    acknowledged_by: worker.id,
    next_escalation_at: null,
    ...(found.assigned_to === null ? { assigned_to: worker.id } : {}),
  });
  await recordCaseEvent(trx, { caseId, kind: 'acknowledged', actor: actorOf(worker), at });
  await recordAudit(trx, options.actor, {
    action: 'case.acknowledge',
    subject: { type: 'case', id: caseId },
  });
}

export async function assignCase(options: {
  trx: Executor;
  worker: CaseWorker;
  actor: AuditActor;
  caseId: number;
  userId: number;
}): Promise<void> {
  const { trx, worker, caseId, userId } = options;
  await openCaseFor(trx, worker, caseId);
  // Only staff of the same institution who may work cases; anyone else reads as unknown.
  const assignee = (await assigneesOf(trx, worker.institutionId)).find((user) => user.id === userId);
  if (!assignee) throw new AppError('BAD_REQUEST', ASSIGNEE_NOT_FOUND);
  const at = now();
  await queries.updateCase(trx, caseId, { assigned_to: userId });
  await recordCaseEvent(trx, {
    caseId,
    kind: 'assigned',
    actor: actorOf(worker),
    at,
    detail: { assignee: assignee.name },
  });
  await recordAudit(trx, options.actor, {
    action: 'case.assign',
    subject: { type: 'case', id: caseId },
    detail: { assignee_user_id: userId },
  });
}

/** A staff-only note; a case that was only acknowledged is in progress from its first note. */
export async function addCaseNote(options: {
  trx: Executor;
  worker: CaseWorker;
  actor: AuditActor;
  caseId: number;
  text: string;
}): Promise<void> {
  const { trx, worker, caseId } = options;
  const found = await openCaseFor(trx, worker, caseId);
  const at = now();
  await recordCaseEvent(trx, {
    caseId,
    kind: 'note',
    actor: actorOf(worker),
    at,
    detail: { note: options.text },
  });
  if (found.status === 'acknowledged') await queries.updateCase(trx, caseId, { status: 'in_progress' });
  if (found.acknowledged_at === null) {
    // Writing about a case is working on it: it is acknowledged by the same person.
    await queries.updateCase(trx, caseId, {
      status: 'in_progress',
      acknowledged_at: at,
      acknowledged_by: worker.id,
      next_escalation_at: null,
      ...(found.assigned_to === null ? { assigned_to: worker.id } : {}),
    });
    await recordCaseEvent(trx, { caseId, kind: 'acknowledged', actor: actorOf(worker), at });
  }
  await recordAudit(trx, options.actor, { action: 'case.note', subject: { type: 'case', id: caseId } });
}

export async function resolveCase(options: {
  trx: Executor;
  worker: CaseWorker;
  actor: AuditActor;
  caseId: number;
  outcome: CaseOutcome;
  note?: string;
}): Promise<void> {
  const { trx, worker, caseId, outcome } = options;
  const note = options.note?.trim() || undefined;
  if (outcome === 'other' && !note) throw new AppError('BAD_REQUEST', OTHER_NEEDS_NOTE);
  const found = await openCaseFor(trx, worker, caseId);
  const at = now();
  await queries.updateCase(trx, caseId, {
    status: 'resolved',
    outcome,
    resolved_at: at,
    open_respondent_id: null,
    next_escalation_at: null,
    ...(found.acknowledged_at === null ? { acknowledged_at: at, acknowledged_by: worker.id } : {}),
  });
  await recordCaseEvent(trx, {
    caseId,
    kind: 'resolved',
    actor: actorOf(worker),
    at,
    detail: { outcome, ...(note ? { note } : {}) },
  });
  await recordAudit(trx, options.actor, {
    action: 'case.resolve',
    subject: { type: 'case', id: caseId },
    detail: { outcome },
  });
}

/**
 * Opens a resolved case again: something more came to light. It waits for acknowledgement like a
 * newly filed case of its tier, its window counted from now, and escalates if nobody takes it up;
 * the assignee stays. Reopening an open case changes nothing.
 */
export async function reopenCase(options: {
  trx: Executor;
  worker: CaseWorker;
  actor: AuditActor;
  caseId: number;
  note?: string;
}): Promise<void> {
  const { trx, worker, caseId } = options;
  const note = options.note?.trim() || undefined;
  const found = await queries.lockCaseOf(trx, worker.institutionId, caseId);
  if (!found) throw new AppError('NOT_FOUND', CASE_NOT_FOUND);
  if (found.resolved_at === null) return;
  // A student has one open case at a time: a newer flag may have opened another meanwhile.
  if (await queries.lockOpenCase(trx, found.respondent_id)) throw new AppError('CONFLICT', OTHER_CASE_OPEN);
  const at = now();
  const settings = await readFollowUpSettings(trx, worker.institutionId);
  const deadline = addLocalMinutes(at, ackWindowMinutes(settings, found.tier), settings.timeZone);
  try {
    await queries.updateCase(trx, caseId, {
      status: 'new',
      outcome: null,
      resolved_at: null,
      acknowledged_at: null,
      acknowledged_by: null,
      open_respondent_id: found.respondent_id,
      acknowledge_by: deadline,
      next_escalation_at: deadline,
    });
  } catch (error) {
    // A new case for the student committed between the check above and this write.
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', OTHER_CASE_OPEN);
    throw error;
  }
  await scheduleJob(trx, escalationJob, {
    key: escalationJob.keyOf(caseId, deadline),
    runAt: deadline,
    payload: { caseId, dueAt: deadline },
    at,
  });
  await recordCaseEvent(trx, {
    caseId,
    kind: 'reopened',
    actor: actorOf(worker),
    at,
    ...(note ? { detail: { note } } : {}),
  });
  await recordAudit(trx, options.actor, {
    action: 'case.reopen',
    subject: { type: 'case', id: caseId },
  });
}

export async function getStudentHistory(options: {
  db: Executor;
  worker: CaseWorker;
  actor: AuditActor;
  studentId: number;
}): Promise<StudentHistoryResponse> {
  const { db, worker, studentId } = options;
  const at = now();
  const student = await queries.findRespondent(db, worker.institutionId, studentId);
  if (!student) throw new AppError('NOT_FOUND', STUDENT_NOT_FOUND);
  const { submissions, baseline } = await studentSubmissions(db, student.id);
  const cases = await queries.casesOfRespondent(db, student.id);
  const events = await queries.caseEvents(
    db,
    cases.map((row) => row.id),
  );
  await recordRead(db, options.actor, {
    action: 'student.history.read',
    subject: { type: 'student', id: student.id },
    detail: { answers_of_submissions: submissions.map((submission) => submission.id) },
  });
  return {
    success: true,
    student: { id: student.id, name: student.name, email: student.email },
    baseline,
    submissions: submissions.reverse(),
    cases: cases.map((row) => ({
      ...summaryOf(row, at),
      resolved_at: isoOrNull(row.resolved_at),
      outcome: CaseOutcome.safeParse(row.outcome).data ?? null,
      events: events.filter((event) => event.case_id === row.id).map(eventOf),
    })),
  };
}
