import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import { isFlagged, type RiskTier } from '../../../common/risk/tiers';
import { DEFAULT_LIMITS, type UnprovenAlertLimits } from '../../config';
import type { Executor } from '../../db/executor';
import type { BeforeCommit, CommitHooks } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { languagesByEmail } from '../../lib/i18n';
import { scheduleJob } from '../../lib/jobs';
import { enqueueMail } from '../../lib/mail/outbox';
import { now } from '../../lib/time';
import type { TransactionSubscriber } from '../../lib/transaction-event';
import { addLocalMinutes } from '../../lib/zoned-time';
import { type FollowUpSettings, readFollowUpSettings } from '../institutions';
import type { SubmissionStored, SubmissionsProven } from '../surveys';
import { ackWindowMinutes, escalationJob, scheduleDigest } from './jobs';
import { alertMail, type CaseMailContext } from './mails';
import * as queries from './queries';
import { alertRecipients, recordCaseEvent } from './trail';
import { digestUnprovenAlert, mayAlertAtOnce, unprovenClientKey } from './unproven';

/** A flagged submission, as the submission's transaction stored it. */
export interface FlaggedSubmission {
  institutionId: number;
  respondentId: number;
  /** None for a student's request to be contacted from an anonymous campaign (contactCase). */
  submissionId?: number;
  tier: 'urgent' | 'elevated';
  submittedAt: number;
  proven: boolean;
  /** Unproven: the sending client's address, hashed (unprovenClientKey), for its own limits. */
  client?: string;
}

/** The case a submission was filed in, and when it is due for acknowledgement (null: acknowledged). */
interface FiledCase {
  caseId: number;
  opened: boolean;
  acknowledgeBy: number | null;
}

/** Files the submission in the student's open case, opening one if there is none. */
async function fileInCase(
  trx: Executor,
  settings: FollowUpSettings,
  flagged: FlaggedSubmission,
  at: number,
): Promise<FiledCase> {
  // The window runs from when the answer is filed: the same moment for a live answer, while the
  // demo seed's back-dated answers open cases that wait like new ones rather than overdue ones.
  const deadline = addLocalMinutes(
    Math.max(flagged.submittedAt, at),
    ackWindowMinutes(settings, flagged.tier),
    settings.timeZone,
  );
  const open = await queries.lockOpenCase(trx, flagged.respondentId);
  let caseId = open?.id;
  if (!open) {
    caseId = await queries.insertCaseIfNoneOpen(trx, {
      institution_id: flagged.institutionId,
      respondent_id: flagged.respondentId,
      open_respondent_id: flagged.respondentId,
      tier: flagged.tier,
      status: 'new',
      verified_at: flagged.proven ? flagged.submittedAt : null,
      first_submitted_at: flagged.submittedAt,
      opened_at: at,
      acknowledge_by: deadline,
      next_escalation_at: deadline,
      unproven_client: flagged.proven ? null : (flagged.client ?? null),
    });
    if (caseId !== undefined) {
      // Opened by a flagged answer, or by a student's own request to be contacted.
      await recordCaseEvent(
        trx,
        flagged.submissionId === undefined
          ? { caseId, kind: 'contact_asked', at }
          : { caseId, kind: 'opened', submissionId: flagged.submissionId, at },
      );
      await scheduleJob(trx, escalationJob, {
        key: escalationJob.keyOf(caseId, deadline),
        runAt: deadline,
        payload: { caseId, dueAt: deadline },
        at,
      });
      if (flagged.tier === 'elevated') await scheduleDigest(trx, settings, at);
      return { caseId, opened: true, acknowledgeBy: deadline };
    }
  }
  // A case is open (or another transaction opened it meanwhile): the submission joins it.
  const current = open ?? (await queries.lockOpenCase(trx, flagged.respondentId));
  if (!current) throw new Error(`No open case for respondent ${flagged.respondentId}`);
  if (flagged.submissionId !== undefined)
    await recordCaseEvent(trx, {
      caseId: current.id,
      kind: 'submission',
      submissionId: flagged.submissionId,
      at,
    });
  const changes: Parameters<typeof queries.updateCase>[2] = {};
  if (flagged.tier === 'urgent' && current.tier !== 'urgent') {
    changes.tier = 'urgent';
    // Still waiting for someone: the sooner deadline of the more serious tier holds.
    if (current.acknowledged_at === null && deadline < current.acknowledge_by) {
      changes.acknowledge_by = deadline;
      changes.next_escalation_at = deadline;
      await scheduleJob(trx, escalationJob, {
        key: escalationJob.keyOf(current.id, deadline),
        runAt: deadline,
        payload: { caseId: current.id, dueAt: deadline },
        at,
      });
    }
  }
  if (flagged.proven && current.verified_at === null) {
    changes.verified_at = flagged.submittedAt;
    await recordCaseEvent(trx, {
      caseId: current.id,
      kind: 'verified',
      ...(flagged.submissionId === undefined ? {} : { submissionId: flagged.submissionId }),
      at,
    });
  }
  if (Object.keys(changes).length > 0) await queries.updateCase(trx, current.id, changes);
  const acknowledgeBy =
    current.acknowledged_at === null ? (changes.acknowledge_by ?? current.acknowledge_by) : null;
  return { caseId: current.id, opened: false, acknowledgeBy };
}

