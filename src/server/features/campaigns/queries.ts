import type { Updateable } from 'kysely';
import { type Executor, isPostgres } from '../../db/executor';
import type { CampaignInvitationsTable, CampaignsTable } from '../../db/types';

type CampaignChanges = Omit<Updateable<CampaignsTable>, 'id' | 'institution_id' | 'created_at'>;

export function findTemplate(db: Executor, templateId: number, institutionId: number) {
  return db
    .selectFrom('survey_templates')
    .select(['id', 'hash_link'])
    .where('id', '=', templateId)
    .where('institution_id', '=', institutionId)
    .executeTakeFirst();
}

/** Which of `groups` the institution's roster has. */
export async function knownGroups(db: Executor, institutionId: number, groups: readonly string[]) {
  if (groups.length === 0) return new Set<string | null>();
  const rows = await db
    .selectFrom('roster_students')
    .select('group_name')
    .distinct()
    .where('institution_id', '=', institutionId)
    .where('group_name', 'in', groups)
    .where('left_at', 'is', null)
    .execute();
  return new Set(rows.map((row) => row.group_name));
}

export async function insertCampaign(
  db: Executor,
  campaign: Omit<CampaignsTable, 'id' | 'rounds' | 'round_started_at' | 'round_expires_at'>,
): Promise<number> {
  const row = await db.insertInto('campaigns').values(campaign).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findCampaign(db: Executor, campaignId: number, institutionId?: number) {
  return db
    .selectFrom('campaigns')
    .selectAll()
    .where('id', '=', campaignId)
    .$if(institutionId !== undefined, (query) => query.where('institution_id', '=', institutionId as number))
    .executeTakeFirst();
}

/** The campaign, locked until the transaction ends on PostgreSQL (SQLite has one writer anyway). */
export function lockCampaign(db: Executor, campaignId: number, institutionId?: number) {
  return db
    .selectFrom('campaigns')
    .selectAll()
    .where('id', '=', campaignId)
    .$if(institutionId !== undefined, (query) => query.where('institution_id', '=', institutionId as number))
    .$if(isPostgres(db), (query) => query.forUpdate())
    .executeTakeFirst();
}

export type CampaignRow = NonNullable<Awaited<ReturnType<typeof findCampaign>>>;

export async function updateCampaign(db: Executor, campaignId: number, changes: CampaignChanges) {
  await db.updateTable('campaigns').set(changes).where('id', '=', campaignId).execute();
}

/** Every campaign of the institution, newest first, with its invitation counts. */
export function listCampaigns(db: Executor, institutionId: number) {
  const counts = db
    .selectFrom('campaign_invitations as i')
    .innerJoin('campaigns as c', 'c.id', 'i.campaign_id')
    .innerJoin('roster_students as rs', 'rs.id', 'i.student_id')
    .leftJoin('dashboard_students as ds', (join) =>
      join.onRef('ds.institution_id', '=', 'rs.institution_id').onRef('ds.email', '=', 'rs.email'),
    )
    .select((eb) => [
      'i.campaign_id',
      eb.fn.countAll<number | string>().as('invited'),
      // Answered through the link, or in any other way since the invitation went out.
      eb.fn
        .sum<number | string>(
          eb
            .case()
            .when(
              eb.or([eb('i.answered_at', 'is not', null), eb('ds.latest_at', '>=', eb.ref('i.invited_at'))]),
            )
            .then(1)
            .else(0)
            .end(),
        )
        .as('answered'),
      eb.fn.sum<number | string>(eb.case().when('i.reminders', '>', 0).then(1).else(0).end()).as('reminded'),
    ])
    .where('c.institution_id', '=', institutionId)
    .groupBy('i.campaign_id');
  return (
    db
      .selectFrom('campaigns')
      // A campaign outlives its template's deletion: it is still listed, naming what it sent.
      .leftJoin('survey_templates as t', 't.id', 'campaigns.template_id')
      .leftJoin(counts.as('counts'), 'counts.campaign_id', 'campaigns.id')
      .selectAll('campaigns')
      .select(['t.id as template_exists', 'counts.invited', 'counts.answered', 'counts.reminded'])
      .where('campaigns.institution_id', '=', institutionId)
      .orderBy('campaigns.id', 'desc')
      .execute()
  );
}

interface Invitee {
  id: number;
  email: string;
  name: string;
}

/** Whom a campaign invites. */
export interface Audience {
  groups: readonly string[];
  allStudents: boolean;
  noGroup: boolean;
}

/**
 * The next `limit` roster students of the audience after `afterId`, in id order; never one who
 * has left. A student in two of its parts (a group, and everyone) is listed once.
 */
export function studentsOfAudience(
  db: Executor,
  options: { institutionId: number; audience: Audience; afterId: number; limit: number },
): Promise<Invitee[]> {
  const { audience } = options;
  return db
    .selectFrom('roster_students')
    .select(['id', 'email', 'name'])
    .where('institution_id', '=', options.institutionId)
    .where('left_at', 'is', null)
    .$if(!audience.allStudents, (query) =>
      query.where((eb) =>
        eb.or([
          ...(audience.groups.length > 0 ? [eb('group_name', 'in', audience.groups)] : []),
          ...(audience.noGroup ? [eb('group_name', 'is', null)] : []),
          // Neither: nobody (a stored campaign always names one part; this keeps it so).
          ...(audience.groups.length === 0 && !audience.noGroup ? [eb('id', '<', 0)] : []),
        ]),
      ),
    )
    .where('id', '>', options.afterId)
    .orderBy('id')
    .limit(options.limit)
    .execute();
}

/**
 * Adds the invitations; one that exists already (the same campaign, round and student) is left
 * as it is. Returns the students actually invited now: only they get a mail.
 */
export async function insertInvitations(
  db: Executor,
  rows: Omit<CampaignInvitationsTable, 'id' | 'reminders' | 'answered_at' | 'last_reminded_at'>[],
): Promise<Set<number>> {
  if (rows.length === 0) return new Set();
  const inserted = await db
    .insertInto('campaign_invitations')
    .values(rows)
    .onConflict((conflict) => conflict.columns(['campaign_id', 'round', 'student_id']).doNothing())
    .returning('student_id')
    .execute();
  return new Set(inserted.map((row) => row.student_id));
}

export async function markInvited(db: Executor, studentIds: number[], at: number) {
  if (studentIds.length === 0) return;
  await db
    .updateTable('roster_students')
    .set({ last_invited_at: at })
    .where('id', 'in', studentIds)
    .execute();
}

/**
 * Invitations of the round, after `afterId`, whose student has not answered since and has had
 * fewer than `reminder` reminders, while the link still works.
 */
export function unansweredInvitations(
  db: Executor,
  options: {
    campaignId: number;
    round: number;
    reminder: number;
    afterId: number;
    limit: number;
    at: number;
  },
) {
  return db
    .selectFrom('campaign_invitations as i')
    .innerJoin('roster_students as rs', 'rs.id', 'i.student_id')
    .leftJoin('dashboard_students as ds', (join) =>
      join.onRef('ds.institution_id', '=', 'rs.institution_id').onRef('ds.email', '=', 'rs.email'),
    )
    .select(['i.id', 'i.student_id', 'rs.email', 'rs.name'])
    .where('i.campaign_id', '=', options.campaignId)
    .where('rs.left_at', 'is', null)
    .where('i.round', '=', options.round)
    .where('i.id', '>', options.afterId)
    .where('i.answered_at', 'is', null)
    .where('i.reminders', '<', options.reminder)
    .where('i.expires_at', '>', options.at)
    .where((eb) => eb.or([eb('ds.latest_at', 'is', null), eb('ds.latest_at', '<', eb.ref('i.invited_at'))]))
    .orderBy('i.id')
    .limit(options.limit)
    .execute();
}

export async function markReminded(db: Executor, invitationIds: number[], reminder: number, at: number) {
  if (invitationIds.length === 0) return;
  await db
    .updateTable('campaign_invitations')
    .set({ reminders: reminder, last_reminded_at: at })
    .where('id', 'in', invitationIds)
    .execute();
}

/**
 * The invitation a link's token names, with its student and campaign, and the role of any account
 * with the student's address; locked when `forUpdate`.
 */
export function findInvitation(db: Executor, tokenHash: string, options: { forUpdate?: boolean } = {}) {
  return db
    .selectFrom('campaign_invitations as i')
    .innerJoin('campaigns as c', 'c.id', 'i.campaign_id')
    .innerJoin('roster_students as rs', 'rs.id', 'i.student_id')
    .leftJoin('users as u', 'u.email', 'rs.email')
    .select([
      'u.role as account_role',
      'i.id',
      'i.campaign_id',
      'i.round',
      'i.expires_at',
      'i.answered_at',
      'i.invited_at',
      'c.anonymous',
      'c.status',
      'c.template_id',
      'c.institution_id',
      'rs.email',
      'rs.name',
    ])
    .where('i.token_hash', '=', tokenHash)
    .$if(Boolean(options.forUpdate) && isPostgres(db), (query) => query.forUpdate('i'))
    .executeTakeFirst();
}

/**
 * Whether the student has stored a submission with this client id (a random id each new
 * submission gets): the sign that a request is a retry of that same submission.
 */
export async function answeredWith(
  db: Executor,
  sent: { institutionId: number; email: string; clientSubmissionId: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('submissions as s')
    .innerJoin('respondents as r', 'r.id', 's.respondent_id')
    .select('s.id')
    .where('r.institution_id', '=', sent.institutionId)
    .where('r.email', '=', sent.email)
    .where('s.client_submission_id', '=', sent.clientSubmissionId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function markAnswered(db: Executor, invitationId: number, at: number) {
  await db
    .updateTable('campaign_invitations')
    .set({ answered_at: at })
    .where('id', '=', invitationId)
    .execute();
}

/**
 * The current round's invitations whose student has not answered since (through the link or any
 * other way): the first `limit` by name, and the round's invited and not-answered counts.
 */
export async function notAnswered(db: Executor, options: { campaignId: number; round: number }) {
  const round = db
    .selectFrom('campaign_invitations as i')
    .innerJoin('roster_students as rs', 'rs.id', 'i.student_id')
    .leftJoin('dashboard_students as ds', (join) =>
      join.onRef('ds.institution_id', '=', 'rs.institution_id').onRef('ds.email', '=', 'rs.email'),
    )
    .where('i.campaign_id', '=', options.campaignId)
    .where('i.round', '=', options.round);
  const waiting = round
    .where('i.answered_at', 'is', null)
    .where((eb) => eb.or([eb('ds.latest_at', 'is', null), eb('ds.latest_at', '<', eb.ref('i.invited_at'))]));
  const invited = await round.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
  const open = await waiting.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
  return {
    invited: Number(invited?.n ?? 0),
    notAnswered: Number(open?.n ?? 0),
    list: (limit: number) =>
      waiting
        .select(['rs.name', 'rs.email', 'rs.group_name', 'i.reminders'])
        .orderBy('rs.name')
        .orderBy('rs.id')
        .limit(limit)
        .execute(),
  };
}
