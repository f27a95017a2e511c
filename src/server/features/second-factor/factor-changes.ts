import { SIGN_IN_CHANGE_SUBJECT } from '../../../common/schemas/second-factor';
import { formatZonedDateTime } from '../../../common/zoned-format';
import type { Executor } from '../../db/executor';
import { type AuditActor, type AuditEntry, recordAudit } from '../../lib/audit';
import { enqueueMail } from '../../lib/mail/outbox';
import { now } from '../../lib/time';
import { institutionTimeZone } from '../institutions';

/**
 * Every change to how a staff account signs in (a passkey added or removed, the authenticator
 * app set up or reset, recovery codes replaced, the institution's single sign-on changed) is
 * recorded in the audit log and told by mail to whoever it concerns: a change made from a
 * stolen session is then seen by the person who can undo it. In the caller's transaction, so
 * the change, its record and its mail are kept together or not at all.
 */
export async function recordSignInChange(
  trx: Executor,
  actor: AuditActor,
  change: AuditEntry & {
    /** What happened, as the mail says it: "A passkey was added to your account". */
    summary: string;
    /** Who is told: the account's owner, or every admin for the institution's sign-on. */
    tell: readonly string[];
  },
): Promise<void> {
  const at = now();
  const { summary, tell, ...entry } = change;
  await recordAudit(trx, actor, entry);
  const by = actor.email ? ` by ${actor.email}` : '';
  const from = actor.address ? ` from the address ${actor.address}` : '';
  // Everyone told is of the actor's institution: the time is on its clock, which is named.
  const when = formatZonedDateTime(at, await institutionTimeZone(trx, actor.institutionId));
  const text = [
    `${summary}${by}, on ${when}${from}.`,
    '',
    'If this was you, there is nothing to do.',
    'If it was not, tell an administrator of your institution at once: they can reset your second factor and sign you out everywhere.',
  ].join('\n');
  for (const to of new Set(tell)) {
    await enqueueMail(trx, { to, subject: SIGN_IN_CHANGE_SUBJECT, text }, at);
  }
}
