import type { Kysely } from 'kysely';
import type { Executor } from '../../db/executor';
import { writeTransaction } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { type AuditActor, recordAuditIf, selfActor } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import {
  isSingleFactor,
  needsSecondFactor,
  SECOND_FACTOR_REQUIRED_MESSAGE,
  type StaffUser,
  secondFactorStep,
  withSecondFactor,
} from '../../lib/guards';
import { clearLimit, enforceLimit } from '../../lib/limits';
import { seal, unseal } from '../../lib/sealed';
import {
  deleteSessionsOfUser,
  markFactorProven,
  type Session,
  type SessionUser,
  strengthenSession,
} from '../../lib/sessions';
import { requireFreshFactor } from '../../lib/step-up';
import { now } from '../../lib/time';
import { LIMITS } from '../../limit-table';
import { recordSignInChange } from './factor-changes';
import { issueRecoveryCodes } from './issue-recovery-codes';
import * as queries from './queries';
import { hashRecoveryCode } from './recovery-codes';
import { matchTotp, newTotpSecret, qrCodeDataUrl, totpUri } from './totp';

/** Keys and names the second factor needs, derived once from the server secret (app.ts). */
export interface SecondFactorContext {
  /** Seals authenticator-app secrets in the database. */
  sealKey: Buffer;
  /** Keys the recovery-code hashes. */
  recoveryKey: Buffer;
  /** The name the authenticator app shows for the entry. */
  issuer: string;
}

/** Wrong codes allowed per account inside the window; then the account waits. */
export const CODE_FAILURES_ALLOWED = LIMITS.secondFactorFailures.max;

export const WRONG_CODE = 'That code is not right. Check the app and try again, or use a recovery code.';
export const WRONG_SETUP_CODE =
  'That code is not right. Check that the app shows the new entry, and try again.';
export const TOO_MANY_CODES = 'Too many wrong codes. Please wait 15 minutes and try again.';
export const STAFF_ONLY = 'A second factor is for staff accounts.';
export const ALREADY_SET_UP =
  'An authenticator app is already set up for this account. If you lost it, ask another administrator to reset it.';
export const NOT_SET_UP = 'Set up an authenticator app first.';

export function requireStaffAccount(user: SessionUser) {
  if (!needsSecondFactor(user.role)) throw new AppError('FORBIDDEN', STAFF_ONLY);
}

/**
 * Counts the attempt before the code is checked, so simultaneous guesses are counted too. An
 * attempt refused for too many wrong codes is recorded as a lockout.
 */
export async function countCodeAttempt(
  db: Kysely<Database>,
  user: SessionUser,
  address: string | null,
): Promise<string> {
  const key = `second-factor:user:${user.id}`;
  try {
    await enforceLimit(db, key, LIMITS.secondFactorFailures, TOO_MANY_CODES);
  } catch (error) {
    await recordAuditIf(db, selfActor(user, address), {
      action: 'auth.lockout',
      subject: { type: 'user', id: user.id },
      detail: { factor: 'second_factor' },
    });
    throw error;
  }
  return key;
}

export async function secondFactorStatus(options: { db: Kysely<Database>; user: SessionUser }) {
  requireStaffAccount(options.user);
  const totp = await queries.findTotp(options.db, options.user.id);
  return {
    success: true as const,
    totp: Boolean(totp?.confirmed_at),
    recovery_codes_left: await queries.countUnusedRecoveryCodes(options.db, options.user.id),
  };
}

/**
 * A password alone may set up the first factor (there is nothing else to ask for); adding an app
 * to a passkey needs a complete sign-in. An app set up is replaced only through a reset.
 */
async function requireMayAddApp(db: Kysely<Database>, user: SessionUser) {
  requireStaffAccount(user);
  if ((await queries.findTotp(db, user.id))?.confirmed_at) throw new AppError('CONFLICT', ALREADY_SET_UP);
  if (secondFactorStep(user) === 'verify')
    throw new AppError('SECOND_FACTOR_REQUIRED', SECOND_FACTOR_REQUIRED_MESSAGE.verify, {
      second_factor: 'verify',
    });
}

/** A new secret for the staff member's authenticator app, to be confirmed with its first code. */
export async function startTotpEnrolment(options: {
  db: Kysely<Database>;
  context: SecondFactorContext;
  user: SessionUser;
}) {
  const { db, context, user } = options;
  await requireMayAddApp(db, user);
  const secret = newTotpSecret();
  await queries.putPendingTotp(db, user.id, seal(context.sealKey, secret), now());
  const uri = totpUri(context.issuer, user.email, secret);
  return { success: true as const, secret, otpauth_uri: uri, qr_code: qrCodeDataUrl(uri) };
}

/**
 * Confirms the enrolment with the app's first code: the app is set up, ten recovery codes are
 * issued (shown once), and a session signed in with a password alone becomes a complete one.
 */
