import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { emailDomain } from '../../../common/institution-email';
import { can, roleName } from '../../../common/roles';
import type { SsoError } from '../../../common/schemas/sso';
import { runInTransaction } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { createSession, deleteSession, type SessionUser, userHasSecondFactor } from '../../lib/sessions';
import { MINUTE, now } from '../../lib/time';
import * as authQueries from '../auth/queries';
import { insertStudentAccount } from '../auth/service';
import { promoteProvenSubmissions } from '../surveys/service';
import { institutionOfDomain, recordProof } from '../verify/queries';
import {
  authorizationUrl,
  discoverProvider,
  exchangeCode,
  isNetworkFailure,
  newSignInChecks,
  type ProvenIdentity,
} from './provider';
import * as queries from './queries';
import { readInstitutionSso, storedDomains } from './settings';

/** How long the browser has to come back from the provider. */
const ATTEMPT_LIFETIME = 10 * MINUTE;
/** Stored for an account made by single sign-on: no password ever matches it. */
const NO_PASSWORD = '!sso';

/** A sign-in through the institution that did not work, with the reason the login screen explains. */
export class SsoFailure extends Error {
  constructor(
    readonly reason: SsoError,
    /** What the provider or the checks said, for the server log (never shown to the visitor). */
    readonly detail?: string,
    /** Where the sign-in was going, when known: the login screen keeps it for the next try. */
    readonly next?: string | null,
  ) {
    super(`single sign-on failed: ${reason}`);
  }
}

function summarise(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 300) : 'unknown error';
}

function hashState(state: string): string {
  return crypto.createHash('sha256').update(state).digest('hex');
}

/** The start address the login screen sends the browser to, for an address of an institution with single sign-on. */
export async function discoverSso(db: Kysely<Database>, email: string) {
  const domain = emailDomain(email);
  const owner = await institutionOfDomain(db, domain);
  if (!owner) return { success: true as const, sso: null };
  const row = await queries.ssoSettingsRow(db, owner.id);
  if (!row || !storedDomains(row).includes(domain)) return { success: true as const, sso: null };
  return {
    success: true as const,
    sso: { institution_name: row.institution_name, start_url: `/api/sso/start/?institution=${owner.id}` },
  };
}

/**
 * Opens a sign-in: keeps the state (as a hash), the nonce and the PKCE verifier in the database
 * for ten minutes, so the callback can land on any instance, and returns the provider's
 * authorization address to send the browser to.
 */
export async function startSsoSignIn(options: {
  db: Kysely<Database>;
  sealKey: Buffer;
  institutionId: number;
  /** Already checked to stay on this site. */
  next: string | null;
  redirectUri: string;
}): Promise<URL> {
  const { db, institutionId } = options;
  const sso = await readInstitutionSso(db, institutionId, options.sealKey);
  if (!sso) throw new SsoFailure('failed');
  const config = await providerConfig(sso.client);
  const checks = newSignInChecks();
  const at = now();
  await queries.deleteExpiredAttempts(db, at);
  await queries.insertAttempt(db, {
    state_hash: hashState(checks.state),
    institution_id: institutionId,
    nonce: checks.nonce,
    code_verifier: checks.codeVerifier,
    next_path: options.next,
    expires_at: at + ATTEMPT_LIFETIME,
  });
  return authorizationUrl(config, { redirectUri: options.redirectUri, checks });
}

async function providerConfig(client: Parameters<typeof discoverProvider>[0]) {
  try {
    return await discoverProvider(client);
  } catch (error) {
    throw new SsoFailure(isNetworkFailure(error) ? 'unreachable' : 'failed', summarise(error));
  }
}

interface SsoSignedIn {
  user: SessionUser;
  sessionId: string;
  sessionIdHash: string;
  /** Where the browser goes now. */
  destination: string;
}

/** The provider sending the browser back, and who the browser is. */
interface SsoCallback {
  db: Kysely<Database>;
  sealKey: Buffer;
  callbackUrl: URL;
  state: string | undefined;
  visitorHash: string;
  previousSessionIdHash: string | undefined;
}

