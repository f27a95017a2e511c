import { type ExpressionBuilder, sql } from 'kysely';
import { emailDomain } from '../../../common/institution-email';
import type { ErasureCounts } from '../../../common/schemas/records';
import type { Executor } from '../../db/executor';

/**
 * Every row of one student in one institution, found by their address (lower case, as legal
 * holds and the rollups know them). The preview counts it and the erasure deletes it: what the
 * confirmation names is what goes.
 */
export interface Footprint {
  userIds: number[];
  respondentIds: number[];
  submissionIds: number[];
  caseIds: number[];
  rosterIds: number[];
  /** Whether the address is at one of the institution's domains: only then are its codes, proofs and mail the institution's. */
  ownDomain: boolean;
}

const lower = (column: string) => sql<string>`lower(${sql.ref(column)})`;
const ids = (rows: { id: number }[]) => rows.map((row) => row.id);

export async function footprintOf(db: Executor, institutionId: number, email: string): Promise<Footprint> {
  const userIds = ids(
    await db
      .selectFrom('users')
      .select('id')
      .where('institution_id', '=', institutionId)
      .where('role', '=', 'student')
      .where(lower('email'), '=', email)
      .execute(),
  );
  const respondentIds = ids(
    await db
      .selectFrom('respondents')
      .select('id')
      .where('institution_id', '=', institutionId)
      .where((eb) =>
        eb.or([
          eb(lower('email'), '=', email),
          ...(userIds.length > 0 ? [eb('user_id', 'in', userIds)] : []),
        ]),
      )
      .execute(),
  );
  const submissionIds = ids(
    await db
      .selectFrom('submissions')
      .select('id')
      .where('institution_id', '=', institutionId)
      .where((eb) =>
        eb.or([
          eb(lower('school_email'), '=', email),
          ...(respondentIds.length > 0 ? [eb('respondent_id', 'in', respondentIds)] : []),
          ...(userIds.length > 0 ? [eb('user_id', 'in', userIds)] : []),
        ]),
      )
      .execute(),
  );
  const caseIds =
    respondentIds.length === 0
      ? []
      : ids(
          await db
            .selectFrom('cases')
            .select('id')
            .where('institution_id', '=', institutionId)
            .where('respondent_id', 'in', respondentIds)
            .execute(),
        );
  const rosterIds = ids(
    await db
      .selectFrom('roster_students')
      .select('id')
      .where('institution_id', '=', institutionId)
      .where(lower('email'), '=', email)
      .execute(),
  );
  const domain = await db
    .selectFrom('institution_domains')
    .select('domain')
    .where('institution_id', '=', institutionId)
    .where('domain', '=', emailDomain(email))
    .executeTakeFirst();
  return { userIds, respondentIds, submissionIds, caseIds, rosterIds, ownDomain: domain !== undefined };
}

type Counted = { executeTakeFirst(): Promise<{ count: string | number | bigint } | undefined> };

async function countOf(query: Counted | null): Promise<number> {
  if (!query) return 0;
  return Number((await query.executeTakeFirst())?.count ?? 0);
}

const countAll = <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) => eb.fn.countAll().as('count');

/** How many rows of each kind the erasure of this footprint removes. */
export async function countFootprint(
  db: Executor,
  institutionId: number,
  email: string,
  footprint: Footprint,
): Promise<ErasureCounts> {
  const { userIds, submissionIds, caseIds, rosterIds, ownDomain } = footprint;
  const bySubmission = (table: 'answers' | 'instrument_results') =>
    submissionIds.length === 0
      ? null
      : db.selectFrom(table).select(countAll).where('submission_id', 'in', submissionIds);
  const codes = ownDomain
    ? db.selectFrom('verification_codes').select(countAll).where(lower('email'), '=', email)
    : null;
  const proofs = ownDomain
    ? db.selectFrom('address_proofs').select(countAll).where(lower('email'), '=', email)
    : null;
  const registrations = db
    .selectFrom('pending_registrations')
    .select(countAll)
    .where('institution_id', '=', institutionId)
    .where(lower('email'), '=', email);
  return {
    accounts: userIds.length,
    submissions: submissionIds.length,
    question_answers: await countOf(bySubmission('answers')),
    screening_results: await countOf(bySubmission('instrument_results')),
    drafts: await countOf(
      userIds.length === 0 ? null : db.selectFrom('drafts').select(countAll).where('user_id', 'in', userIds),
    ),
    verification: (await countOf(codes)) + (await countOf(proofs)) + (await countOf(registrations)),
    invitations: await countOf(
      rosterIds.length === 0
        ? null
        : db.selectFrom('campaign_invitations').select(countAll).where('student_id', 'in', rosterIds),
    ),
    roster_entries: rosterIds.length,
    cases: caseIds.length,
    case_entries: await countOf(
      caseIds.length === 0
        ? null
        : db.selectFrom('case_events').select(countAll).where('case_id', 'in', caseIds),
    ),
    pending_mail: await countOf(
      ownDomain
        ? db
            .selectFrom('mail_outbox')
            .select(countAll)
            .where(lower('to_address'), '=', email)
            .where('status', '=', 'pending')
        : null,
    ),
  };
}