export async function confirmTotpEnrolment(options: {
  db: Kysely<Database>;
  context: SecondFactorContext;
  session: Session;
  code: string;
  address: string;
}) {
  const { db, context, session, code } = options;
  const { user } = session;
  await requireMayAddApp(db, user);
  // Added beside a factor the account has (a passkey), the app needs that factor proven afresh.
  if (secondFactorStep(user) === null) requireFreshFactor(session);
  const limitKey = await countCodeAttempt(db, user, options.address);
  const pending = await queries.findTotp(db, user.id);
  const secret = pending && !pending.confirmed_at ? unseal(context.sealKey, pending.secret_sealed) : null;
  if (!secret) throw new AppError('CONFLICT', 'Start the set-up again: scan the new code with the app.');
  const at = now();
  const step = await matchTotp({ secret, code, at, usedStep: pending?.last_time_step ?? null });
  if (step === null) throw new AppError('BAD_REQUEST', WRONG_SETUP_CODE);
  const result = await writeTransaction(db, async (trx) => {
    if (!(await queries.claimTimeStep(trx, user.id, step, at)))
      throw new AppError('BAD_REQUEST', WRONG_SETUP_CODE);
    const recoveryCodes = await issueRecoveryCodes(trx, context.recoveryKey, user.id, at);
    const actor = selfActor(user, options.address);
    if (actor)
      await recordSignInChange(trx, actor, {
        action: 'staff.app_enrol',
        subject: { type: 'user', id: user.id },
        summary: /*i18n*/ {
          id: 'mail.sign-in-change.app-set-up',
          message: 'An authenticator app was set up for your staff account',
        },
        tell: [user.email],
      });
    // Added to a complete sign-in (after a passkey, say), the session stays as it was.
    const stronger = isSingleFactor(user.signInMethod)
      ? await strengthenSession(trx, session, withSecondFactor(user.signInMethod))
      : null;
    return { recoveryCodes, stronger };
  });
  await clearLimit(db, limitKey);
  return result;
}

/** Proves the second factor after a password sign-in, with an app code or a recovery code. */
export async function verifySecondFactor(options: {
  db: Kysely<Database>;
  context: SecondFactorContext;
  session: Session;
  code: string;
  address: string;
}) {
  const { db, session } = options;
  const { user } = session;
  requireStaffAccount(user);
  if (!user.hasSecondFactor) throw new AppError('CONFLICT', NOT_SET_UP);
  if (secondFactorStep(user) === null) throw new AppError('CONFLICT', 'Your sign-in is already confirmed.');
  await proveCode({ ...options, user, purpose: 'sign_in' });
  return strengthenSession(db, session, withSecondFactor(user.signInMethod));
}

/**
 * Checks an app code or a recovery code of the user, counted against the wrong-code limit, and
 * records the outcome: which kind of code was used (never the code), or that it was wrong.
 */
async function proveCode(options: {
  db: Kysely<Database>;
  context: SecondFactorContext;
  user: SessionUser;
  code: string;
  address: string;
  purpose: 'sign_in' | 'step_up';
}) {
  const { db, context, user, code, purpose } = options;
  const actor = selfActor(user, options.address);
  const limitKey = await countCodeAttempt(db, user, options.address);
  const at = now();
  const isAppCode = /^[0-9]{6}$/.test(code);
  const accepted = isAppCode
    ? await acceptAppCode(db, context, user.id, code, at)
    : await queries.spendRecoveryCode(db, user.id, hashRecoveryCode(context.recoveryKey, user.id, code), at);
  const subject = { type: 'user', id: user.id };
  const method = isAppCode ? 'app' : 'recovery_code';
  if (!accepted) {
    await recordAuditIf(db, actor, {
      action: purpose === 'sign_in' ? 'auth.second_factor_fail' : 'auth.step_up_fail',
      subject,
      detail: { method },
    });
    throw new AppError('BAD_REQUEST', WRONG_CODE);
  }
  await clearLimit(db, limitKey);
  await recordAuditIf(db, actor, {
    action: purpose === 'sign_in' ? 'auth.second_factor' : 'auth.step_up',
    subject,
    detail: { method },
  });
  if (!isAppCode)
    await recordAuditIf(db, actor, {
      action: 'auth.recovery_code_use',
      subject,
      detail: { left: await queries.countUnusedRecoveryCodes(db, user.id) },
    });
}

/**
 * A signed-in staff member proves their second factor again (an app code or a recovery code),
 * so that for the next few minutes this session may change how the account signs in.
 */