/**
 * Who hears of an urgent answer, and how. A proven one alerts the contacts at once, always. An
 * unproven one (anyone with the link may send it, under any name) alerts once per case: joining
 * a case that alerted already adds only its event to the trail. A first alert goes out at once
 * within the unproven limits (unproven.ts), and past them through the digest.
 */
async function alertOfUrgent(
  trx: Executor,
  context: CaseMailContext & { unprovenAlerts: UnprovenAlertLimits },
  settings: FollowUpSettings,
  flagged: FlaggedSubmission,
  filed: FiledCase,
  at: number,
): Promise<void> {
  const { caseId } = filed;
  if (flagged.proven) {
    await queueAlert(trx, context, settings, filed, at);
    return;
  }
  if (!filed.opened && (await queries.hasAlerted(trx, caseId))) return;
  const client = flagged.client ?? null;
  const limits = context.unprovenAlerts;
  if (await mayAlertAtOnce(trx, limits, { institutionId: flagged.institutionId, client, at })) {
    await queries.updateCase(trx, caseId, {
      unproven_client: client,
      unproven_alert: 'mail',
      unproven_alert_at: at,
    });
    await queueAlert(trx, context, settings, filed, at);
    return;
  }
  await queries.updateCase(trx, caseId, { unproven_client: client });
  await digestUnprovenAlert(trx, {
    institutionId: flagged.institutionId,
    caseId,
    ...(flagged.submissionId === undefined ? {} : { submissionId: flagged.submissionId }),
    at,
  });
}

/** Mails the alert contacts about an urgent submission at once, ahead of bulk mail. */
async function queueAlert(
  trx: Executor,
  context: CaseMailContext,
  settings: FollowUpSettings,
  filed: FiledCase,
  at: number,
): Promise<void> {
  const { caseId, acknowledgeBy } = filed;
  const deadline = acknowledgeBy === null ? null : { at: acknowledgeBy, timeZone: settings.timeZone };
  const recipients = await alertRecipients(trx, settings, settings.alertEmails);
  // Each in their own language: one alert may go to staff who read different ones.
  const languages = await languagesByEmail(trx, recipients);
  for (const to of recipients) {
    const mail = alertMail(context, to, caseId, deadline, languages.get(to.toLowerCase()));
    const mailId = await enqueueMail(trx, mail, at, 'alert');
    await queries.linkCaseMail(trx, { case_id: caseId, mail_id: mailId, kind: 'alert' });
  }
  await recordCaseEvent(trx, {
    caseId,
    kind: 'alert_queued',
    at,
    detail: { recipients: recipients.length },
  });
}

interface PendingCases {
  flagged: FlaggedSubmission[];
}

/**
 * Files flagged submissions in cases as part of the submissions' own transaction, written with
 * its commit: a submission and its case are kept together or not at all. Only flagged
 * submissions add anything, so the calm majority of the submission path costs nothing more.
 */
export interface CaseOpener {
  /** Call inside the submission's transaction, once the submission is stored. */
  note(hooks: CommitHooks, flagged: FlaggedSubmission): void;
  /**
   * The cases' part in a stored submission (surveys' SubmissionStored): verified or not, a
   * flagged one reaches a counsellor (design section 9).
   */
  fileStored: TransactionSubscriber<SubmissionStored>;
}

/**
 * Alerts committed within this long go out in one delivery pass. Each pass writes twice (the
 * claim and the sent mark), and on SQLite every write waits for the disk: waking the outbox after
 * every group commit under load tripled the flushes and cut submissions/s by almost half.
 */
const ALERT_GATHER_MS = 250;

export function caseOpener(
  options: CaseMailContext & { wakeMail: () => void; unprovenAlerts?: UnprovenAlertLimits },
): CaseOpener {
  const context = { ...options, unprovenAlerts: options.unprovenAlerts ?? DEFAULT_LIMITS.unprovenAlerts };
  let gathering = false;
  const wakeMail = () => {
    if (gathering) return;
    gathering = true;
    setTimeout(() => {
      gathering = false;
      context.wakeMail();
    }, ALERT_GATHER_MS);
  };
  const hook: BeforeCommit<PendingCases> = {
    start: () => ({ flagged: [] }),
    merge(into, from) {
      into.flagged.push(...from.flagged);
    },
    async write(trx: Transaction<Database>, pending) {
      const at = now();
      const settingsOf = new Map<number, FollowUpSettings>();
      for (const flagged of pending.flagged) {
        let settings = settingsOf.get(flagged.institutionId);
        if (!settings) {
          settings = await readFollowUpSettings(trx, flagged.institutionId);
          settingsOf.set(flagged.institutionId, settings);
        }
        const filed = await fileInCase(trx, settings, flagged, at);
        if (flagged.tier === 'urgent') await alertOfUrgent(trx, context, settings, flagged, filed, at);
      }
    },
  };
  const note = (hooks: CommitHooks, flagged: FlaggedSubmission) => {
    hooks.beforeCommit(hook).flagged.push(flagged);
    if (flagged.tier === 'urgent') hooks.afterCommit(wakeMail);
  };
  return {
    note,
    fileStored(_trx, hooks, stored) {
      if (!isFlagged(stored.tier)) return;
      note(hooks, {
        institutionId: stored.institutionId,
        respondentId: stored.respondentId,
        submissionId: stored.submissionId,
        tier: stored.tier,
        submittedAt: stored.createdAt,
        proven: stored.proven,
        ...(!stored.proven && stored.clientAddress !== undefined
          ? { client: unprovenClientKey(stored.clientAddress) }
          : {}),
      });
    },
  };
}

