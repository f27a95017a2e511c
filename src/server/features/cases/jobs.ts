import { z } from 'zod/mini';
import type { Executor } from '../../db/executor';
import { languagesByEmail } from '../../lib/i18n';
import { type JobKind, scheduleJob } from '../../lib/jobs';
import { enqueueMail } from '../../lib/mail/outbox';
import { HOUR } from '../../lib/time';
import { addLocalMinutes, localDate, nextLocalTime } from '../../lib/zoned-time';
import { type FollowUpSettings, readFollowUpSettings } from '../institutions';
import { type CaseMailContext, digestMail, escalationMail } from './mails';
import * as queries from './queries';
import { alertRecipients, recordCaseEvent } from './trail';

/**
 * A case's escalation: due at its deadline, and again one acknowledgement window later for as
 * long as it stays unacknowledged. The key names the case and the moment it is due, so
 * scheduling the same escalation twice keeps one job, and a run that dies sends nothing (its mail
 * is rolled back with it) and runs again.
 */
const EscalationPayload = z.object({ caseId: z.number(), dueAt: z.number() });

/** How long a case of this tier may wait for acknowledgement, in the institution's minutes. */
export function ackWindowMinutes(settings: FollowUpSettings, tier: 'urgent' | 'elevated'): number {
  return tier === 'urgent' ? settings.urgentAckMinutes : settings.elevatedAckMinutes;
}

export const escalationJob = {
  kind: 'case-escalation',
  keyOf: (caseId: number, dueAt: number) => `case-escalation:${caseId}:${dueAt}`,
};

/** The daily digest of an institution's new elevated cases, at this local time. */
const DIGEST_HOUR = 8;
const DigestPayload = z.object({ institutionId: z.number(), runAt: z.number() });

const digestJob = {
  kind: 'case-digest',
  keyOf: (institutionId: number, day: string) => `case-digest:${institutionId}:${day}`,
};

/**
 * Makes sure the digest that will tell of a case opened at `at` is scheduled: the next one at
 * DIGEST_HOUR in the institution's time zone. Scheduling it again does nothing.
 */
export async function scheduleDigest(trx: Executor, settings: FollowUpSettings, at: number) {
  const runAt = nextLocalTime(at, settings.timeZone, DIGEST_HOUR, 0);
  await scheduleJob(trx, digestJob, {
    key: digestJob.keyOf(settings.institutionId, localDate(runAt, settings.timeZone)),
    runAt,
    payload: { institutionId: settings.institutionId, runAt },
    at,
  });
}

export function caseJobKinds(context: CaseMailContext): JobKind[] {
  const escalation: JobKind<typeof EscalationPayload> = {
    kind: escalationJob.kind,
    payload: EscalationPayload,
    async run({ trx, payload, at }) {
      const found = await queries.lockCase(trx, payload.caseId);
      // Acknowledged, resolved, or superseded by a sooner deadline: nothing more to say.
      if (!found || found.acknowledged_at !== null || found.resolved_at !== null) return;
      if (found.next_escalation_at !== payload.dueAt) return;
      const settings = await readFollowUpSettings(trx, found.institution_id);
      // An unproven case past the unproven alert limits was told of in a digest: it stays overdue
      // in the unproven queue, but mails no reminder of its own, or a burst of invented names would
      // come back as a burst of reminders. Once verified, its next reminder is mailed as usual.
      const quiet = found.verified_at === null && found.unproven_alert === 'digest';
      if (!quiet) {
        const events = await queries.caseEvents(trx, [found.id]);
        const round = events.filter((event) => event.kind === 'escalated').length + 1;
        const recipients = await alertRecipients(trx, settings, settings.escalationEmails);
        const languages = await languagesByEmail(trx, recipients);
        for (const to of recipients) {
          const mailId = await enqueueMail(
            trx,
            escalationMail(
              context,
              to,
              found.id,
              round,
              {
                at: found.acknowledge_by,
                timeZone: settings.timeZone,
              },
              languages.get(to.toLowerCase()),
            ),
            at,
            'alert',
          );
          await queries.linkCaseMail(trx, { case_id: found.id, mail_id: mailId, kind: 'escalation' });
        }
        await recordCaseEvent(trx, {
          caseId: found.id,
          kind: 'escalated',
          at,
          detail: { round, recipients: recipients.length },
        });
      }
      const next = addLocalMinutes(at, ackWindowMinutes(settings, found.tier), settings.timeZone);
      await queries.updateCase(trx, found.id, { next_escalation_at: next });
      await scheduleJob(trx, escalationJob, {
        key: escalationJob.keyOf(found.id, next),
        runAt: next,
        payload: { caseId: found.id, dueAt: next },
        at,
      });
    },
  };
  const digest: JobKind<typeof DigestPayload> = {
    kind: digestJob.kind,
    payload: DigestPayload,
    async run({ trx, payload, at }) {
      const settings = await readFollowUpSettings(trx, payload.institutionId);
      // The local day that ends at this run, from the digest hour the day before (local days are
      // 23 to 25 hours long, so that hour is the first one after 26 hours back).
      const from = nextLocalTime(payload.runAt - 26 * HOUR, settings.timeZone, DIGEST_HOUR, 0);
      const count = await queries.countElevatedOpened(trx, payload.institutionId, from, payload.runAt);
      if (count === 0) return;
      const recipients = await alertRecipients(trx, settings, settings.alertEmails);
      const languages = await languagesByEmail(trx, recipients);
      for (const to of recipients) {
        await enqueueMail(trx, digestMail(context, to, count, languages.get(to.toLowerCase())), at);
      }
    },
  };
  return [escalation as unknown as JobKind, digest as unknown as JobKind];
}
