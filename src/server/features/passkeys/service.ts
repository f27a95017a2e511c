import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import { writeTransaction } from '../../db/transaction-runner';
import type { Database, PasskeyPurpose } from '../../db/types';
import { recordAuditIf, selfActor } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { isSingleFactor, needsSecondFactor, secondFactorStep, withSecondFactor } from '../../lib/guards';
import {
  createSession,
  deleteSession,
  findSession,
  markFactorProven,
  type Session,
  strengthenSession,
} from '../../lib/sessions';
import { requireFreshFactor } from '../../lib/step-up';
import { MINUTE, now } from '../../lib/time';
import { issueRecoveryCodes, recordSignInChange } from '../second-factor';
import * as queries from './queries';

/** Who the passkeys belong to, as browsers check it: the site's host name and origin. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

const CHALLENGE_LIFETIME = 5 * MINUTE;

export const PASSKEY_REFUSED = 'This passkey could not be checked. Try again, or sign in another way.';
export const NO_PASSKEY = 'There is no passkey for this account yet.';
export const STAFF_ONLY = 'Passkeys are for staff accounts.';
export const ALREADY_SIGNED_IN = 'You are already signed in. Log out first to sign in as someone else.';
export const PASSKEY_NOT_FOUND = 'Passkey not found';
/** What a passkey is called when its owner gave it no name. */
export const DEFAULT_PASSKEY_NAME = 'Passkey';

export function requireStaffAccount(session: Session) {
  if (!needsSecondFactor(session.user.role)) throw new AppError('FORBIDDEN', STAFF_ONLY);
}

/**
 * A passkey may be added by a complete sign-in, or as the first second factor of a password
 * sign-in (there is nothing else to ask for); never by a password alone when a factor exists.
 */
function requireMayAddPasskey(session: Session) {
  requireStaffAccount(session);
  const step = secondFactorStep(session.user);
  if (step === 'verify')
    throw new AppError('SECOND_FACTOR_REQUIRED', 'Confirm your sign-in with your second factor first.', {
      second_factor: 'verify',
    });
  // Beside the factors a complete sign-in has, a new passkey needs one of them proven afresh.
  if (step === null) requireFreshFactor(session);
}

/** A passkey signs in a visitor, or completes a password sign-in that asks for a second factor it has. */
function requireSignInPending(session: Session | null) {
  if (!session) return;
  const step = secondFactorStep(session.user);
  if (step === 'enrol') throw new AppError('CONFLICT', NO_PASSKEY);
  if (step === null) throw new AppError('CONFLICT', ALREADY_SIGNED_IN);
}

function transportsOf(stored: string): AuthenticatorTransport[] {
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed)
      ? (parsed.filter((t) => typeof t === 'string') as AuthenticatorTransport[])
      : [];
  } catch {
    return [];
  }
}

async function remember(
  db: Kysely<Database>,
  challenge: string,
  purpose: PasskeyPurpose,
  userId: number | null,
) {
  await queries.insertChallenge(db, { challenge, purpose, userId, expiresAt: now() + CHALLENGE_LIFETIME });
}

/** The library throws on any malformed or mismatched answer: all of them are the caller's. */
async function checked<T>(verify: () => Promise<T>): Promise<T> {
  return checkedOr(async () => new AppError('BAD_REQUEST', PASSKEY_REFUSED), verify);
}

async function checkedOr<T>(refuse: () => Promise<AppError>, verify: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await verify();
  } catch {
    throw await refuse();
  }
  return result;
}

export async function registrationOptions(options: {
  db: Kysely<Database>;
  rp: RelyingParty;
  session: Session;
}) {
  const { db, rp, session } = options;
  requireMayAddPasskey(session);
  const existing = await queries.passkeysOf(db, session.user.id);
  const creation = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: session.user.email,
    userDisplayName: session.user.name,
    attestationType: 'none',
    excludeCredentials: existing.map((key) => ({
      id: key.credential_id,
      transports: transportsOf(key.transports),
    })),
    // Discoverable, so the same passkey can also sign in without a password.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await remember(db, creation.challenge, 'register', session.user.id);
  return creation;
}

/**
 * Stores a new passkey; a password sign-in that had no second factor is then complete. As the
 * account's first second factor it also brings ten recovery codes (shown once), as a first app
 * does: a lost passkey then need not lock its owner out.
 */
