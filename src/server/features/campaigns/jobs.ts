import { z } from 'zod/mini';
import { MAX_REMINDERS } from '../../../common/schemas/campaigns';
import type { Executor } from '../../db/executor';
import { parseStoredJson } from '../../db/stored-json';
import { languagesByEmail } from '../../lib/i18n';
import { type JobKind, scheduleJob } from '../../lib/jobs';
import { enqueueMails } from '../../lib/mail/outbox';
import { DAY } from '../../lib/time';
import { type InvitationContext, invitationMail, invitationToken, tokenHash } from './invitations';
import * as queries from './queries';
import { nextOccurrence, type WeeklySlot } from './schedule';

/**
 * The campaign's durable jobs. Each writes its invitations, their mails and its follow-up jobs
 * in the one transaction that marks it done (lib/jobs), under keys that name the work, so a run
 * that dies is redone whole and scheduling the same work twice keeps one job.
 *   round:    a round starts: the next round, the first batch and the first reminder are scheduled;
 *   batch:    up to BATCH students invited, then the next batch;
 *   reminder: up to BATCH non-respondents reminded, then the next chunk or the next reminder.
 */

/** Students per job run: one short transaction each, whatever the size of the roster. */
const BATCH = 500;
/** The least time between two rounds of a weekly campaign. */
const MIN_ROUND_GAP = DAY;
/** A one-off campaign's links work this long; a weekly one's until the next round. */
const ONE_OFF_LINK_LIFETIME = 14 * DAY;

const StoredGroups = z.array(z.string());

export function slotOf(campaign: queries.CampaignRow): WeeklySlot {
  return { day: campaign.day, minuteOfDay: campaign.minute_of_day, timeZone: campaign.time_zone };
}

export function groupsOf(campaign: queries.CampaignRow): string[] {
  return parseStoredJson(StoredGroups, campaign.groups) ?? [];
}

/** Whom the campaign invites: its groups, the students with no group, or everyone. */
export function audienceOf(campaign: queries.CampaignRow): queries.Audience {
  return {
    groups: groupsOf(campaign),
    allStudents: campaign.all_students === 1,
    noGroup: campaign.no_group === 1,
  };
}

/** A round is sending or reminding while its campaign is neither paused nor cancelled. */
function isLive(campaign: queries.CampaignRow | undefined, round: number): campaign is queries.CampaignRow {
  return (
    campaign !== undefined &&
    campaign.rounds === round &&
    (campaign.status === 'active' || campaign.status === 'finished')
  );
}

const RoundPayload = z.object({ campaignId: z.number(), runAt: z.number() });
const BatchPayload = z.object({
  campaignId: z.number(),
  round: z.number(),
  /** Names one pass over the students: the first, or one started by a resume. */
  chain: z.string(),
  afterStudentId: z.number(),
});
const ReminderPayload = z.object({
  campaignId: z.number(),
  round: z.number(),
  reminder: z.number(),
  afterInvitationId: z.number(),
  /** Names a chain of reminders started by a resume; the round's own chain has none. */
  chain: z.optional(z.string()),
});

const ROUND_JOB = 'campaign.round';
const BATCH_JOB = 'campaign.batch';
const REMINDER_JOB = 'campaign.reminder';

/** Schedules the round due at `runAt`; the campaign's next_run_at must say the same. */
export function scheduleRound(trx: Executor, campaignId: number, runAt: number) {
  return scheduleJob(
    trx,
    { kind: ROUND_JOB },
    {
      key: `campaign:${campaignId}:round-at:${runAt}`,
      runAt,
      payload: { campaignId, runAt },
    },
  );
}

export function scheduleBatch(trx: Executor, payload: z.infer<typeof BatchPayload>, runAt: number) {
  return scheduleJob(
    trx,
    { kind: BATCH_JOB },
    {
      key: `campaign:${payload.campaignId}:round:${payload.round}:batch:${payload.chain}:${payload.afterStudentId}`,
      runAt,
      payload,
    },
  );
}

function scheduleReminder(trx: Executor, payload: z.infer<typeof ReminderPayload>, runAt: number) {
  return scheduleJob(
    trx,
    { kind: REMINDER_JOB },
    {
      key: `campaign:${payload.campaignId}:round:${payload.round}:reminder:${payload.reminder}:${payload.afterInvitationId}${payload.chain ? `:${payload.chain}` : ''}`,
      runAt,
      payload,
    },
  );
}

/** When reminder `reminder` of a round is due, or null when the round's links expire first. */
function reminderTime(campaign: queries.CampaignRow, reminder: number): number | null {
  if (campaign.reminder_after_days === 0 || reminder > MAX_REMINDERS) return null;
  const due = (campaign.round_started_at ?? 0) + reminder * campaign.reminder_after_days * DAY;
  return due < (campaign.round_expires_at ?? 0) ? due : null;
}

/**
 * After a pause, the current round's reminders go on: a reminder that fell due while the
 * campaign was paused (its job found it paused and stopped the chain) goes out now, the latest
 * one only, not each one missed; with none missed, the next is scheduled at its time. An
 * invitation counts its reminders, so a reminder sent already is never sent again.
 */
export async function resumeReminders(trx: Executor, campaign: queries.CampaignRow, at: number) {
  if (campaign.rounds === 0 || Number(campaign.round_expires_at) <= at) return;
  let reminder = 1;
  for (let next = 2; ; next += 1) {
    const nextDue = reminderTime(campaign, next);
    if (nextDue === null || nextDue > at) break;
    reminder = next;
  }
  const due = reminderTime(campaign, reminder);
  if (due === null) return;
  await scheduleReminder(
    trx,
    {
      campaignId: campaign.id,
      round: campaign.rounds,
      reminder,
      afterInvitationId: 0,
      chain: `resume-${at}`,
    },
    Math.max(due, at),
  );
}