/** The cases' part in submissions just proven (surveys' SubmissionsProven). */
export const verifyCasesOfProven: TransactionSubscriber<SubmissionsProven> = (trx, _hooks, proven) =>
  verifyCasesOf(
    trx,
    proven.submissions.map((submission) => submission.submissionId),
    proven.at,
  );

/**
 * Submissions just proven to come from the student (design section 8): a case they are in that
 * nothing had verified is verified now. Call inside the transaction that records the proof.
 */
export async function verifyCasesOf(trx: Executor, submissionIds: number[], at: number): Promise<void> {
  if (submissionIds.length === 0) return;
  for (const found of await queries.unverifiedCasesOfSubmissions(trx, submissionIds)) {
    const { id } = found;
    // A case told of only in the unproven digest, still waiting for someone: now that it is the
    // student's own, its reminder goes to the escalation contacts at once (jobs.ts).
    const waiting = found.acknowledged_at === null && found.resolved_at === null;
    const remindNow = found.unproven_alert === 'digest' && waiting && found.next_escalation_at !== null;
    await queries.updateCase(trx, id, { verified_at: at, ...(remindNow ? { next_escalation_at: at } : {}) });
    await recordCaseEvent(trx, { caseId: id, kind: 'verified', at });
    if (remindNow) {
      await scheduleJob(trx, escalationJob, {
        key: escalationJob.keyOf(id, at),
        runAt: at,
        payload: { caseId: id, dueAt: at },
        at,
      });
    }
  }
}

/** What a student of an anonymous campaign chose to share when asking to be contacted. */
export interface ContactAsked {
  institutionId: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  /** The tier of the answer they had just sent (never told to them). */
  answerTier: RiskTier;
  /** Their answers, when they chose to share them. */
  answers: { question: string; answer: string }[] | null;
}

/** The record a contact request is filed under: the address given, else the phone number. */
const NAME_NOT_GIVEN = 'Name not given';

/**
 * Opens (or joins) a case for a student who asked to be contacted, with only what they shared.
 * A request to be contacted is followed up at least as an elevated answer is, and as urgent when
 * the answer they had just sent was; an urgent one alerts the contacts at once (the request came
 * through a once-only roster link, so it is bounded as a proven answer is). Not verified: the
 * details given are the student's word.
 */
export async function contactCase(
  trx: Executor,
  context: CaseMailContext,
  asked: ContactAsked,
): Promise<number> {
  const at = now();
  const key = asked.email ?? `phone:${asked.phone}`;
  const respondent = await trx
    .insertInto('respondents')
    .values({
      institution_id: asked.institutionId,
      email: key,
      name: asked.name ?? NAME_NOT_GIVEN,
      user_id: null,
      created_at: at,
    })
    // A record of that address already: the request joins it, renaming no one.
    .onConflict((oc) =>
      oc.columns(['institution_id', 'email']).doUpdateSet((eb) => ({ name: eb.ref('respondents.name') })),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  const settings = await readFollowUpSettings(trx, asked.institutionId);
  const tier = asked.answerTier === 'urgent' ? 'urgent' : 'elevated';
  const flagged: FlaggedSubmission = {
    institutionId: asked.institutionId,
    respondentId: respondent.id,
    tier,
    submittedAt: at,
    proven: false,
  };
  const filed = await fileInCase(trx, settings, flagged, at);
  await trx
    .insertInto('case_contacts')
    .values({
      case_id: filed.caseId,
      name: asked.name,
      email: asked.email,
      phone: asked.phone,
      tier: asked.answerTier,
      answers: asked.answers === null ? null : JSON.stringify(asked.answers),
      asked_at: at,
    })
    .execute();
  if (!filed.opened) await recordCaseEvent(trx, { caseId: filed.caseId, kind: 'contact_asked', at });
  if (tier === 'urgent') await queueAlert(trx, context, settings, filed, at);
  return filed.caseId;
}

/** The case opener of a running app: its brand and address in the mails, its mail worker woken. */
export function appCaseOpener(app: FastifyInstance): CaseOpener {
  return caseOpener({
    brandName: app.config.web.brandName,
    linkBase: app.config.mail.linkBase,
    unprovenAlerts: app.config.limits.unprovenAlerts,
    wakeMail: () => app.mail.wake(),
  });
}