/**
 * Completes a sign-in when the provider sends the browser back. The attempt is taken out of the
 * database first, so its state works once whatever happens next. The address must be one of the
 * institution's single sign-on domains and not refused by the provider as unverified; it is then
 * proven (design section 8). Staff keep their account and role, and need no second factor of
 * ours (design section 11: the institution's sign-in stands in for it); students sign in, and an
 * address with no account becomes a student of the institution.
 */
export async function completeSsoSignIn(options: SsoCallback): Promise<SsoSignedIn> {
  const { db, state } = options;
  if (!state) throw new SsoFailure('expired');
  const at = now();
  const attempt = await queries.takeAttempt(db, hashState(state));
  if (!attempt || attempt.expires_at < at) throw new SsoFailure('expired');
  try {
    return await signInWithAttempt({ ...options, state }, attempt, at);
  } catch (error) {
    if (!(error instanceof SsoFailure)) throw error;
    throw new SsoFailure(error.reason, error.detail, attempt.next_path);
  }
}

/** The rest of completeSsoSignIn, once the attempt is taken. */
async function signInWithAttempt(
  options: SsoCallback & { state: string },
  attempt: queries.SsoAttempt,
  at: number,
): Promise<SsoSignedIn> {
  const { db } = options;
  const sso = await readInstitutionSso(db, attempt.institution_id, options.sealKey);
  if (!sso) throw new SsoFailure('failed');
  const config = await providerConfig(sso.client);
  let identity: ProvenIdentity;
  try {
    identity = await exchangeCode(config, options.callbackUrl, {
      state: options.state,
      nonce: attempt.nonce,
      codeVerifier: attempt.code_verifier,
    });
  } catch (error) {
    throw new SsoFailure(isNetworkFailure(error) ? 'unreachable' : 'failed', summarise(error));
  }
  const email = identity.email;
  if (!email || identity.emailVerified === false)
    throw new SsoFailure(
      'failed',
      email ? 'the provider says the address is not verified' : 'no email claim',
    );
  if (!sso.domains.includes(emailDomain(email))) throw new SsoFailure('domain');

  const userId = await runInTransaction(db, async (trx, hooks) => {
    const existing = await authQueries.findUserByEmail(trx, email);
    let id: number;
    if (existing) {
      if (
        existing.institution_id !== sso.institutionId ||
        existing.removed_at !== null ||
        existing.role === 'superuser'
      )
        return null;
      id = existing.id;
    } else {
      await authQueries.deletePendingRegistrationsOf(trx, email);
      id = await insertStudentAccount(trx, hooks, {
        institutionId: sso.institutionId,
        email,
        name: identity.name ?? email.slice(0, email.lastIndexOf('@')),
        passwordHash: NO_PASSWORD,
      });
    }
    if (!existing || existing.role === 'student') {
      // The provider proved the address for this browser: answers it sent in that name count now.
      await recordProof(trx, { visitorHash: options.visitorHash, email, at });
      await promoteProvenSubmissions(trx, hooks, { visitorHash: options.visitorHash, email, at });
    }
    return id;
  });
  if (userId === null) throw new SsoFailure('account');

  if (options.previousSessionIdHash !== undefined) await deleteSession(db, options.previousSessionIdHash);
  const { sessionId, idHash } = await createSession(db, userId, 'sso');
  const account = await authQueries.findUserByEmail(db, email);
  if (!account) throw new SsoFailure('failed');
  const user: SessionUser = {
    id: account.id,
    email: account.email,
    name: account.name,
    role: account.role,
    institutionId: account.institution_id,
    institutionName: account.institution_name,
    signInMethod: 'sso',
    hasSecondFactor: await userHasSecondFactor(db, account.id),
  };
  const home = can(roleName(user.role), 'dashboard') ? '/dashboard/' : '/survey/';
  return { user, sessionId, sessionIdHash: idHash, destination: attempt.next_path ?? home };
}
