import crypto from 'node:crypto';
import { z } from 'zod/mini';
import type { UnprovenAlertLimits } from '../../config';
import type { Executor } from '../../db/executor';
import { languagesByEmail } from '../../lib/i18n';
import { type JobKind, scheduleJob } from '../../lib/jobs';
import { enqueueMail } from '../../lib/mail/outbox';
import { HOUR } from '../../lib/time';
import { LIMITS } from '../../limit-table';
import { readFollowUpSettings } from '../institutions';
import { type CaseMailContext, unprovenDigestMail } from './mails';
import * as queries from './queries';
import { alertRecipients, recordCaseEvent } from './trail';

/**
 * Urgent answers from senders who have not proven the address they gave (design section 8) have
 * limits of their own (config `limits.unprovenAlerts`, where the numbers are argued). Anyone
 * holding a shared link can send them under invented names, so each such case alerts at once only
 * while the institution and the sending client are within them; past them the case is opened all
 * the same (in the unproven queue, screened, the crisis help shown to the sender) and the alert
 * contacts hear of it in one digest per DIGEST_WINDOW. A proven urgent answer always alerts at once.
 */
/** How long unproven urgent cases past the limits gather before one digest mail tells of them. */
export const DIGEST_WINDOW = LIMITS.unprovenDigest.max;

/** The client address as cases keep it: hashed, for counting only (never shown, never compared to anything else). */
export function unprovenClientKey(address: string): string {
  return crypto.createHash('sha256').update(`unproven-client:${address}`).digest('hex');
}

/** Whether an unproven urgent case opened now may alert at once, or must wait for the digest. */
export async function mayAlertAtOnce(
  trx: Executor,
  limits: UnprovenAlertLimits,
  options: { institutionId: number; client: string | null; at: number },
): Promise<boolean> {
  const since = options.at - HOUR;
  const byInstitution = await queries.countUnprovenAlerts(trx, {
    institutionId: options.institutionId,
    since,
  });
  if (byInstitution >= limits.perInstitutionPerHour) return false;
  if (options.client === null) return true;
  const byClient = await queries.countUnprovenAlerts(trx, {
    institutionId: options.institutionId,
    client: options.client,
    since,
  });
  return byClient < limits.perClientPerHour;
}

const DigestPayload = z.object({ institutionId: z.number(), from: z.number(), to: z.number() });
const unprovenDigestJob = {
  kind: 'unproven-case-digest',
  keyOf: (institutionId: number, to: number) => `unproven-case-digest:${institutionId}:${to}`,
};

/**
 * Files the case for the digest: the case says so in its trail, and the digest of its window is
 * scheduled (once, however many cases join it).
 */
export async function digestUnprovenAlert(
  trx: Executor,
  options: { institutionId: number; caseId: number; submissionId?: number; at: number },
): Promise<void> {
  const { institutionId, caseId, at } = options;
  await queries.updateCase(trx, caseId, { unproven_alert: 'digest', unproven_alert_at: at });
  await recordCaseEvent(trx, {
    caseId,
    kind: 'alert_digested',
    ...(options.submissionId === undefined ? {} : { submissionId: options.submissionId }),
    at,
  });
  const from = Math.floor(at / DIGEST_WINDOW) * DIGEST_WINDOW;
  const to = from + DIGEST_WINDOW;
  await scheduleJob(trx, unprovenDigestJob, {
    key: unprovenDigestJob.keyOf(institutionId, to),
    runAt: to,
    payload: { institutionId, from, to },
    at,
  });
}

/** The digest: one mail per alert contact, saying how many unproven urgent cases its window held. */
export function unprovenDigestJobKind(context: CaseMailContext): JobKind {
  const kind: JobKind<typeof DigestPayload> = {
    kind: unprovenDigestJob.kind,
    payload: DigestPayload,
    async run({ trx, payload, at }) {
      const count = await queries.countDigestedUnproven(trx, payload);
      if (count === 0) return;
      const settings = await readFollowUpSettings(trx, payload.institutionId);
      const recipients = await alertRecipients(trx, settings, settings.alertEmails);
      const languages = await languagesByEmail(trx, recipients);
      for (const to of recipients) {
        const mail = unprovenDigestMail(context, to, count, languages.get(to.toLowerCase()));
        await enqueueMail(trx, mail, at, 'alert');
      }
    },
  };
  return kind as unknown as JobKind;
}
