import type { Kysely } from 'kysely';
import { roleName } from '../../../common/roles';
import type { CurrentUser } from '../../../common/schemas/auth';
import type { LoginLimits } from '../../config';
import type { Executor } from '../../db/executor';
import { type CommitHooks, writeTransaction } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { AppError } from '../../lib/errors';
import { secondFactorStep } from '../../lib/guards';
import { translate } from '../../lib/i18n';
import { countHit } from '../../lib/limits';
import { mailLink } from '../../lib/mail/links';
import { enqueueMail } from '../../lib/mail/outbox';
import { hashPassword, passwordProblem, verifyPassword } from '../../lib/passwords';
import { createSession, deleteSession, type SessionUser, userHasSecondFactor } from '../../lib/sessions';
import { DAY, now } from '../../lib/time';
import { LIMITS } from '../../limit-table';
import { recordStudentJoined } from '../dashboard';
import { requireInstitutionEmail } from '../institutions';
import { ADDRESS_UNCONFIRMED_MESSAGE, passwordOpensPendingRegistration } from '../unconfirmed-address';
import { type CodeContext, issueCode } from '../verify';
import { admitLoginAttempt, forgetClientFailures, type LoginClient } from './lockout';
import * as queries from './queries';

export const INVALID_LOGIN = 'Invalid email or password';
const EMAIL_TAKEN = 'An account with this email already exists. Try logging in instead.';
/** One answer for every registration, whether or not the address has an account (design section 8). */
export const REGISTRATION_STARTED = (email: string) =>
  `Almost done: we sent a code to ${email}. Enter it to confirm your address, then log in.`;
/** An unproven registration lapses after this; it never keeps the address from its owner. */
const PENDING_REGISTRATION_LIFETIME = DAY;

export function toCurrentUser(user: SessionUser): CurrentUser {
  const step = secondFactorStep(user);
  return {
    ...(step ? { second_factor: step } : {}),
    is_authenticated: true,
    is_superuser: user.role === 'superuser',
    is_institution_admin: user.role === 'institution_admin',
    email: user.email,
    name: user.name,
    institution_name: user.institutionName,
    time_zone: user.institutionTimeZone,
    language: user.language,
    role: roleName(user.role),
  };
}

/**
 * Checks credentials. Unknown email and wrong password fail identically (same message, same
 * argon2 work). Failures slow further attempts without ever locking the owner out (lockout.ts).
 */
/** Why a password sign-in with this address is refused whatever the password, or null (see sso). */
export type PasswordRefusal = (db: Executor, email: string) => Promise<string | null>;

export async function authenticate(options: {
  db: Executor;
  passwordRefusal: PasswordRefusal;
  email: string;
  password: string;
  limits: LoginLimits;
  client: LoginClient;
}): Promise<SessionUser> {
  const { db, email, password, limits, client } = options;
  await admitLoginAttempt(db, email, client, limits);
  const user = await queries.findUserByEmail(db, email);
  // Without an account, the password is checked against the address's waiting registration (or
  // the decoy): one hash either way. Right for it, the answer says the address waits for its code.
  const valid = user ? await verifyPassword(user.password_hash, password) : false;
  const unconfirmed = user ? null : await passwordOpensPendingRegistration(db, email, password);
  // Every refusal below is the same whether or not the password was right: a superuser's or a
  // student's right password (where students sign in with their institution) tells nothing more
  // than a wrong one, and neither does a removed member's.
  const refusal = await options.passwordRefusal(db, email);
  const staffPastRefusal =
    user !== undefined && user.removed_at === null && user.role !== 'student' && user.role !== 'superuser';
  if (refusal && !(valid && staffPastRefusal)) throw new AppError('FORBIDDEN', refusal);
  if (unconfirmed) throw new AppError('ADDRESS_UNCONFIRMED', ADDRESS_UNCONFIRMED_MESSAGE);
  if (!user || !valid || user.removed_at !== null || user.role === 'superuser')
    throw new AppError('UNAUTHENTICATED', INVALID_LOGIN);
  await forgetClientFailures(db, email, client);
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    institutionId: user.institution_id,
    institutionName: user.institution_name,
    institutionTimeZone: user.institution_time_zone,
    language: user.language,
    signInMethod: 'password',
    hasSecondFactor: await userHasSecondFactor(db, user.id),
  };
}