export async function stepUpWithCode(options: {
  db: Kysely<Database>;
  context: SecondFactorContext;
  session: Session;
  code: string;
  address: string;
}) {
  const { db, session } = options;
  const { user } = session;
  requireStaffAccount(user);
  if (!user.hasSecondFactor) throw new AppError('CONFLICT', NOT_SET_UP);
  await proveCode({ ...options, user, purpose: 'step_up' });
  await markFactorProven(db, session.idHash);
  return { success: true as const, message: 'Confirmed. You can make the change now.' };
}

async function acceptAppCode(
  db: Kysely<Database>,
  context: SecondFactorContext,
  userId: number,
  code: string,
  at: number,
): Promise<boolean> {
  const totp = await queries.findTotp(db, userId);
  const secret = totp?.confirmed_at ? unseal(context.sealKey, totp.secret_sealed) : null;
  if (!totp || !secret) return false;
  const step = await matchTotp({ secret, code, at, usedStep: totp.last_time_step });
  return step !== null && (await queries.claimTimeStep(db, userId, step, null));
}

/** New recovery codes, replacing the old ones (all of them, used or not). */
export async function regenerateRecoveryCodes(options: {
  db: Kysely<Database>;
  context: SecondFactorContext;
  session: Session;
  address: string;
}) {
  const { db, context, session } = options;
  const { user } = session;
  requireStaffAccount(user);
  const actor = selfActor(user, options.address);
  if (!user.hasSecondFactor || !actor) throw new AppError('CONFLICT', NOT_SET_UP);
  requireFreshFactor(session);
  return writeTransaction(db, async (trx) => {
    const codes = await issueRecoveryCodes(trx, context.recoveryKey, user.id, now());
    await recordSignInChange(trx, actor, {
      action: 'staff.recovery_codes_replace',
      subject: { type: 'user', id: user.id },
      summary: /*i18n*/ {
        id: 'mail.sign-in-change.recovery-codes-replaced',
        message: 'The recovery codes of your staff account were replaced (the old ones no longer work)',
      },
      tell: [user.email],
    });
    return codes;
  });
}

export const CANNOT_RESET_OWN =
  'You cannot reset your own second factor. Ask another administrator of your institution.';
export const STAFF_NOT_FOUND = 'Staff member not found';

/**
 * A staff member lost their device: another admin of the institution removes their second factor
 * and signs them out everywhere. They set up a new one at their next sign-in. Recorded in the
 * audit log with the reset.
 */
export async function resetSecondFactor(options: {
  db: Kysely<Database>;
  admin: StaffUser;
  actor: AuditActor;
  targetId: number;
}) {
  const { db, admin, targetId } = options;
  if (targetId === admin.id) throw new AppError('BAD_REQUEST', CANNOT_RESET_OWN);
  const target = await queries.findInstitutionMember(db, admin.institutionId, targetId);
  if (!target || !needsSecondFactor(target.role)) throw new AppError('NOT_FOUND', STAFF_NOT_FOUND);
  await writeTransaction(db, (trx) => removeSecondFactor(trx, options.actor, target));
  return {
    success: true as const,
    message: `The second factor of ${target.email} was reset. They set up a new one at their next sign-in.`,
  };
}

/**
 * The one way a second factor is reset: the app, the recovery codes and the passkeys go, every
 * session ends, and the reset is recorded and told to the owner. In the caller's transaction.
 */
async function removeSecondFactor(
  trx: Executor,
  actor: AuditActor,
  target: { id: number; email: string },
  by?: string,
) {
  await queries.deleteSecondFactors(trx, target.id);
  await deleteSessionsOfUser(trx, target.id);
  await recordSignInChange(trx, actor, {
    action: 'staff.second_factor_reset',
    subject: { type: 'user', id: target.id },
    detail: { email: target.email, ...(by ? { by } : {}) },
    summary: by
      ? /*i18n*/ {
          id: 'mail.sign-in-change.second-factor-reset-by',
          message: 'The second factor of your staff account was reset by {by}',
        }
      : /*i18n*/ {
          id: 'mail.sign-in-change.second-factor-reset',
          message: 'The second factor of your staff account was reset by an administrator',
        },
    summaryValues: { by },
    tell: [target.email],
  });
}

/**
 * For when no admin of the institution can sign in: an operator resets a staff member's second
 * factor from the command line. Recorded in the institution's audit log as the operator's act.
 */
export async function resetSecondFactorByOperator(db: Kysely<Database>, email: string) {
  const target = await queries.findStaffByEmail(db, email);
  if (!target || target.institution_id === null || !needsSecondFactor(target.role))
    throw new AppError('NOT_FOUND', `No staff member of an institution with the address ${email}`);
  const actor: AuditActor = {
    institutionId: target.institution_id,
    userId: null,
    email: null,
    address: null,
  };
  await writeTransaction(db, (trx) => removeSecondFactor(trx, actor, target, 'an operator'));
  return { id: target.id, email: target.email };
}
