import { formatZonedDateTime } from '../../../common/zoned-format';
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

export function alertMail(
  context: CaseMailContext,
  to: string,
  caseId: number,
  deadline: CaseDeadline | null,
): OutgoingMail {
  const link = linkTo(context, casePath(caseId));
  return {
    to,
    subject: `${context.brandName}: a student needs follow-up now`,
    text: [
      `A check-in at your institution needs a counsellor's attention now.`,
      '',
      `Sign in and open case ${caseId}: ${link}`,
      '',
      'Please acknowledge the case once someone is on it.',
      ...(deadline ? [`Acknowledge by: ${formatZonedDateTime(deadline.at, deadline.timeZone)}`] : []),
    ].join('\n'),
  };
}

export function escalationMail(
  context: CaseMailContext,
  to: string,
  caseId: number,
  round: number,
  deadline: CaseDeadline,
): OutgoingMail {
  const link = linkTo(context, casePath(caseId));
  return {
    to,
    subject: `${context.brandName}: case ${caseId} is waiting for acknowledgement`,
    text: [
      `Case ${caseId} has not been acknowledged in the time your institution set.`,
      round > 1 ? `This is reminder ${round}.` : '',
      `It was due by: ${formatZonedDateTime(deadline.at, deadline.timeZone)}`,
      '',
      `Sign in and open it: ${link}`,
    ]
      .filter((line, index) => index !== 1 || line !== '')
      .join('\n'),
  };
}

export function digestMail(context: CaseMailContext, to: string, count: number): OutgoingMail {
  const link = linkTo(context, '/cases/');
  const cases = count === 1 ? '1 new case was' : `${count} new cases were`;
  return {
    to,
    subject: `${context.brandName}: ${count === 1 ? '1 new case' : `${count} new cases`} to review`,
    text: [
      `${cases} opened at your institution in the last day.`,
      '',
      `Sign in to review them: ${link}`,
    ].join('\n'),
  };
}

/**
 * Unproven urgent cases past their limits, told of together: senders who did not prove their
 * address may be anyone, but one of them may be a student in need, so the queue is worth a look.
 */
export function unprovenDigestMail(context: CaseMailContext, to: string, count: number): OutgoingMail {
  const link = linkTo(context, '/cases/?queue=unproven');
  const checkIns = count === 1 ? '1 more check-in' : `${count} more check-ins`;
  return {
    to,
    subject: `${context.brandName}: ${checkIns} from unconfirmed senders need review`,
    text: [
      `${checkIns} sent through a shared link by people who have not confirmed their address need a counsellor's attention.`,
      'They opened cases in the Unverified queue; any one of them may be a student who needs help.',
      '',
      `Sign in and review them: ${link}`,
    ].join('\n'),
  };
}
