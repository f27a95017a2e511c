import { formatZonedDateTime } from '../../../common/zoned-format';
import { translate } from '../../lib/i18n';
import { mailLink } from '../../lib/mail/links';
import type { OutgoingMail } from '../../lib/mail/outbox';

/**
 * Mail about cases. Never the student's answers, name, tier or the word "risk" (design
 * section 8): only that something is waiting, and a link to sign in and look.
 */

export interface CaseMailContext {
  brandName: string;
  /** Where the mail's links point (config `mail.linkBase`). */
  linkBase: string;
}

function linkTo(context: CaseMailContext, path: string): string {
  return mailLink(context.linkBase, path);
}

function casePath(caseId: number): string {
  return `/cases/${caseId}/`;
}

/** A case's acknowledgement deadline, on the institution's clock as its screens show it. */
export interface CaseDeadline {
  at: number;
  timeZone: string;
}

const ALERT_SUBJECT = /*i18n*/ {
  id: 'mail.case-alert.subject',
  message: '{brand}: a student needs follow-up now',
};
const ALERT_BODY = /*i18n*/ {
  id: 'mail.case-alert.body',
  message:
    "A check-in at your institution needs a counsellor's attention now.\n\nSign in and open case {caseId}: {link}\n\nPlease acknowledge the case once someone is on it.",
};
const ALERT_DEADLINE = /*i18n*/ { id: 'mail.case-alert.deadline', message: 'Acknowledge by: {when}' };

export function alertMail(
  context: CaseMailContext,
  to: string,
  caseId: number,
  deadline: CaseDeadline | null,
  language: string | null = null,
): OutgoingMail {
  const values = {
    brand: context.brandName,
    caseId: String(caseId),
    link: linkTo(context, casePath(caseId)),
  };
  return {
    to,
    subject: translate(language, ALERT_SUBJECT, values),
    text: [
      translate(language, ALERT_BODY, values),
      ...(deadline
        ? [
            translate(language, ALERT_DEADLINE, {
              when: formatZonedDateTime(deadline.at, deadline.timeZone, language),
            }),
          ]
        : []),
    ].join('\n'),
  };
}

const ESCALATION_SUBJECT = /*i18n*/ {
  id: 'mail.case-escalation.subject',
  message: '{brand}: case {caseId} is waiting for acknowledgement',
};
const ESCALATION_INTRO = /*i18n*/ {
  id: 'mail.case-escalation.intro',
  message: 'Case {caseId} has not been acknowledged in the time your institution set.',
};
const ESCALATION_ROUND = /*i18n*/ { id: 'mail.case-escalation.round', message: 'This is reminder {round}.' };
const ESCALATION_REST = /*i18n*/ {
  id: 'mail.case-escalation.rest',
  message: 'It was due by: {when}\n\nSign in and open it: {link}',
};

export function escalationMail(
  context: CaseMailContext,
  to: string,
  caseId: number,
  round: number,
  deadline: CaseDeadline,
  language: string | null = null,
): OutgoingMail {
  const values = {
    brand: context.brandName,
    caseId: String(caseId),
    round: String(round),
    when: formatZonedDateTime(deadline.at, deadline.timeZone, language),
    link: linkTo(context, casePath(caseId)),
  };
  return {
    to,
    subject: translate(language, ESCALATION_SUBJECT, values),
    text: [
      translate(language, ESCALATION_INTRO, values),
      ...(round > 1 ? [translate(language, ESCALATION_ROUND, values)] : []),
      translate(language, ESCALATION_REST, values),
    ].join('\n'),
  };
}

const DIGEST_SUBJECT = /*i18n*/ {
  id: 'mail.case-digest.subject',
  message: '{brand}: {count, plural, one {# new case} other {# new cases}} to review',
};
const DIGEST_BODY = /*i18n*/ {
  id: 'mail.case-digest.body',
  message:
    '{count, plural, one {# new case was} other {# new cases were}} opened at your institution in the last day.\n\nSign in to review them: {link}',
};

export function digestMail(
  context: CaseMailContext,
  to: string,
  count: number,
  language: string | null = null,
): OutgoingMail {
  const values = { brand: context.brandName, count, link: linkTo(context, '/cases/') };
  return {
    to,
    subject: translate(language, DIGEST_SUBJECT, values),
    text: translate(language, DIGEST_BODY, values),
  };
}

const UNPROVEN_DIGEST_SUBJECT = /*i18n*/ {
  id: 'mail.unproven-digest.subject',
  message:
    '{brand}: {count, plural, one {# more check-in} other {# more check-ins}} from unconfirmed senders need review',
};
const UNPROVEN_DIGEST_BODY = /*i18n*/ {
  id: 'mail.unproven-digest.body',
  message:
    "{count, plural, one {# more check-in} other {# more check-ins}} sent through a shared link by people who have not confirmed their address need a counsellor's attention.\nThey opened cases in the Unverified queue; any one of them may be a student who needs help.\n\nSign in and review them: {link}",
};

/**
 * Unproven urgent cases past their limits, told of together: senders who did not prove their
 * address may be anyone, but one of them may be a student in need, so the queue is worth a look.
 */
export function unprovenDigestMail(
  context: CaseMailContext,
  to: string,
  count: number,
  language: string | null = null,
): OutgoingMail {
  const values = { brand: context.brandName, count, link: linkTo(context, '/cases/?queue=unproven') };
  return {
    to,
    subject: translate(language, UNPROVEN_DIGEST_SUBJECT, values),
    text: translate(language, UNPROVEN_DIGEST_BODY, values),
  };
}