/** A roster entry with the language of the account its address has, if it has one. */
function withLanguage<T extends { email: string }>(invitee: T, languages: Map<string, string>) {
  return { ...invitee, language: languages.get(invitee.email.toLowerCase()) ?? null };
}

export function campaignJobs(context: InvitationContext): JobKind[] {
  const round: JobKind<typeof RoundPayload> = {
    kind: ROUND_JOB,
    payload: RoundPayload,
    async run({ trx, payload, at }) {
      const campaign = await queries.lockCampaign(trx, payload.campaignId);
      // Paused, cancelled or moved since this job was scheduled: another job has the round.
      if (campaign?.status !== 'active' || Number(campaign.next_run_at) !== payload.runAt) return;
      const number = campaign.rounds + 1;
      // A round that runs late (the servers were down) goes out now; the rounds missed meanwhile
      // are not sent one after another: the next is the next slot from now. A round sent now
      // counts for its week: the next one is at least a day later, not at the slot an hour away.
      const next = campaign.recurring
        ? nextOccurrence(slotOf(campaign), Math.max(payload.runAt, at) + MIN_ROUND_GAP)
        : null;
      const expiresAt = next ?? at + ONE_OFF_LINK_LIFETIME;
      await queries.updateCampaign(trx, campaign.id, {
        rounds: number,
        next_run_at: next,
        round_started_at: at,
        round_expires_at: expiresAt,
        status: next === null ? 'finished' : 'active',
      });
      if (next !== null) await scheduleRound(trx, campaign.id, next);
      await scheduleBatch(
        trx,
        { campaignId: campaign.id, round: number, chain: 'first', afterStudentId: 0 },
        at,
      );
      const started = { ...campaign, rounds: number, round_started_at: at, round_expires_at: expiresAt };
      const firstReminder = reminderTime(started, 1);
      if (firstReminder !== null) {
        await scheduleReminder(
          trx,
          { campaignId: campaign.id, round: number, reminder: 1, afterInvitationId: 0 },
          firstReminder,
        );
      }
    },
  };

  const batch: JobKind<typeof BatchPayload> = {
    kind: BATCH_JOB,
    payload: BatchPayload,
    async run({ trx, payload, at }) {
      const campaign = await queries.findCampaign(trx, payload.campaignId);
      if (!isLive(campaign, payload.round)) return;
      const students = await queries.studentsOfAudience(trx, {
        institutionId: campaign.institution_id,
        audience: audienceOf(campaign),
        afterId: payload.afterStudentId,
        limit: BATCH,
      });
      const expiresAt = campaign.round_expires_at ?? at;
      const tokens = new Map(
        students.map((student) => [
          student.id,
          invitationToken(context.inviteKey, {
            campaignId: campaign.id,
            round: payload.round,
            studentId: student.id,
          }),
        ]),
      );
      const invited = await queries.insertInvitations(
        trx,
        students.map((student) => ({
          campaign_id: campaign.id,
          round: payload.round,
          student_id: student.id,
          token_hash: tokenHash(tokens.get(student.id) as string),
          invited_at: at,
          expires_at: expiresAt,
        })),
      );
      // Only those invited by this run get a mail: an invitation that existed got its mail then.
      const newlyInvited = students.filter((student) => invited.has(student.id));
      const languages = await languagesByEmail(
        trx,
        newlyInvited.map((student) => student.email),
      );
      await enqueueMails(
        trx,
        newlyInvited.map((student) =>
          invitationMail(context, withLanguage(student, languages), tokens.get(student.id) as string, {
            expiresAt,
            reminder: 0,
            timeZone: campaign.time_zone,
          }),
        ),
        at,
      );
      await queries.markInvited(
        trx,
        newlyInvited.map((student) => student.id),
        at,
      );
      const last = students.at(-1);
      if (students.length === BATCH && last) {
        await scheduleBatch(trx, { ...payload, afterStudentId: last.id }, at);
      }
    },
  };

  const reminder: JobKind<typeof ReminderPayload> = {
    kind: REMINDER_JOB,
    payload: ReminderPayload,
    async run({ trx, payload, at }) {
      const campaign = await queries.findCampaign(trx, payload.campaignId);
      if (!isLive(campaign, payload.round)) return;
      const due = await queries.unansweredInvitations(trx, {
        campaignId: campaign.id,
        round: payload.round,
        reminder: payload.reminder,
        afterId: payload.afterInvitationId,
        limit: BATCH,
        at,
      });
      const expiresAt = campaign.round_expires_at ?? at;
      const languages = await languagesByEmail(
        trx,
        due.map((invitation) => invitation.email),
      );
      await enqueueMails(
        trx,
        due.map((invitation) =>
          invitationMail(
            context,
            withLanguage(invitation, languages),
            invitationToken(context.inviteKey, {
              campaignId: campaign.id,
              round: payload.round,
              studentId: invitation.student_id,
            }),
            { expiresAt, reminder: payload.reminder, timeZone: campaign.time_zone },
          ),
        ),
        at,
      );
      await queries.markReminded(
        trx,
        due.map((invitation) => invitation.id),
        payload.reminder,
        at,
      );
      const last = due.at(-1);
      if (due.length === BATCH && last) {
        await scheduleReminder(trx, { ...payload, afterInvitationId: last.id }, at);
        return;
      }
      const next = reminderTime(campaign, payload.reminder + 1);
      if (next !== null) {
        await scheduleReminder(
          trx,
          { ...payload, reminder: payload.reminder + 1, afterInvitationId: 0 },
          next,
        );
      }
    },
  };

  return [round, batch, reminder] as unknown as JobKind[];
}
