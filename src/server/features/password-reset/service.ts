import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { PASSWORD_RESET_LIFETIME_MINUTES } from '../../../common/schemas/password-reset';
import type { Executor } from '../../db/executor';
import { writeTransaction } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { recordAuditIf, selfActor } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { translate } from '../../lib/i18n';
import { enforceLimit } from '../../lib/limits';
import { mailLink } from '../../lib/mail/links';
import { enqueueMail } from '../../lib/mail/outbox';
import { hashPassword, passwordProblem } from '../../lib/passwords';
import { deleteSessionsOfUser } from '../../lib/sessions';
import { MINUTE, now } from '../../lib/time';
import { LIMITS } from '../../limit-table';
import { findUserByEmail } from '../auth';
import { NO_PASSWORD, passwordRefusalForAddress } from '../sso';
import * as queries from './queries';

export const PASSWORD_RESET_LIFETIME = PASSWORD_RESET_LIFETIME_MINUTES * MINUTE;
/**
 * Reset mails an address is sent in an hour, whoever asks: enough for a lost first one, too few
 * to flood the mailbox. And requests one client address may make in an hour, whatever the
 * addresses: enough for a campus behind one NAT address, a wall for someone sweeping many.
 * Past either, nothing is sent and the answer stays the same.
 */
export const RESETS_PER_ADDRESS_PER_HOUR = LIMITS.resetsPerAddress.max;
export const RESETS_PER_CLIENT_PER_HOUR = LIMITS.resetsPerClient.max;

/** One answer for every address, with an account or not, staff or student, limited or not. */
export const RESET_REQUESTED = (email: string) =>
  `If ${email} has an account, we sent it a link to choose a new password. It works once, for ${PASSWORD_RESET_LIFETIME_MINUTES} minutes. Check your inbox (and the spam folder).`;
export const RESET_LINK_UNUSABLE =
  'This link has expired or was already used. Ask for a new one from the login page.';
export const PASSWORD_CHANGED =
  'Your password is changed and every session of your account has ended. Log in with the new password.';

function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export interface ResetMailContext {
  brandName: string;
  linkBase: string;
}

const RESET_SUBJECT = /*i18n*/ {
  id: 'mail.password-reset.subject',
  message: 'Choose a new {brand} Health password',
};
const RESET_BODY = /*i18n*/ {
  id: 'mail.password-reset.body',
  message:
    'Someone asked to choose a new password for your {brand} Health account.\nIf it was you, choose it here: {link}\n\nThe link works once, for {minutes} minutes. Choosing a new password signs your account out everywhere.\nIf it was not you, you can ignore this mail: your password stays as it is.',
};

function resetMail(context: ResetMailContext, to: string, token: string, language: string | null) {
  const values = {
    brand: context.brandName,
    link: mailLink(context.linkBase, `/reset-password/${token}/`),
    minutes: PASSWORD_RESET_LIFETIME_MINUTES,
  };
  return {
    to,
    subject: translate(language, RESET_SUBJECT, values),
    text: translate(language, RESET_BODY, values),
  };
}

const INSTITUTION_SIGN_IN_SUBJECT = /*i18n*/ {
  id: 'mail.institution-sign-in.subject',
  message: 'Signing in to {brand} Health',
};
const INSTITUTION_SIGN_IN_BODY = /*i18n*/ {
  id: 'mail.institution-sign-in.body',
  message:
    'Someone asked to choose a new password for your {brand} Health account.\nYour account signs in with your {institution} account, not a password: use "Sign in with {institution}" on the login page at {link}.\nIf you cannot sign in there, {institution}\'s IT help desk can help.\nIf it was not you, you can ignore this mail: nothing has changed.',
};

/** For an account that signs in through its institution: no password to reset, so no link. */
function institutionSignInMail(
  context: ResetMailContext,
  to: string,
  institutionName: string,
  language: string | null,
) {
  const values = {
    brand: context.brandName,
    institution: institutionName,
    link: mailLink(context.linkBase, '/login/'),
  };
  return {
    to,
    subject: translate(language, INSTITUTION_SIGN_IN_SUBJECT, values),
    text: translate(language, INSTITUTION_SIGN_IN_BODY, values),
  };
}

/** Counts one hit against the rule; false once the rule is passed (nothing is sent then). */
async function withinLimit(
  db: Executor,
  key: string,
  rule: { max: number; windowMs: number },
): Promise<boolean> {
  try {
    await enforceLimit(db, key, rule);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === 'TOO_MANY_REQUESTS') return false;
    throw error;
  }
}

