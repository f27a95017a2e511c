import { formatZonedDateTime } from '../../../common/zoned-format';
import type { Executor } from '../../db/executor';
import { type AuditActor, type AuditEntry, recordAudit } from '../../lib/audit';
import { languagesByEmail, type Message, translate } from '../../lib/i18n';
import { enqueueMail } from '../../lib/mail/outbox';
import { now } from '../../lib/time';
import { institutionTimeZone } from '../institutions';

// The same words as SIGN_IN_CHANGE_SUBJECT, which the web and tests know it by in English.
const SIGN_IN_CHANGE = /*i18n*/ { id: 'mail.sign-in-change.subject', message: 'A change to how you sign in' };
const CHANGE_BY = /*i18n*/ { id: 'mail.sign-in-change.by', message: ' by {email}' };
const CHANGE_FROM = /*i18n*/ { id: 'mail.sign-in-change.from', message: ' from the address {address}' };
const CHANGE_LINE = /*i18n*/ { id: 'mail.sign-in-change.line', message: '{summary}{by}, on {when}{from}.' };
const CHANGE_ADVICE = /*i18n*/ {
  id: 'mail.sign-in-change.advice',
  message:
    'If this was you, there is nothing to do.\nIf it was not, tell an administrator of your institution at once: they can reset your second factor and sign you out everywhere.',
};

/**
 * Every change to how a staff account signs in (a passkey added or removed, the authenticator
 * app set up or reset, recovery codes replaced, the institution's single sign-on changed) is
 * recorded in the audit log and told by mail to whoever it concerns: a change made from a
 * stolen session is then seen by the person who can undo it. In the caller's transaction, so
 * the change, its record and its mail are kept together or not at all. Each person told reads
 * it in their own language.
 */
export async function recordSignInChange(
  trx: Executor,
  actor: AuditActor,
  change: AuditEntry & {
    /** What happened, as the mail says it: "A passkey was added to your account". */
    summary: Message;
    /** The summary's placeholders. */
    summaryValues?: Record<string, unknown>;
    /** Who is told: the account's owner, or every admin for the institution's sign-on. */
    tell: readonly string[];
  },
): Promise<void> {
  const at = now();
  const { summary, summaryValues, tell, ...entry } = change;
  await recordAudit(trx, actor, entry);
  // Everyone told is of the actor's institution: the time is on its clock, which is named.
  const timeZone = await institutionTimeZone(trx, actor.institutionId);
  const recipients = [...new Set(tell)];
  const languages = await languagesByEmail(trx, recipients);
  for (const to of recipients) {
    const language = languages.get(to.toLowerCase());
    const line = translate(language, CHANGE_LINE, {
      summary: translate(language, summary, summaryValues),
      by: actor.email ? translate(language, CHANGE_BY, { email: actor.email }) : '',
      when: formatZonedDateTime(at, timeZone, language),
      from: actor.address ? translate(language, CHANGE_FROM, { address: actor.address }) : '',
    });
    const text = [line, '', translate(language, CHANGE_ADVICE)].join('\n');
    await enqueueMail(trx, { to, subject: translate(language, SIGN_IN_CHANGE), text }, at);
  }
}