export async function registerPasskey(options: {
  db: Kysely<Database>;
  rp: RelyingParty;
  recoveryKey: Buffer;
  session: Session;
  response: RegistrationResponseJSON;
  name: string | undefined;
  address: string;
}) {
  const { db, rp, session } = options;
  requireMayAddPasskey(session);
  const at = now();
  const result = await checked(() =>
    verifyRegistrationResponse({
      response: options.response,
      expectedChallenge: (challenge) =>
        queries.claimChallenge(db, { challenge, purpose: 'register', userId: session.user.id, at }),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    }),
  );
  if (!result.verified) throw new AppError('BAD_REQUEST', PASSKEY_REFUSED);
  const { credential } = result.registrationInfo;
  const name = options.name?.trim() || DEFAULT_PASSKEY_NAME;
  return writeTransaction(db, async (trx) => {
    if (await queries.findPasskey(trx, credential.id))
      throw new AppError('CONFLICT', 'This passkey is already registered.');
    await queries.insertPasskey(trx, {
      userId: session.user.id,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      name,
      at,
    });
    const actor = selfActor(session.user, options.address);
    if (actor)
      await recordSignInChange(trx, actor, {
        action: 'staff.passkey_add',
        subject: { type: 'user', id: session.user.id },
        detail: { name },
        summary: /*i18n*/ {
          id: 'mail.sign-in-change.passkey-added',
          message: 'A passkey ("{name}") was added to your staff account',
        },
        summaryValues: { name },
        tell: [session.user.email],
      });
    const recoveryCodes = session.user.hasSecondFactor
      ? null
      : await issueRecoveryCodes(trx, options.recoveryKey, session.user.id, at);
    const stronger = isSingleFactor(session.user.signInMethod)
      ? await strengthenSession(trx, session, withSecondFactor(session.user.signInMethod))
      : null;
    return { stronger, recoveryCodes };
  });
}

/**
 * Options for using a passkey: as the second factor of a password sign-in (this user's
 * passkeys), or to sign in with a passkey alone (any passkey the browser holds for the site).
 */
export async function authenticationOptions(options: {
  db: Kysely<Database>;
  rp: RelyingParty;
  session: Session | null;
}) {
  const { db, rp, session } = options;
  requireSignInPending(session);
  const keys = session ? await queries.passkeysOf(db, session.user.id) : [];
  if (session && keys.length === 0) throw new AppError('CONFLICT', NO_PASSKEY);
  const request = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: keys.map((key) => ({
      id: key.credential_id,
      transports: transportsOf(key.transports),
    })),
    userVerification: session ? 'preferred' : 'required',
  });
  await remember(db, request.challenge, session ? 'second_factor' : 'sign_in', session?.user.id ?? null);
  return request;
}

/**
 * Checks a passkey's answer. As a second factor it completes the password sign-in; alone, it
 * opens a session of its own, which counts as a complete sign-in: the passkey is something the
 * staff member has, unlocked by something they are or know (user verification is required).
 */
export async function authenticateWithPasskey(options: {
  db: Kysely<Database>;
  rp: RelyingParty;
  session: Session | null;
  response: AuthenticationResponseJSON;
  address: string;
}) {
  const { db, session } = options;
  requireSignInPending(session);
  const purpose: PasskeyPurpose = session ? 'second_factor' : 'sign_in';
  const key = await checkPasskey({ ...options, purpose });
  const signedInAs = session?.user.id ?? key.user_id;
  const actor = await ownerActor(db, signedInAs, options.address);
  await recordAuditIf(db, actor, {
    action: session ? 'auth.second_factor' : 'auth.sign_in',
    subject: { type: 'user', id: signedInAs },
    detail: { method: 'passkey' },
  });
  if (session) return strengthenSession(db, session, withSecondFactor(session.user.signInMethod));
  const created = await createSession(db, key.user_id, 'passkey');
  const opened = await findSession(db, created.sessionId);
  if (!opened || !needsSecondFactor(opened.user.role)) {
    await deleteSession(db, created.idHash);
    throw new AppError('BAD_REQUEST', PASSKEY_REFUSED);
  }
  return { ...created, user: opened.user };
}

async function ownerActor(db: Kysely<Database>, userId: number, address: string) {
  const owner = await queries.passkeyOwner(db, userId);
  return owner ? selfActor(owner, address) : null;
}

/**
 * Checks a passkey's answer to a challenge issued for `purpose` (and the session's user, if
 * any), and records its use. A refusal of a known passkey is recorded against its owner; an
 * unknown passkey belongs to no account, and nothing is recorded against one.
 */
