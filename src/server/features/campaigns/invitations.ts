import crypto from 'node:crypto';
import { formatZonedDateTime } from '../../../common/zoned-format';
import { translate } from '../../lib/i18n';
import { mailLink } from '../../lib/mail/links';

/**
 * Personal invitation links. The token is derived from the server's key and the invitation's
 * place (campaign, round, student), so a reminder can carry the same link as the first mail
 * without the link ever being stored: only its SHA-256 is, to find the invitation.
 */

export interface InvitationContext {
  /** Derived from the server secret for this use only. */
  inviteKey: Buffer;
  brandName: string;
  /** Where links point; without it the mail gives the path on the institution's survey site. */
  linkBase: string;
}

export function invitationToken(
  key: Buffer,
  place: { campaignId: number; round: number; studentId: number },
): string {
  return crypto
    .createHmac('sha256', key)
    .update(`invitation:${place.campaignId}:${place.round}:${place.studentId}`)
    .digest('base64url');
}

export function tokenHash(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** A token is 43 base64url characters; anything else is not one of ours. */
export function isTokenShaped(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

function invitationPath(token: string): string {
  return `/survey/invite/${token}/`;
}

function invitationLink(context: InvitationContext, token: string): string {
  const path = invitationPath(token);
  return mailLink(context.linkBase, path);
}

const INVITATION_SUBJECT = /*i18n*/ {
  id: 'mail.check-in.subject',
  message: 'Your {brand} Health wellness check-in',
};
const REMINDER_SUBJECT = /*i18n*/ {
  id: 'mail.check-in-reminder.subject',
  message: 'Reminder: your {brand} Health wellness check-in',
};
const INVITATION_BODY = /*i18n*/ {
  id: 'mail.check-in.body',
  message:
    'Hello {name},\n\nYour institution invites you to a short wellness check-in. It takes a few minutes.\n\nYour personal link (please do not share it; it works once, for you only):\n{link}\n\nThe link works until {until}.',
};
const REMINDER_BODY = /*i18n*/ {
  id: 'mail.check-in-reminder.body',
  message:
    'Hello {name},\n\nA reminder: your wellness check-in is still open. It takes a few minutes.\n\nYour personal link (please do not share it; it works once, for you only):\n{link}\n\nThe link works until {until}.',
};

/**
 * The invitation mail: a greeting, the link and when it stops working; nothing about answers. In
 * the language of the invitee's account; a student without one (a roster entry) reads English.
 */
export function invitationMail(
  context: InvitationContext,
  invitee: { email: string; name: string; language?: string | null },
  token: string,
  /** timeZone: the campaign's, in which its rounds are scheduled and the link's end is told. */
  options: { expiresAt: number; reminder: number; timeZone: string },
) {
  const values = {
    brand: context.brandName,
    name: invitee.name,
    link: invitationLink(context, token),
    until: formatZonedDateTime(options.expiresAt, options.timeZone, invitee.language),
  };
  const reminder = options.reminder > 0;
  return {
    to: invitee.email,
    subject: translate(invitee.language, reminder ? REMINDER_SUBJECT : INVITATION_SUBJECT, values),
    text: translate(invitee.language, reminder ? REMINDER_BODY : INVITATION_BODY, values),
  };
}