/** What a reset request for an account leads to. */
type ResetOutcome = 'link' | 'institution_sign_in' | 'limited';

/**
 * Mails the account of the address a link to choose a new password, or, for an account that
 * signs in through its institution, how to do that. The answer is RESET_REQUESTED whatever the
 * address, so nobody learns who has an account; an address with none, a superuser's, a removed
 * member's, or one past the limits is sent nothing.
 */
export async function requestPasswordReset(options: {
  db: Kysely<Database>;
  mail: ResetMailContext;
  email: string;
  clientAddress: string;
}): Promise<{ success: true; message: string }> {
  const { db, email, clientAddress } = options;
  await writeTransaction(db, async (trx) => {
    const at = now();
    const allowed =
      (await withinLimit(trx, `password-reset:client:${clientAddress}`, LIMITS.resetsPerClient)) &&
      (await withinLimit(trx, `password-reset:address:${email}`, LIMITS.resetsPerAddress));
    const account = await findUserByEmail(trx, email);
    if (!account || account.removed_at !== null || account.role === 'superuser') return;
    let outcome: ResetOutcome = 'limited';
    if (allowed) {
      const institutionSignIn =
        account.password_hash === NO_PASSWORD ||
        (account.role === 'student' && (await passwordRefusalForAddress(trx, email)) !== null);
      if (institutionSignIn) {
        await enqueueMail(
          trx,
          institutionSignInMail(options.mail, email, account.institution_name ?? '', account.language),
          at,
        );
        outcome = 'institution_sign_in';
      } else {
        const token = crypto.randomBytes(32).toString('base64url');
        await queries.insertReset(trx, {
          userId: account.id,
          tokenHash: hashToken(token),
          at,
          expiresAt: at + PASSWORD_RESET_LIFETIME,
        });
        await enqueueMail(trx, resetMail(options.mail, email, token, account.language), at);
        outcome = 'link';
      }
    }
    await recordAuditIf(
      trx,
      selfActor(
        { id: account.id, email: account.email, institutionId: account.institution_id },
        clientAddress,
      ),
      {
        action: 'auth.password_reset_request',
        subject: { type: 'user', id: account.id },
        detail: { outcome },
      },
    );
  });
  return { success: true, message: RESET_REQUESTED(email) };
}

async function usableReset(db: Executor, token: string, at: number) {
  const reset = await queries.findReset(db, hashToken(token));
  if (!reset || reset.used_at !== null || Number(reset.expires_at) <= at || reset.removed_at !== null)
    throw new AppError('NOT_FOUND', RESET_LINK_UNUSABLE);
  return reset;
}

/** Whose login counters a reset forgets: every failure counted against the account (auth/lockout.ts). */
const loginCountersOf = (email: string) => `login:account:${email}:`;

/**
 * Sets the new password the link was sent for (the password rules), once: the link and every
 * other of the account stop working, every session of the account ends, and the failed sign-ins
 * counted against it are forgotten (the owner just proved the mailbox). Second factors stay as
 * they are: a staff member still proves one at the next sign-in.
 */
export async function chooseNewPassword(options: {
  db: Kysely<Database>;
  brandName: string;
  token: string;
  password: string;
  confirmPassword: string;
  clientAddress: string;
}): Promise<{ success: true; message: string }> {
  const { db, token, password } = options;
  if (password !== options.confirmPassword) throw new AppError('BAD_REQUEST', 'Passwords do not match');
  const reset = await usableReset(db, token, now());
  const weakness = passwordProblem(password, {
    email: reset.email,
    name: reset.name,
    institutionName: reset.institution_name,
    brandName: options.brandName,
  });
  if (weakness) throw new AppError('BAD_REQUEST', weakness);
  const passwordHash = await hashPassword(password);
  await writeTransaction(db, async (trx) => {
    const at = now();
    if (!(await queries.useReset(trx, reset.id, at))) throw new AppError('NOT_FOUND', RESET_LINK_UNUSABLE);
    await queries.retireResetsOf(trx, reset.user_id, at);
    await queries.setPassword(trx, reset.user_id, passwordHash);
    await deleteSessionsOfUser(trx, reset.user_id);
    await queries.clearLimitsStartingWith(trx, loginCountersOf(reset.email));
    await recordAuditIf(
      trx,
      selfActor(
        { id: reset.user_id, email: reset.email, institutionId: reset.institution_id },
        options.clientAddress,
      ),
      { action: 'auth.password_reset', subject: { type: 'user', id: reset.user_id } },
    );
  });
  return { success: true, message: PASSWORD_CHANGED };
}