async function checkPasskey(options: {
  db: Kysely<Database>;
  rp: RelyingParty;
  session: Session | null;
  response: AuthenticationResponseJSON;
  purpose: PasskeyPurpose;
  address: string;
}) {
  const { db, rp, session, response, purpose } = options;
  const key = await queries.findPasskey(db, response.id);
  if (!key || (session && key.user_id !== session.user.id))
    throw new AppError('BAD_REQUEST', PASSKEY_REFUSED);
  const refuse = async () => {
    await recordAuditIf(db, await ownerActor(db, key.user_id, options.address), {
      action: {
        sign_in: 'auth.sign_in_fail',
        second_factor: 'auth.second_factor_fail',
        step_up: 'auth.step_up_fail',
        register: 'auth.sign_in_fail',
      }[purpose],
      subject: { type: 'user', id: key.user_id },
      detail: { method: 'passkey' },
    });
    return new AppError('BAD_REQUEST', PASSKEY_REFUSED);
  };
  const at = now();
  const result = await checkedOr(refuse, () =>
    verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) =>
        queries.claimChallenge(db, { challenge, purpose, userId: session?.user.id ?? null, at }),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: key.credential_id,
        publicKey: Buffer.from(key.public_key, 'base64url'),
        counter: Number(key.counter),
        transports: transportsOf(key.transports),
      },
      requireUserVerification: purpose === 'sign_in',
    }),
  );
  if (!result.verified) throw await refuse();
  await queries.recordPasskeyUse(db, key.id, result.authenticationInfo.newCounter, at);
  return key;
}

/** Options for proving a passkey again in a complete sign-in (a step-up): this user's passkeys. */
export async function stepUpOptions(options: { db: Kysely<Database>; rp: RelyingParty; session: Session }) {
  const { db, rp, session } = options;
  requireStaffAccount(session);
  const keys = await queries.passkeysOf(db, session.user.id);
  if (keys.length === 0) throw new AppError('CONFLICT', NO_PASSKEY);
  const request = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: keys.map((key) => ({
      id: key.credential_id,
      transports: transportsOf(key.transports),
    })),
    userVerification: 'preferred',
  });
  await remember(db, request.challenge, 'step_up', session.user.id);
  return request;
}

/** A passkey proven again: for the next few minutes this session may change how the account signs in. */
export async function stepUpWithPasskey(options: {
  db: Kysely<Database>;
  rp: RelyingParty;
  session: Session;
  response: AuthenticationResponseJSON;
  address: string;
}) {
  const { db, session } = options;
  requireStaffAccount(session);
  await checkPasskey({ ...options, purpose: 'step_up' });
  await markFactorProven(db, session.idHash);
  await recordAuditIf(db, selfActor(session.user, options.address), {
    action: 'auth.step_up',
    subject: { type: 'user', id: session.user.id },
    detail: { method: 'passkey' },
  });
  return { success: true as const, message: 'Confirmed. You can make the change now.' };
}

const iso = (at: number | null) => (at === null ? null : new Date(Number(at)).toISOString());

/** The staff member's own passkeys: names and dates, never keys. */
export async function listOwnPasskeys(options: { db: Kysely<Database>; session: Session }) {
  requireStaffAccount(options.session);
  const rows = await queries.listPasskeysOf(options.db, options.session.user.id);
  return {
    success: true as const,
    passkeys: rows.map((row) => ({
      id: row.id,
      name: row.name ?? DEFAULT_PASSKEY_NAME,
      created_at: iso(row.created_at) as string,
      last_used_at: iso(row.last_used_at),
    })),
  };
}

/**
 * The owner removes one of their passkeys, with a second factor proven afresh. Removing the last
 * factor is allowed: the next sign-in then asks to set one up, as for a new member.
 */
export async function removeOwnPasskey(options: {
  db: Kysely<Database>;
  session: Session;
  passkeyId: number;
  address: string;
}) {
  const { db, session } = options;
  requireStaffAccount(session);
  requireFreshFactor(session);
  const actor = selfActor(session.user, options.address);
  await writeTransaction(db, async (trx) => {
    const removed = await queries.deletePasskeyOf(trx, session.user.id, options.passkeyId);
    if (!removed) throw new AppError('NOT_FOUND', PASSKEY_NOT_FOUND);
    const name = removed.name ?? DEFAULT_PASSKEY_NAME;
    if (actor)
      await recordSignInChange(trx, actor, {
        action: 'staff.passkey_remove',
        subject: { type: 'user', id: session.user.id },
        detail: { name },
        summary: /*i18n*/ {
          id: 'mail.sign-in-change.passkey-removed',
          message: 'A passkey ("{name}") was removed from your staff account',
        },
        summaryValues: { name },
        tell: [session.user.email],
      });
  });
  return { success: true as const, message: 'The passkey is removed.' };
}
