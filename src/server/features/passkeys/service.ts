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
import type { Database, PasskeyPurpose } from '../../db/types';
import { AppError } from '../../lib/errors';
import { isSingleFactor, needsSecondFactor, secondFactorStep, withSecondFactor } from '../../lib/guards';
import {
  createSession,
  deleteSession,
  findSession,
  type Session,
  strengthenSession,
} from '../../lib/sessions';
import { MINUTE, now } from '../../lib/time';
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

export function requireStaffAccount(session: Session) {
  if (!needsSecondFactor(session.user.role)) throw new AppError('FORBIDDEN', STAFF_ONLY);
}

/**
 * A passkey may be added by a complete sign-in, or as the first second factor of a password
 * sign-in (there is nothing else to ask for); never by a password alone when a factor exists.
 */
function requireMayAddPasskey(session: Session) {
  requireStaffAccount(session);
  if (secondFactorStep(session.user) === 'verify')
    throw new AppError('SECOND_FACTOR_REQUIRED', 'Confirm your sign-in with your second factor first.', {
      second_factor: 'verify',
    });
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
  try {
    return await verify();
  } catch {
    throw new AppError('BAD_REQUEST', PASSKEY_REFUSED);
  }
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

/** Stores a new passkey; a password sign-in that had no second factor is then complete. */
export async function registerPasskey(options: {
  db: Kysely<Database>;
  rp: RelyingParty;
  session: Session;
  response: RegistrationResponseJSON;
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
  return db.transaction().execute(async (trx) => {
    if (await queries.findPasskey(trx, credential.id))
      throw new AppError('CONFLICT', 'This passkey is already registered.');
    await queries.insertPasskey(trx, {
      userId: session.user.id,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      at,
    });
    if (!isSingleFactor(session.user.signInMethod)) return null;
    return strengthenSession(trx, session, withSecondFactor(session.user.signInMethod));
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
}) {
  const { db, rp, session, response } = options;
  requireSignInPending(session);
  const key = await queries.findPasskey(db, response.id);
  if (!key || (session && key.user_id !== session.user.id))
    throw new AppError('BAD_REQUEST', PASSKEY_REFUSED);
  const purpose: PasskeyPurpose = session ? 'second_factor' : 'sign_in';
  const at = now();
  const result = await checked(() =>
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
  if (!result.verified) throw new AppError('BAD_REQUEST', PASSKEY_REFUSED);
  await queries.recordPasskeyUse(db, key.id, result.authenticationInfo.newCounter, at);
  if (session) return strengthenSession(db, session, withSecondFactor(session.user.signInMethod));
  const created = await createSession(db, key.user_id, 'passkey');
  const opened = await findSession(db, created.sessionId);
  if (!opened || !needsSecondFactor(opened.user.role)) {
    await deleteSession(db, created.idHash);
    throw new AppError('BAD_REQUEST', PASSKEY_REFUSED);
  }
  return { ...created, user: opened.user };
}
