import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod/mini';
import {
  type Campaign,
  type CampaignRequest,
  NOT_ANSWERED_MAX_LISTED,
  type NotAnsweredResponse,
} from '../../../common/schemas/campaigns';
import type { AnswerValue } from '../../../common/schemas/surveys';
import { type TransactionRunner, writeTransaction } from '../../db/transaction-runner';
import type { Database, Role } from '../../db/types';
import { type AuditActor, recordAudit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import type { SessionUser } from '../../lib/sessions';
import { now } from '../../lib/time';
import { readFollowUpSettings } from '../institutions';
import type { SubmissionEvents } from '../surveys';
import { getSurveyOfTemplate, refuseNonStudentRole, refuseNonStudents, submitSurvey } from '../surveys';
import { anonymousRetryKey, findResent, submitAnonymousAnswers } from './anonymous';
import { isTokenShaped, tokenHash } from './invitations';
import { groupsOf, resumeReminders, scheduleBatch, scheduleRound, slotOf } from './jobs';
import * as queries from './queries';
import { clockText, minuteOfDay, nextOccurrence } from './schedule';

type CampaignInput = z.output<typeof CampaignRequest>;

const CAMPAIGN_NOT_FOUND = 'Campaign not found';
const TEMPLATE_NOT_FOUND = 'Survey template not found';
export const INVITATION_NOT_FOUND =
  'This invitation link is not valid. Check that you opened the whole link from the mail.';
export const INVITATION_EXPIRED =
  'This invitation has expired. A new link comes with the next round of the survey.';
export const INVITATION_USED = 'You have already answered this round of the survey. Thank you!';
export const wrongStudent = (email: string) =>
  `This invitation was sent to ${email}: only they can answer it. If you are not them, please close this page.`;

const iso = (millis: number | string | null) =>
  millis === null ? null : new Date(Number(millis)).toISOString();

function toCampaign(
  row: queries.CampaignRow & {
    invited?: number | string | null;
    answered?: number | string | null;
    reminded?: number | string | null;
    template_exists?: number | null;
  },
): Campaign {
  return {
    id: row.id,
    template_id: row.template_id,
    // Templates are named by number everywhere (the Templates screen's "Template #3").
    template_name: `Template #${row.template_id}${row.template_exists == null ? ' (deleted)' : ''}`,
    groups: groupsOf(row),
    all_students: row.all_students === 1,
    no_group: row.no_group === 1,
    send_now: row.send_now === 1,
    anonymous: row.anonymous === 1,
    status: row.status,
    next_run_at: iso(row.next_run_at),
    last_run_at: iso(row.round_started_at),
    invited: Number(row.invited ?? 0),
    answered: Number(row.answered ?? 0),
    reminded: Number(row.reminded ?? 0),
    day: row.day,
    time: clockText(row.minute_of_day),
    time_zone: row.time_zone,
    recurring: Boolean(row.recurring),
    reminder_after_days: row.reminder_after_days,
    rounds: row.rounds,
    created_at: new Date(Number(row.created_at)).toISOString(),
  };
}

export async function campaignView(db: Kysely<Database>, institutionId: number, campaignId: number) {
  const rows = await queries.listCampaigns(db, institutionId);
  const row = rows.find((candidate) => candidate.id === campaignId);
  if (!row) throw new AppError('NOT_FOUND', CAMPAIGN_NOT_FOUND);
  return toCampaign(row);
}

/**
 * Creates a campaign for roster groups of the admin's institution, and schedules its first
 * round: now with `send_now`, else at the next slot. The wall-clock time is the institution's
 * (its settings' time zone, kept by the campaign: a later change of zone moves no campaign).
 */
export async function createCampaign(options: {
  db: Kysely<Database>;
  actor: AuditActor;
  request: CampaignInput;
}): Promise<Campaign> {
  const { db, actor, request } = options;
  const { institutionId } = actor;
  const groups = [...new Set(request.groups)];
  const at = now();
  const id = await writeTransaction(db, async (trx) => {
    if (!(await queries.findTemplate(trx, request.template_id, institutionId)))
      throw new AppError('NOT_FOUND', TEMPLATE_NOT_FOUND);
    const known = await queries.knownGroups(trx, institutionId, groups);
    const unknown = request.all_students ? [] : groups.filter((group) => !known.has(group));
    if (unknown.length > 0)
      throw new AppError(
        'BAD_REQUEST',
        `No roster student is in ${unknown.length === 1 ? 'the group' : 'the groups'} ${unknown.map((group) => `"${group}"`).join(', ')}. Import the roster first, or choose another group.`,
      );
    const { timeZone } = await readFollowUpSettings(trx, institutionId);
    const slot = {
      day: request.day,
      minuteOfDay: minuteOfDay(request.hour, request.minute, request.ampm),
      timeZone,
    };
    const firstRun = request.send_now ? at : nextOccurrence(slot, at);
    const campaignId = await queries.insertCampaign(trx, {
      institution_id: institutionId,
      template_id: request.template_id,
      groups: JSON.stringify(request.all_students ? [] : groups),
      all_students: request.all_students ? 1 : 0,
      no_group: request.no_group && !request.all_students ? 1 : 0,
      send_now: request.send_now ? 1 : 0,
      anonymous: request.anonymous ? 1 : 0,
      day: slot.day,
      minute_of_day: slot.minuteOfDay,
      time_zone: timeZone,
      recurring: request.recurring ? 1 : 0,
      reminder_after_days: request.reminder_after_days,
      status: 'active',
      next_run_at: firstRun,
      created_by: actor.userId,
      created_at: at,
    });
    await scheduleRound(trx, campaignId, firstRun);
    await recordAudit(trx, actor, {
      action: 'campaign.create',
      subject: { type: 'campaign', id: campaignId },
      detail: {
        groups,
        all_students: request.all_students,
        no_group: request.no_group,
        send_now: request.send_now,
        recurring: request.recurring,
        anonymous: request.anonymous,
      },
    });
    return campaignId;
  });
  return campaignView(db, institutionId, id);
}

export async function listCampaigns(options: { db: Kysely<Database>; institutionId: number }) {
  const rows = await queries.listCampaigns(options.db, options.institutionId);
  return { success: true as const, campaigns: rows.map(toCampaign) };
}

/**
 * Who of the campaign's current round has not answered yet. Names and addresses go only to a
 * role that may see students' identities, and that read is audited; anyone else gets counts.
 */
export async function listNotAnswered(options: {
  db: Kysely<Database>;
  actor: AuditActor;
  campaignId: number;
  withNames: boolean;
}): Promise<NotAnsweredResponse> {
  const { db, actor, campaignId, withNames } = options;
  const campaign = await queries.findCampaign(db, campaignId, actor.institutionId);
  if (!campaign) throw new AppError('NOT_FOUND', CAMPAIGN_NOT_FOUND);
  const found = await queries.notAnswered(db, { campaignId, round: campaign.rounds });
  const { template_name, groups, all_students, no_group, status, last_run_at, anonymous } =
    await campaignView(db, actor.institutionId, campaignId);
  const answer = {
    success: true as const,
    campaign: { template_name, groups, all_students, no_group, status, last_run_at, anonymous },
    round: campaign.rounds,
    invited: found.invited,
    not_answered: found.notAnswered,
  };
  // Of an anonymous campaign, who has not answered says who has: counts only, for everyone.
  if (!withNames || anonymous) return answer;
  const rows = await found.list(NOT_ANSWERED_MAX_LISTED);
  await recordAudit(db, actor, {
    action: 'campaign.not_answered.read',
    subject: { type: 'campaign', id: campaignId },
    detail: { round: campaign.rounds, listed: rows.length },
  });
  return {
    ...answer,
    students: rows.map((row) => ({
      name: row.name,
      email: row.email,
      group: row.group_name,
      reminders: row.reminders,
    })),
  };
}

type Change = 'pause' | 'resume' | 'cancel';

const CHANGE_RESULT: Record<Change, string> = {
  pause: 'Campaign paused: no invitations or reminders go out until you resume it.',
  resume: 'Campaign resumed.',
  cancel: 'Campaign cancelled: nothing more is sent, and its links no longer work.',
};

/** Pauses, resumes or cancels one of the institution's campaigns. */
export async function changeCampaign(options: {
  db: Kysely<Database>;
  actor: AuditActor;
  campaignId: number;
  change: Change;
}) {
  const { db, actor, campaignId, change } = options;
  const at = now();
  await writeTransaction(db, async (trx) => {
    const campaign = await queries.lockCampaign(trx, campaignId, actor.institutionId);
    if (!campaign) throw new AppError('NOT_FOUND', CAMPAIGN_NOT_FOUND);
    if (campaign.status === 'cancelled')
      throw new AppError('CONFLICT', 'This campaign is cancelled already.');
    if (change === 'cancel') {
      await queries.updateCampaign(trx, campaign.id, { status: 'cancelled', next_run_at: null });
    } else if (change === 'pause') {
      if (campaign.status !== 'active')
        throw new AppError('CONFLICT', 'Only an active campaign can be paused.');
      await queries.updateCampaign(trx, campaign.id, { status: 'paused' });
    } else {
      if (campaign.status !== 'paused')
        throw new AppError('CONFLICT', 'Only a paused campaign can be resumed.');
      await resume(trx, campaign, at);
    }
    await recordAudit(trx, actor, {
      action: `campaign.${change}`,
      subject: { type: 'campaign', id: campaign.id },
    });
  });
  return {
    success: true as const,
    message: CHANGE_RESULT[change],
    campaign: await campaignView(db, actor.institutionId, campaignId),
  };
}

/**
 * Back to active. A round whose time passed while paused goes out at the next slot; the current
 * round's invitations not yet sent are sent now (those sent already are never sent again), and
 * its reminders go on (resumeReminders).
 */
async function resume(trx: Transaction<Database>, campaign: queries.CampaignRow, at: number) {
  const pending = campaign.next_run_at === null ? null : Number(campaign.next_run_at);
  const stillDue = campaign.recurring === 1 || campaign.rounds === 0;
  const next =
    pending !== null && pending > at ? pending : stillDue ? nextOccurrence(slotOf(campaign), at) : null;
  const finished = campaign.recurring === 0 && campaign.rounds > 0;
  await queries.updateCampaign(trx, campaign.id, {
    status: finished ? 'finished' : 'active',
    next_run_at: next,
  });
  if (next !== null) await scheduleRound(trx, campaign.id, next);
  if (campaign.rounds > 0 && Number(campaign.round_expires_at) > at) {
    await scheduleBatch(
      trx,
      { campaignId: campaign.id, round: campaign.rounds, chain: `resume-${at}`, afterStudentId: 0 },
      at,
    );
  }
  await resumeReminders(trx, campaign, at);
}

/**
 * The invitation a token names, refused unless its link still works. `retryOf` is the
 * submission id a phone sends again when it never saw the answer to its first try: an
 * invitation that very submission used up still serves it, so the retry is answered as the
 * first time was (and stores nothing new) instead of "already answered".
 */
async function usableInvitation(
  db: Parameters<typeof queries.findInvitation>[0],
  token: string,
  at: number,
  options: { forUpdate?: boolean; retryOf?: string | undefined } = {},
) {
  const invitation = isTokenShaped(token)
    ? await queries.findInvitation(db, tokenHash(token), { forUpdate: options.forUpdate ?? false })
    : undefined;
  if (!invitation) throw new AppError('NOT_FOUND', INVITATION_NOT_FOUND);
  if (invitation.status === 'cancelled' || Number(invitation.expires_at) <= at)
    throw new AppError('NOT_FOUND', INVITATION_EXPIRED);
  if (invitation.answered_at !== null) {
    const retryOf = options.retryOf;
    const retry =
      retryOf !== undefined &&
      (invitation.anonymous === 1
        ? (await findResent(db, invitation.campaign_id, anonymousRetryKey(token, retryOf))) !== undefined
        : await queries.answeredWith(db, {
            institutionId: invitation.institution_id,
            email: invitation.email,
            clientSubmissionId: retryOf,
          }));
    if (!retry) throw new AppError('CONFLICT', INVITATION_USED);
  }
  return invitation;
}

/**
 * Who may use an invitation: its student, signed in or not; never another account, never staff.
 * An address of a staff account is refused too, even on the roster: its link would let a member
 * of staff answer as a student.
 */
function refuseOthers(user: SessionUser | null, invitation: { email: string; account_role: Role | null }) {
  refuseNonStudents(user, true);
  if (invitation.account_role !== null) refuseNonStudentRole(invitation.account_role);
  if (user && user.email !== invitation.email)
    throw new AppError('FORBIDDEN', wrongStudent(invitation.email));
}

/**
 * The refusals of a personal link that need no answers: someone signed in who is not the student
 * it was sent to (staff, another student). Checked before the answers are read, so they learn
 * nothing from a 400; a link that opens nothing is left to the submission, which says why.
 */
export async function refuseOthersEarly(db: Kysely<Database>, token: string, user: SessionUser | null) {
  if (!user) return;
  refuseNonStudents(user, true);
  const invitation = isTokenShaped(token)
    ? await queries.findInvitation(db, tokenHash(token), { forUpdate: false })
    : undefined;
  if (invitation) refuseOthers(user, invitation);
}

/** The survey a personal link opens, with the name and address of the student it was sent to. */
export async function getInvitationSurvey(options: {
  db: Kysely<Database>;
  token: string;
  user: SessionUser | null;
  /** Checked as one the product offers (surveyLanguage). */
  language: string;
}) {
  const invitation = await usableInvitation(options.db, options.token, now());
  refuseOthers(options.user, invitation);
  const survey = await getSurveyOfTemplate({
    db: options.db,
    templateId: invitation.template_id,
    language: options.language,
  });
  // Anonymous: the screen does not say whom the link was sent to, so nothing on it names them.
  if (invitation.anonymous === 1) return { ...survey, anonymous: true, student_name: '', school_email: '' };
  return { ...survey, anonymous: false, student_name: invitation.name, school_email: invitation.email };
}

/**
 * Submits the survey as the invited student: the link proves the address. The invitation is used
 * up in the submission's own transaction, so it answers once per round.
 */
export async function submitInvitationSurvey(options: {
  db: Kysely<Database>;
  runTransaction: TransactionRunner;
  events: SubmissionEvents;
  token: string;
  user: SessionUser | null;
  schoolEmail?: string;
  answers: Record<string, AnswerValue>;
  /**
   * The language the survey was shown in, checked as one the product offers (surveyLanguage):
   * its answers record it, and crisis help is shown in it.
   */
  language: string;
  clientSubmissionId?: string;
}) {
  const { db, token } = options;
  const retryOf = options.clientSubmissionId;
  const invitation = await usableInvitation(db, token, now(), { retryOf });
  refuseOthers(options.user, invitation);
  // An anonymous survey's form has no name or email to send (a blank one is ignored, never kept).
  if (
    invitation.anonymous !== 1 &&
    options.schoolEmail !== undefined &&
    options.schoolEmail !== invitation.email
  )
    throw new AppError('FORBIDDEN', wrongStudent(invitation.email));
  const template = await queries.findTemplate(db, invitation.template_id, invitation.institution_id);
  if (!template) throw new AppError('NOT_FOUND', INVITATION_EXPIRED);
  if (invitation.anonymous === 1) {
    return submitAnonymousAnswers({
      runTransaction: options.runTransaction,
      invitation: { ...invitation, invited_at: Number(invitation.invited_at) },
      answers: options.answers,
      language: options.language,
      ...(retryOf === undefined ? {} : { retryKey: anonymousRetryKey(token, retryOf) }),
      ...(options.language === undefined ? {} : { language: options.language }),
      useInvitation: async (trx) => {
        // Under lock: two tabs submitting at once use the invitation once. Marked with the time
        // it was sent, not answered, so its mark and the stored answers cannot be matched in time.
        const current = await usableInvitation(trx, token, now(), { forUpdate: true, retryOf });
        if (current.answered_at === null) {
          await queries.markAnswered(trx, current.id, Number(current.invited_at));
          return undefined;
        }
        // Let through only as a resend of the answer that used it: that answer is repeated.
        const earlier =
          retryOf === undefined
            ? undefined
            : await findResent(trx, current.campaign_id, anonymousRetryKey(token, retryOf));
        if (!earlier) throw new AppError('CONFLICT', INVITATION_USED);
        return earlier;
      },
    });
  }
  return submitSurvey({
    runTransaction: options.runTransaction,
    target: { hashLink: template.hash_link, templateId: template.id },
    user: null,
    studentName: invitation.name,
    schoolEmail: invitation.email,
    answers: options.answers,
    language: options.language,
    ...(options.clientSubmissionId === undefined ? {} : { clientSubmissionId: options.clientSubmissionId }),
    addressProven: true,
    events: options.events,
    ...(options.language === undefined ? {} : { language: options.language }),
    beforeStore: async (trx) => {
      const at = now();
      // Checked again under lock: two tabs submitting at once use the invitation once.
      const current = await usableInvitation(trx, token, at, { forUpdate: true, retryOf });
      if (current.answered_at === null) await queries.markAnswered(trx, current.id, at);
    },
  });
}