/**
 * Stores a student's account, attaches the answers they already gave through a shared link, and
 * counts them on the dashboard from now on. Call inside a transaction; returns the user id.
 */
export async function insertStudentAccount(
  trx: Executor,
  hooks: CommitHooks,
  student: {
    institutionId: number;
    email: string;
    name: string;
    passwordHash: string;
    /** The language its registration was asked in, if it was. */
    language?: string | null;
    /** When the account is recorded; now unless an import or a test dates it. */
    joinedAt?: number;
  },
): Promise<number> {
  const { institutionId, email } = student;
  // One clock reading: the dashboard counts the student from the moment the account records,
  // as a rebuild from the users table does (two readings could even fall in different months).
  const joinedAt = student.joinedAt ?? now();
  const userId = await queries.insertUser(trx, {
    institution_id: institutionId,
    email,
    name: student.name,
    password_hash: student.passwordHash,
    role: 'student',
    created_at: joinedAt,
    language: student.language ?? null,
  });
  await queries.linkRespondentToUser(trx, institutionId, email, { id: userId, name: student.name });
  await recordStudentJoined(trx, hooks, { institutionId, email, joinedAt });
  return userId;
}

const ACCOUNT_EXISTS_SUBJECT = /*i18n*/ {
  id: 'mail.account-exists.subject',
  message: 'Your {brand} Health account',
};
const ACCOUNT_EXISTS_BODY = /*i18n*/ {
  id: 'mail.account-exists.body',
  message:
    'Someone asked to register a new account with this email address, which already has one.\nIf that was you, log in instead at {link}.\nIf it was not you, you can ignore this mail: nothing has changed.',
};

/** Told to an address that already has an account when someone registers it again. */
function accountExistsMail(brandName: string, email: string, linkBase: string, language: string | null) {
  const values = { brand: brandName, link: mailLink(linkBase, '/login/') };
  return {
    to: email,
    subject: translate(language, ACCOUNT_EXISTS_SUBJECT, values),
    text: translate(language, ACCOUNT_EXISTS_BODY, values),
  };
}

/**
 * "This address already has an account" mails an address receives a day, whoever registers it:
 * one tells the owner, a few more cover a forgotten one; past that nothing is sent, and the
 * answer stays the same, so a stranger registering the address again and again cannot flood it.
 */
export const ACCOUNT_EXISTS_MAILS_PER_DAY = LIMITS.accountExistsMails.max;

async function mayMailAccountExists(trx: Executor, email: string, at: number): Promise<boolean> {
  const count = await countHit(trx, `mail:account-exists:${email}`, LIMITS.accountExistsMails.windowMs, at);
  return count.hits <= ACCOUNT_EXISTS_MAILS_PER_DAY;
}

/**
 * Starts a student's registration. Nothing can sign in yet: the registration waits, for a day at
 * most, for this browser to prove the address with the code it is sent. Several may wait for one
 * address (a stranger's first); the one whose browser proves it becomes the account. An address
 * that has an account gets a mail saying so, and the caller the same answer as everyone else.
 */
