import type { Kysely } from 'kysely';
import { formatZonedDateTime } from '../../../common/zoned-format';
import { writeTransaction } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { recordAuditIf, selfActor } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { needsSecondFactor } from '../../lib/guards';
import { translate } from '../../lib/i18n';
import { supportedLanguages } from '../../lib/languages';
import { clearLimit, enforceLimit } from '../../lib/limits';
import { enqueueMail } from '../../lib/mail/outbox';
import { hashPassword, passwordProblem, verifyPassword } from '../../lib/passwords';
import { deleteOtherSessions, liveSessionsOf, type Session } from '../../lib/sessions';
import { requireFreshFactor } from '../../lib/step-up';
import { now } from '../../lib/time';
import { LIMITS } from '../../limit-table';
import { recordSignInChange } from '../second-factor';
import * as queries from './queries';

/** Wrong current passwords allowed per account inside the window; then the account waits. */
export const PASSWORD_CHANGE_FAILURES_ALLOWED = LIMITS.passwordChangeFailures.max;

export const WRONG_CURRENT_PASSWORD = 'Your current password is not right.';
export const TOO_MANY_PASSWORD_TRIES = 'Too many wrong passwords. Please wait 15 minutes and try again.';
export const PASSWORDS_DIFFER = 'The new passwords do not match.';
export const SAME_PASSWORD = 'The new password must differ from the current one.';
export const PASSWORD_CHANGED =
  'Your password is changed. Every other session of your account is signed out.';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Changes the signed-in user's password. The current password is the proof for everyone; staff
 * also need a second factor proven in the last few minutes, because for them the password is one
 * of the two factors that keep the account, and changing a factor needs the other one fresh (a
 * session taken over while its owner is away, with a password seen over a shoulder, must not
 * replace the password and then sign the owner out). Wrong current passwords are counted per
 * account before they are checked, so a stolen session cannot guess at it. Every other session
 * ends: whoever knew the old password is signed out.
 */
export async function changePassword(options: {
  db: Kysely<Database>;
  session: Session;
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
  brandName: string;
  address: string;
}): Promise<{ success: true; message: string; ended: number }> {
  const { db, session, address } = options;
  const { user } = session;
  const isStaff = needsSecondFactor(user.role);
  if (isStaff) requireFreshFactor(session);
  if (options.newPassword !== options.confirmPassword) throw new AppError('BAD_REQUEST', PASSWORDS_DIFFER);
  const actor = selfActor(user, address);
  const limitKey = `password-change:user:${user.id}`;
  try {
    await enforceLimit(db, limitKey, LIMITS.passwordChangeFailures, TOO_MANY_PASSWORD_TRIES);
  } catch (error) {
    await recordAuditIf(db, actor, {
      action: 'auth.lockout',
      subject: { type: 'user', id: user.id },
      detail: { factor: 'password_change' },
    });
    throw error;
  }
  const stored = await queries.passwordHashOf(db, user.id);
  if (!stored || !(await verifyPassword(stored.password_hash, options.currentPassword))) {
    await recordAuditIf(db, actor, {
      action: 'account.password_change_fail',
      subject: { type: 'user', id: user.id },
    });
    throw new AppError('BAD_REQUEST', WRONG_CURRENT_PASSWORD);
  }
  await clearLimit(db, limitKey);
  if (options.newPassword === options.currentPassword) throw new AppError('BAD_REQUEST', SAME_PASSWORD);
  const weakness = passwordProblem(options.newPassword, {
    email: user.email,
    name: user.name,
    institutionName: user.institutionName,
    brandName: options.brandName,
  });
  if (weakness) throw new AppError('BAD_REQUEST', weakness);
  const passwordHash = await hashPassword(options.newPassword);
  const ended = await writeTransaction(db, async (trx) => {
    await queries.setPasswordHash(trx, user.id, passwordHash);
    const count = await deleteOtherSessions(trx, user.id, session.idHash);
    const entry = {
      action: 'account.password_change',
      subject: { type: 'user', id: user.id },
      detail: { sessions_ended: count },
    };
    if (isStaff && actor) {
      await recordSignInChange(trx, actor, {
        ...entry,
        summary: /*i18n*/ {
          id: 'mail.sign-in-change.password-changed',
          message: 'The password of your staff account was changed',
        },
        tell: [user.email],
      });
    } else {
      await recordAuditIf(trx, actor, entry);
      await enqueueMail(
        trx,
        passwordChangedMail({
          to: user.email,
          brandName: options.brandName,
          address,
          timeZone: user.institutionTimeZone ?? 'UTC',
          language: user.language,
        }),
        now(),
      );
    }
    return count;
  });
  return { success: true, message: PASSWORD_CHANGED, ended };
}

const PASSWORD_CHANGED_SUBJECT = /*i18n*/ {
  id: 'mail.password-changed.subject',
  message: 'Your {brand} Health password was changed',
};
const PASSWORD_CHANGED_BODY = /*i18n*/ {
  id: 'mail.password-changed.body',
  message:
    'The password of your {brand} Health account was changed on {when} from the address {address}.\n\nIf this was you, there is nothing to do.\nIf it was not, contact your institution at once.',
};

/**
 * Told to a student whose password changed, so a change they did not make is seen; the time on
 * their institution's clock, named.
 */
function passwordChangedMail(options: {
  to: string;
  brandName: string;
  address: string;
  timeZone: string;
  language: string | null;
}) {
  const values = {
    brand: options.brandName,
    when: formatZonedDateTime(now(), options.timeZone, options.language),
    address: options.address,
  };
  return {
    to: options.to,
    subject: translate(options.language, PASSWORD_CHANGED_SUBJECT, values),
    text: translate(options.language, PASSWORD_CHANGED_BODY, values),
  };
}

export const LANGUAGE_UNKNOWN = 'This language is not available.';
export const LANGUAGE_CHOSEN = 'Your language was saved.';

/** Keeps the language the signed-in person reads mail in: one of the product's, or a 400. */
export async function chooseLanguage(db: Kysely<Database>, session: Session, language: string) {
  if (!supportedLanguages().includes(language)) throw new AppError('BAD_REQUEST', LANGUAGE_UNKNOWN);
  await writeTransaction(db, (trx) => queries.setLanguage(trx, session.user.id, language));
  return { success: true as const, message: LANGUAGE_CHOSEN, language };
}

/** The signed-in user's open sessions, newest use first; the one asking is marked. */
export async function listOwnSessions(db: Kysely<Database>, session: Session) {
  const sessions = await liveSessionsOf(db, session.user.id);
  return {
    success: true as const,
    sessions: sessions.map((row) => ({
      created_at: iso(row.created_at),
      last_seen_at: iso(row.last_seen_at),
      sign_in_method: row.sign_in_method,
      current: row.id_hash === session.idHash,
    })),
  };
}

/** Signs out every other session of the signed-in user (a browser left signed in elsewhere). */
export async function endOtherSessions(db: Kysely<Database>, session: Session, address: string) {
  const { user } = session;
  const ended = await writeTransaction(db, async (trx) => {
    const count = await deleteOtherSessions(trx, user.id, session.idHash);
    await recordAuditIf(trx, selfActor(user, address), {
      action: 'account.sessions_end',
      subject: { type: 'user', id: user.id },
      detail: { ended: count },
    });
    return count;
  });
  return {
    success: true as const,
    message: ended === 1 ? 'One other session is signed out.' : `${ended} other sessions are signed out.`,
    ended,
  };
}
