import { type Insertable, sql, type Updateable } from 'kysely';
import type { CaseSort, CaseStatus } from '../../../common/schemas/cases';
import type { FlaggedTier } from '../../../common/schemas/dashboard';
import { type Executor, isPostgres } from '../../db/executor';
import { containsPattern } from '../../db/like';
import type { CaseEventsTable, CaseMailsTable, CasesTable } from '../../db/types';

/** The student's open case, locked for the rest of the transaction on PostgreSQL. */
export function lockOpenCase(db: Executor, respondentId: number) {
  return db
    .selectFrom('cases')
    .selectAll()
    .where('open_respondent_id', '=', respondentId)
    .$if(isPostgres(db), (query) => query.forUpdate())
    .executeTakeFirst();
}

/**
 * Opens a case unless the student has an open one; returns the new id or undefined. On
 * PostgreSQL a concurrent opening for the same student waits for the other to commit and then
 * does nothing, so the caller reads the case it opened instead.
 */
export async function insertCaseIfNoneOpen(
  db: Executor,
  row: Insertable<CasesTable>,
): Promise<number | undefined> {
  const inserted = await db
    .insertInto('cases')
    .values(row)
    .onConflict((conflict) => conflict.column('open_respondent_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}

export async function updateCase(db: Executor, caseId: number, changes: Updateable<CasesTable>) {
  await db.updateTable('cases').set(changes).where('id', '=', caseId).execute();
}

/** One of the institution's cases by id, locked for the transaction on PostgreSQL. */
export function lockCaseOf(db: Executor, institutionId: number, caseId: number) {
  return db
    .selectFrom('cases')
    .selectAll()
    .where('id', '=', caseId)
    .where('institution_id', '=', institutionId)
    .$if(isPostgres(db), (query) => query.forUpdate())
    .executeTakeFirst();
}

export function lockCase(db: Executor, caseId: number) {
  return db
    .selectFrom('cases')
    .selectAll()
    .where('id', '=', caseId)
    .$if(isPostgres(db), (query) => query.forUpdate())
    .executeTakeFirst();
}

export async function insertCaseEvent(db: Executor, event: Insertable<CaseEventsTable>) {
  await db.insertInto('case_events').values(event).execute();
}

export async function linkCaseMail(db: Executor, link: CaseMailsTable) {
  await db.insertInto('case_mails').values(link).execute();
}

/** Cases containing any of these submissions that no proven submission has verified yet. */
export function unverifiedCasesOfSubmissions(db: Executor, submissionIds: number[]) {
  return db
    .selectFrom('case_events')
    .innerJoin('cases', 'cases.id', 'case_events.case_id')
    .select([
      'cases.id',
      'cases.unproven_alert',
      'cases.acknowledged_at',
      'cases.resolved_at',
      'cases.next_escalation_at',
    ])
    .distinct()
    .where('case_events.submission_id', 'in', submissionIds)
    .where('cases.verified_at', 'is', null)
    .execute();
}

/** Cases with the student's name and address and the assignee, for lists. */
function casesWithStudent(db: Executor) {
  return (
    db
      .selectFrom('cases')
      .innerJoin('respondents', 'respondents.id', 'cases.respondent_id')
      .leftJoin('users as assignee', 'assignee.id', 'cases.assigned_to')
      .select([
        'cases.id',
        'cases.respondent_id',
        'cases.tier',
        'cases.status',
        'cases.verified_at',
        'cases.first_submitted_at',
        'cases.opened_at',
        'cases.acknowledge_by',
        'cases.acknowledged_at',
        'cases.resolved_at',
        'cases.outcome',
        'cases.assigned_to',
        'respondents.name as student_name',
        'respondents.email as school_email',
        'assignee.name as assignee_name',
        'assignee.email as assignee_email',
      ])
      // While nothing proved the case, the name its newest unproven sender claimed: the record
      // itself keeps the neutral or proven name (an unproven sender names no one).
      .select((eb) =>
        eb
          .selectFrom('submissions')
          .select('submissions.student_name')
          .whereRef('submissions.respondent_id', '=', 'cases.respondent_id')
          .where('submissions.verified_at', 'is', null)
          .where('cases.verified_at', 'is', null)
          .orderBy('submissions.id', 'desc')
          .limit(1)
          .as('claimed_name'),
      )
  );
}

export type CaseListRow = Awaited<ReturnType<typeof listCases>>[number];

export interface CaseSelection {
  institutionId: number;
  /** `open`: not resolved; a state: only that one. */
  status: 'open' | 'all' | CaseStatus;
  queue: 'all' | 'verified' | 'unproven';
  tier: 'all' | FlaggedTier;
  /** `nobody`: unassigned; a number: that staff member's. */
  assignedTo: 'anyone' | 'nobody' | number;
  /** Text in the student's name or email. */
  search?: string;
}

/** The institution's cases that the selection keeps, with the student and the assignee. */
function selectedCases(db: Executor, selection: CaseSelection) {
  const { status, queue, tier, assignedTo, search } = selection;
  return casesWithStudent(db)
    .where('cases.institution_id', '=', selection.institutionId)
    .$if(status === 'open', (query) => query.where('cases.resolved_at', 'is', null))
    .$if(status !== 'open' && status !== 'all', (query) =>
      query.where('cases.status', '=', status as CaseStatus),
    )
    .$if(queue === 'verified', (query) => query.where('cases.verified_at', 'is not', null))
    .$if(queue === 'unproven', (query) => query.where('cases.verified_at', 'is', null))
    .$if(tier !== 'all', (query) => query.where('cases.tier', '=', tier as FlaggedTier))
    .$if(assignedTo === 'nobody', (query) => query.where('cases.assigned_to', 'is', null))
    .$if(typeof assignedTo === 'number', (query) =>
      query.where('cases.assigned_to', '=', assignedTo as number),
    )
    .$if(Boolean(search), (query) => {
      const pattern = sql<string>`${containsPattern(search ?? '')} escape '\\'`;
      return query.where((eb) =>
        eb.or([
          eb(eb.fn('lower', ['respondents.name']), 'like', pattern),
          eb(eb.fn('lower', ['respondents.email']), 'like', pattern),
          // An unproven case is found by the name its senders gave, as the list shows it.
          eb.and([
            eb('cases.verified_at', 'is', null),
            eb.exists(
              eb
                .selectFrom('submissions')
                .select('submissions.id')
                .whereRef('submissions.respondent_id', '=', 'cases.respondent_id')
                .where('submissions.verified_at', 'is', null)
                .where((sub) => sub(sub.fn('lower', ['submissions.student_name']), 'like', pattern)),
            ),
          ]),
        ]),
      );
    });
}

type SelectedCases = ReturnType<typeof selectedCases>;

/**
 * The follow-up order: verified cases before unproven ones (a flood of invented names never
 * buries a student's own case); within each, overdue first, then the rest by deadline; resolved
 * ones last.
 */
function inPriorityOrder(query: SelectedCases, at: number): SelectedCases {
  return query
    .orderBy((eb) => eb.case().when('cases.resolved_at', 'is', null).then(0).else(1).end())
    .orderBy((eb) => eb.case().when('cases.verified_at', 'is not', null).then(0).else(1).end())
    .orderBy((eb) =>
      eb
        .case()
        .when(eb.and([eb('cases.acknowledged_at', 'is', null), eb('cases.acknowledge_by', '<=', at)]))
        .then(0)
        .else(1)
        .end(),
    )
    .orderBy('cases.acknowledge_by');
}

/** One column's order; ties fall back to the newest case first, so pages never overlap. */
function inColumnOrder(query: SelectedCases, sort: Exclude<CaseSort, 'priority'>, dir: 'asc' | 'desc') {
  switch (sort) {
    case 'student':
      return query.orderBy((eb) => eb.fn('lower', ['respondents.name']), dir);
    case 'tier':
      // Ascending is the most severe first.
      return query.orderBy((eb) => eb.case().when('cases.tier', '=', 'urgent').then(0).else(1).end(), dir);
    case 'status':
      return query.orderBy(
        (eb) =>
          eb
            .case()
            .when('cases.status', '=', 'new')
            .then(0)
            .when('cases.status', '=', 'acknowledged')
            .then(1)
            .when('cases.status', '=', 'in_progress')
            .then(2)
            .else(3)
            .end(),
        dir,
      );
    case 'opened':
      return query.orderBy('cases.opened_at', dir);
    case 'deadline':
      return query.orderBy('cases.acknowledge_by', dir);
  }
}

export function listCases(
  db: Executor,
  selection: CaseSelection,
  order: { sort: CaseSort; dir: 'asc' | 'desc'; at: number },
  page: { offset: number; limit: number },
) {
  const query = selectedCases(db, selection);
  const ordered =
    order.sort === 'priority'
      ? inPriorityOrder(query, order.at)
      : inColumnOrder(query, order.sort, order.dir);
  return ordered.orderBy('cases.id', 'desc').offset(page.offset).limit(page.limit).execute();
}

export async function countCases(db: Executor, selection: CaseSelection): Promise<number> {
  const row = await selectedCases(db, selection)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Exactly how many open cases each queue holds, however long the lists. */
export async function openCaseCounts(db: Executor, institutionId: number) {
  const row = await db
    .selectFrom('cases')
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when('verified_at', 'is not', null).then(1).else(0).end()).as('verified'),
      eb.fn.sum<number>(eb.case().when('verified_at', 'is', null).then(1).else(0).end()).as('unproven'),
    ])
    .where('institution_id', '=', institutionId)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  return { verified: Number(row?.verified ?? 0), unproven: Number(row?.unproven ?? 0) };
}

export function findCaseWithStudent(db: Executor, institutionId: number, caseId: number) {
  return casesWithStudent(db)
    .where('cases.institution_id', '=', institutionId)
    .where('cases.id', '=', caseId)
    .executeTakeFirst();
}

export function casesOfRespondent(db: Executor, respondentId: number) {
  return casesWithStudent(db)
    .where('cases.respondent_id', '=', respondentId)
    .orderBy('cases.id', 'desc')
    .execute();
}

export function caseEvents(db: Executor, caseIds: number[]) {
  if (caseIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('case_events')
    .select(['id', 'case_id', 'kind', 'actor_name', 'submission_id', 'detail', 'at'])
    .where('case_id', 'in', caseIds)
    .orderBy('id')
    .execute();
}

export function caseMails(db: Executor, caseId: number) {
  return db
    .selectFrom('case_mails')
    .innerJoin('mail_outbox', 'mail_outbox.id', 'case_mails.mail_id')
    .select([
      'case_mails.kind',
      'mail_outbox.to_address',
      'mail_outbox.status',
      'mail_outbox.created_at',
      'mail_outbox.sent_at',
    ])
    .where('case_mails.case_id', '=', caseId)
    .orderBy('mail_outbox.id')
    .execute();
}

/** Staff of the institution who may work cases; never a removed member. */
export function caseWorkers(db: Executor, institutionId: number, roles: readonly string[]) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('institution_id', '=', institutionId)
    .where('role', 'in', roles as never)
    .where('removed_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** The institution's admins who still have access. */
export function institutionAdminEmails(db: Executor, institutionId: number) {
  return db
    .selectFrom('users')
    .select('email')
    .where('institution_id', '=', institutionId)
    .where('role', '=', 'institution_admin')
    .where('removed_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** Addresses of members of the institution whose access was removed. */
export async function removedMemberEmails(db: Executor, institutionId: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('users')
    .select('email')
    .where('institution_id', '=', institutionId)
    .where('removed_at', 'is not', null)
    .execute();
  return new Set(rows.map((row) => row.email.toLowerCase()));
}

export function findRespondent(db: Executor, institutionId: number, respondentId: number) {
  return db
    .selectFrom('respondents')
    .select(['id', 'name', 'email'])
    .where('institution_id', '=', institutionId)
    .where('id', '=', respondentId)
    .executeTakeFirst();
}

/**
 * The student's submissions with their answers, oldest first; each answer in the order it was
 * asked, with its question's own answer labels while the question exists.
 */
export async function submissionsOfRespondent(db: Executor, respondentId: number) {
  const submissions = await db
    .selectFrom('submissions')
    .select(['id', 'created_at', 'tier', 'reasons', 'likert_mean', 'verified_at'])
    .where('respondent_id', '=', respondentId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(500)
    .execute();
  if (submissions.length === 0) return [];
  const answers = await db
    .selectFrom('answers')
    .leftJoin('questions', 'questions.id', 'answers.question_id')
    .select([
      'answers.submission_id',
      'answers.question_id',
      'answers.question_text',
      'answers.category',
      'answers.question_type',
      'answers.value',
      'questions.answer_choices',
    ])
    .where(
      'answers.submission_id',
      'in',
      submissions.map((submission) => submission.id),
    )
    .orderBy('answers.id')
    .execute();
  const bySubmission = new Map<number, typeof answers>();
  for (const answer of answers) {
    const list = bySubmission.get(answer.submission_id) ?? [];
    list.push(answer);
    bySubmission.set(answer.submission_id, list);
  }
  return submissions.map((submission) => ({ ...submission, answers: bySubmission.get(submission.id) ?? [] }));
}

export type RespondentSubmissionRow = Awaited<ReturnType<typeof submissionsOfRespondent>>[number];

/** Unproven urgent cases alerted at once since `since`: the institution's, or one client's. */
export async function countUnprovenAlerts(
  db: Executor,
  options: { institutionId: number; client?: string; since: number },
): Promise<number> {
  const row = await db
    .selectFrom('cases')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('institution_id', '=', options.institutionId)
    .where('unproven_alert', '=', 'mail')
    .where('unproven_alert_at', '>=', options.since)
    .$if(options.client !== undefined, (query) => query.where('unproven_client', '=', options.client ?? ''))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Unproven urgent cases filed for the digest in [from, to). */
export async function countDigestedUnproven(
  db: Executor,
  window: { institutionId: number; from: number; to: number },
): Promise<number> {
  const row = await db
    .selectFrom('cases')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('institution_id', '=', window.institutionId)
    .where('unproven_alert', '=', 'digest')
    .where('unproven_alert_at', '>=', window.from)
    .where('unproven_alert_at', '<', window.to)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Whether the case has alerted its contacts already, at once or through a digest. */
export async function hasAlerted(db: Executor, caseId: number): Promise<boolean> {
  const row = await db
    .selectFrom('case_events')
    .select('id')
    .where('case_id', '=', caseId)
    .where('kind', 'in', ['alert_queued', 'alert_digested'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Elevated cases the institution opened in [from, to), for the daily digest. */
export async function countElevatedOpened(db: Executor, institutionId: number, from: number, to: number) {
  const row = await db
    .selectFrom('cases')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('institution_id', '=', institutionId)
    .where('tier', '=', 'elevated')
    .where('opened_at', '>=', from)
    .where('opened_at', '<', to)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Open and overdue counts, and per case the submission, first alert sent and acknowledgement times. */
export async function caseFigures(db: Executor, institutionId: number, at: number) {
  const counts = await db
    .selectFrom('cases')
    .select((eb) => [
      eb.fn.countAll<number>().as('open'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb('acknowledged_at', 'is', null), eb('acknowledge_by', '<=', at)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('overdue'),
    ])
    .where('institution_id', '=', institutionId)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  const alerts = await db
    .selectFrom('cases')
    .innerJoin('case_mails', 'case_mails.case_id', 'cases.id')
    .innerJoin('mail_outbox', 'mail_outbox.id', 'case_mails.mail_id')
    .select(['cases.id', 'cases.first_submitted_at'])
    .select((eb) => eb.fn.min('mail_outbox.sent_at').as('sent_at'))
    .where('cases.institution_id', '=', institutionId)
    .where('case_mails.kind', '=', 'alert')
    .where('mail_outbox.sent_at', 'is not', null)
    .groupBy(['cases.id', 'cases.first_submitted_at'])
    .orderBy('cases.id', 'desc')
    .limit(1000)
    .execute();
  const acknowledgements = await db
    .selectFrom('cases')
    .select(['first_submitted_at', 'acknowledged_at'])
    .where('institution_id', '=', institutionId)
    .where('acknowledged_at', 'is not', null)
    .orderBy('id', 'desc')
    .limit(1000)
    .execute();
  return {
    open: Number(counts?.open ?? 0),
    overdue: Number(counts?.overdue ?? 0),
    alertDelays: alerts.map((row) => Number(row.sent_at) - Number(row.first_submitted_at)),
    acknowledgementDelays: acknowledgements.map(
      (row) => Number(row.acknowledged_at) - Number(row.first_submitted_at),
    ),
  };
}

/** The cases of these students, open ones first, then newest: the first per student is the one to link to. */
export function casesOfRespondents(db: Executor, institutionId: number, respondentIds: number[]) {
  if (respondentIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('cases')
    .select(['id', 'status', 'respondent_id'])
    .where('institution_id', '=', institutionId)
    .where('respondent_id', 'in', respondentIds)
    .orderBy((eb) => eb.case().when('resolved_at', 'is', null).then(0).else(1).end())
    .orderBy('id', 'desc')
    .execute();
}

/** What students asked to be contacted shared, oldest first. */
export function caseContacts(db: Executor, caseId: number) {
  return db
    .selectFrom('case_contacts')
    .select(['name', 'email', 'phone', 'tier', 'answers', 'asked_at'])
    .where('case_id', '=', caseId)
    .orderBy('id')
    .execute();
}