export async function registerStudent(options: {
  db: Kysely<Database>;
  context: CodeContext;
  linkBase: string;
  visitorHash: string;
  clientAddress: string;
  /** The language of the request: the new student's until they choose another. */
  language: string;
  institutionName: string;
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
}): Promise<{ message: string }> {
  const { db, email, password, visitorHash, clientAddress } = options;
  if (password !== options.confirmPassword) throw new AppError('BAD_REQUEST', 'Passwords do not match');
  const institution = await queries.findInstitutionByName(db, options.institutionName);
  if (!institution)
    throw new AppError('BAD_REQUEST', 'Institution not found. Choose your institution from the list.');
  await requireInstitutionEmail(db, institution, email);
  const weakness = passwordProblem(password, {
    email,
    name: options.name,
    institutionName: institution.name,
    // The product's name, which a password must not lean on either.
    brandName: options.context.brandName,
  });
  if (weakness) throw new AppError('BAD_REQUEST', weakness);
  // Hashed whether or not the address has an account: both answers take the same time.
  const passwordHash = await hashPassword(password);
  const at = now();
  await writeTransaction(db, async (trx) => {
    const account = await queries.findUserByEmail(trx, email);
    if (account) {
      // To the account's owner, in their language: not the language of whoever registered it.
      if (await mayMailAccountExists(trx, email, at)) {
        const mail = accountExistsMail(options.context.brandName, email, options.linkBase, account.language);
        await enqueueMail(trx, mail, at);
      }
      return;
    }
    await queries.deleteLapsedRegistrations(trx, at - PENDING_REGISTRATION_LIFETIME);
    await queries.insertPendingRegistration(trx, {
      institution_id: institution.id,
      email,
      name: options.name,
      password_hash: passwordHash,
      visitor_hash: visitorHash,
      created_at: at,
      language: options.language,
    });
    await issueCode(trx, options.context, {
      email,
      visitorHash,
      clientAddress,
      at,
      purpose: 'registration',
      language: options.language,
    });
  });
  return { message: REGISTRATION_STARTED(email) };
}

/**
 * This browser has just proven the address: its newest registration of it (if one is still
 * waiting) becomes the account, and every other waiting registration of the address goes.
 * Returns whether an account was created. Call inside the transaction that records the proof.
 */
export async function completePendingRegistration(
  trx: Executor,
  hooks: CommitHooks,
  proof: { visitorHash: string; email: string; at: number },
): Promise<boolean> {
  const { email, at } = proof;
  const pending = await queries.newestPendingRegistration(trx, {
    ...proof,
    since: at - PENDING_REGISTRATION_LIFETIME,
  });
  if (!pending) return false;
  await queries.deletePendingRegistrationsOf(trx, email);
  if (await queries.findUserByEmail(trx, email)) return false;
  await insertStudentAccount(trx, hooks, {
    institutionId: pending.institution_id,
    email,
    name: pending.name,
    passwordHash: pending.password_hash,
    language: pending.language,
  });
  return true;
}

/** Creates an institution admin or a superuser (operators only, through the command line). */
export async function createStaffAccount(options: {
  db: Kysely<Database>;
  role: 'institution_admin' | 'superuser';
  institutionName?: string;
  name: string;
  email: string;
  password: string;
  brandName?: string;
}): Promise<{ id: number }> {
  const { db, role, email } = options;
  const weakness = passwordProblem(options.password, {
    email,
    name: options.name,
    institutionName: options.institutionName ?? null,
    ...(options.brandName ? { brandName: options.brandName } : {}),
  });
  if (weakness) throw new AppError('BAD_REQUEST', weakness);
  let institutionId: number | null = null;
  if (role === 'institution_admin') {
    const institution = await queries.findInstitutionByName(db, options.institutionName ?? '');
    if (!institution)
      throw new AppError('NOT_FOUND', `No institution named "${options.institutionName ?? ''}"`);
    institutionId = institution.id;
  }
  if (await queries.findUserByEmail(db, email)) throw new AppError('CONFLICT', EMAIL_TAKEN);
  const id = await queries.insertUser(db, {
    institution_id: institutionId,
    email,
    name: options.name,
    password_hash: await hashPassword(options.password),
    role,
    created_at: now(),
  });
  return { id };
}

/**
 * Logs in: checks the password (throttled as `authenticate` says), ends the session the request
 * came with, and opens a new one. A fresh id at every login: a session fixed before login is
 * worth nothing after it.
 */
export async function logIn(
  options: Parameters<typeof authenticate>[0] & { previousSessionIdHash?: string },
) {
  const { previousSessionIdHash, ...credentials } = options;
  const user = await authenticate(credentials);
  if (previousSessionIdHash !== undefined) await deleteSession(options.db, previousSessionIdHash);
  const { sessionId, idHash } = await createSession(options.db, user.id);
  return { user, sessionId, sessionIdHash: idHash };
}
