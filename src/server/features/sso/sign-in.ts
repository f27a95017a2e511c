import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { emailDomain } from '../../../common/institution-email';
import { can, roleName } from '../../../common/roles';
import type { SsoError } from '../../../common/schemas/sso';
import type { Executor } from '../../db/executor';
import { writeTransaction } from '../../db/transaction-runner';
import type { Database, SignInMethod, SsoLinkedBy } from '../../db/types';
import type { AuditActor } from '../../lib/audit';
import { needsSecondFactor } from '../../lib/guards';
import { createSession, deleteSession, type SessionUser, userHasSecondFactor } from '../../lib/sessions';
import { MINUTE, now } from '../../lib/time';
import type { ProvingVisitor } from '../../lib/visitor';
import { deletePendingRegistrationsOf, findUserByEmail, findUserById, insertStudentAccount } from '../auth';
import { recordSignInChange } from '../second-factor';
import { institutionOfDomain, recordProof } from '../verify';
import { takeLinkGrant } from './link-grants';
import {
  authorizationUrl,
  discoverProvider,
  exchangeCode,
  isNetworkFailure,
  newSignInChecks,
  type ProvenIdentity,
} from './provider';
import type { ProviderNetworkPolicy } from './provider-network';
import * as queries from './queries';
import { readInstitutionSso, storedDomains } from './settings';

/** How long the browser has to come back from the provider. */
export const ATTEMPT_LIFETIME = 10 * MINUTE;
/** Stored for an account made by single sign-on: no password ever matches it. */
export const NO_PASSWORD = '!sso';

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

/** The institution has no single sign-on (any more): nothing to sign in or link with. */
export class SsoNotSetUp extends SsoFailure {
  constructor() {
    super('failed', 'single sign-on is not set up');
  }
}

function summarise(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 300) : 'unknown error';
}

function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

/**
 * The secret a browser keeps (in a short-lived HttpOnly cookie) while it is away at the provider:
 * its hash is stored with the attempt, and only the browser holding it may finish the sign-in. A
 * callback address sent to someone else signs nobody in.
 */
export function newBrowserBinding(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: sha256(`sso-browser:${token}`) };
}

function browserMatches(attempt: queries.SsoAttempt, token: string | undefined): boolean {
  if (!attempt.browser_hash || !token || token.length > 100) return false;
  const given = Buffer.from(sha256(`sso-browser:${token}`), 'hex');
  return crypto.timingSafeEqual(given, Buffer.from(attempt.browser_hash, 'hex'));
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
 * Opens a sign-in: keeps the state (as a hash), the nonce, the PKCE verifier and the hash of the
 * browser's binding in the database for ten minutes, so the callback can land on any instance,
 * and returns the provider's authorization address to send the browser to. With `linkUserId`, the
 * signed-in account asks to link its institution identity instead of signing in.
 */
export async function startSsoSignIn(options: {
  db: Kysely<Database>;
  sealKey: Buffer;
  network: ProviderNetworkPolicy;
  institutionId: number;
  /** Already checked to stay on this site. */
  next: string | null;
  redirectUri: string;
  browserHash: string;
  linkUserId?: number;
}): Promise<URL> {
  const { db, institutionId } = options;
  const sso = await readInstitutionSso(db, institutionId, options.sealKey);
  if (!sso) throw new SsoNotSetUp();
  const config = await providerConfig(sso.client, options.network);
  const checks = newSignInChecks();
  const at = now();
  await queries.deleteExpiredAttempts(db, at);
  await queries.insertAttempt(db, {
    state_hash: sha256(checks.state),
    institution_id: institutionId,
    nonce: checks.nonce,
    code_verifier: checks.codeVerifier,
    next_path: options.next,
    browser_hash: options.browserHash,
    link_user_id: options.linkUserId ?? null,
    expires_at: at + ATTEMPT_LIFETIME,
  });
  return authorizationUrl(config, { redirectUri: options.redirectUri, checks });
}

/**
 * The provider's configuration, or one failure for every way of not getting it: nothing answers,
 * a closed port, an address the server does not call, a document that is not a provider's. Told
 * apart, they would let whoever sets the issuer map hosts and ports the server can reach; the
 * server log keeps the detail.
 */
async function providerConfig(
  client: Parameters<typeof discoverProvider>[0],
  network: ProviderNetworkPolicy,
) {
  try {
    return await discoverProvider(client, network);
  } catch (error) {
    throw new SsoFailure('unreachable', summarise(error));
  }
}

type SsoCompleted =
  | {
      kind: 'signed-in';
      user: SessionUser;
      sessionId: string;
      sessionIdHash: string;
      /** Where the browser goes now. */
      destination: string;
    }
  | { kind: 'linked'; destination: string };

/** The provider sending the browser back, and who the browser is. */
interface SsoCallback {
  db: Kysely<Database>;
  sealKey: Buffer;
  network: ProviderNetworkPolicy;
  callbackUrl: URL;
  state: string | undefined;
  /** The binding cookie's value, when the browser has one. */
  browserToken: string | undefined;
  visitor: ProvingVisitor;
  /** The session the browser is signed in with, if any. */
  current: { idHash: string; userId: number } | undefined;
}

/**
 * Completes a sign-in when the provider sends the browser back. The attempt is taken out of the
 * database first, so its state works once whatever happens next, and only the browser that
 * started it may finish it.
 */
export async function completeSsoSignIn(options: SsoCallback): Promise<SsoCompleted> {
  const { db, state } = options;
  if (!state) throw new SsoFailure('expired');
  const at = now();
  const attempt = await queries.takeAttempt(db, sha256(state));
  if (!attempt || attempt.expires_at < at) throw new SsoFailure('expired');
  if (!browserMatches(attempt, options.browserToken))
    throw new SsoFailure('browser', 'the callback came to a browser that did not start the sign-in');
  try {
    return await signInWithAttempt({ ...options, state }, attempt, at);
  } catch (error) {
    if (!(error instanceof SsoFailure)) throw error;
    throw new SsoFailure(error.reason, error.detail, attempt.next_path);
  }
}

/** Who a sign-in brings in: an account, and how this sign-in links the identity, if it does. */
type Resolved = { userId: number | null; newLink: SsoLinkedBy | null };

/**
 * The account a proven identity signs in to. A linked identity (by the provider's issuer and
 * subject) finds its account whatever address it now claims. An unlinked one may link to an
 * account by its address, only when the provider asserts the address verified (or the
 * institution made it authoritative for its domains), and only to a student's account or a new
 * one: staff link from their own signed-in browser, or on the one sign-in an admin allowed to link
 * (sso_link_grants, link-grants.ts), never by the address alone.
 */
async function resolveAccount(
  trx: Executor,
  sso: NonNullable<Awaited<ReturnType<typeof readInstitutionSso>>>,
  identity: ProvenIdentity,
  at: number,
): Promise<Resolved & { email: string }> {
  const linkedId = await queries.linkedUserId(trx, identity);
  if (linkedId !== null) {
    const account = await findUserById(trx, linkedId);
    if (!account || !isSignInAccount(account, sso.institutionId)) throw new SsoFailure('account');
    return { userId: account.id, email: account.email, newLink: null };
  }
  const email = identity.email;
  if (!email) throw new SsoFailure('failed', 'no email claim');
  if (identity.emailVerified === false)
    throw new SsoFailure('unverified', 'the provider says the address is not verified');
  if (!sso.domains.includes(emailDomain(email))) throw new SsoFailure('domain');
  if (identity.emailVerified !== true && !sso.emailAuthoritative)
    throw new SsoFailure('unverified', 'the provider does not say the address is verified');
  const existing = await findUserByEmail(trx, email);
  if (existing) {
    if (!isSignInAccount(existing, sso.institutionId)) throw new SsoFailure('account');
    // Linked once, an account is found by its identity: another subject claiming its address is not it.
    if (await queries.hasIdentityAt(trx, existing.id, identity.issuer))
      throw new SsoFailure('account', 'the account is linked to another identity at this provider');
    if (existing.role === 'student') return { userId: existing.id, email, newLink: 'address' };
    // Staff link from their own signed-in session, or on the sign-in an admin allowed to link.
    if (!(await takeLinkGrant(trx, existing.id, at)))
      throw new SsoFailure('unlinked', 'staff link from a signed-in session or with an admin permission');
    return { userId: existing.id, email, newLink: 'admin_grant' };
  }
  return { userId: null, email, newLink: 'address' };
}

/** The member whose sign-in linked, as the audit log names who acted. */
/** A new way into the account: recorded, and told to its owner by mail (as any sign-in change). */
async function recordIdentityLinked(
  trx: Executor,
  owner: AuditActor,
  identity: ProvenIdentity,
  linkedBy: 'session' | 'admin_grant',
) {
  await recordSignInChange(trx, owner, {
    action: 'sso.link',
    subject: { type: 'user', id: owner.userId as number },
    detail: { issuer: identity.issuer, linked_by: linkedBy },
    summary: /*i18n*/ {
      id: 'mail.sign-in-change.sso-linked',
      message: "Your account was linked to your institution's sign-in",
    },
    tell: owner.email ? [owner.email] : [],
  });
}

async function memberActor(trx: Executor, userId: number, institutionId: number): Promise<AuditActor> {
  const account = await findUserById(trx, userId);
  return { institutionId, userId, email: account?.email ?? null, address: null };
}

function isSignInAccount(
  account: { institution_id: number | null; removed_at: number | null; role: string },
  institutionId: number,
): boolean {
  return (
    account.institution_id === institutionId && account.removed_at === null && account.role !== 'superuser'
  );
}

/** The rest of completeSsoSignIn, once the attempt is taken. */
async function signInWithAttempt(
  options: SsoCallback & { state: string },
  attempt: queries.SsoAttempt,
  at: number,
): Promise<SsoCompleted> {
  const { db } = options;
  const sso = await readInstitutionSso(db, attempt.institution_id, options.sealKey);
  if (!sso) throw new SsoFailure('failed');
  const config = await providerConfig(sso.client, options.network);
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
  if (attempt.link_user_id !== null) return linkToSignedInAccount(options, attempt, sso, identity, at);

  const userId = await writeTransaction(db, async (trx, hooks) => {
    const resolved = await resolveAccount(trx, sso, identity, at);
    const { email } = resolved;
    let id = resolved.userId;
    if (id === null) {
      await deletePendingRegistrationsOf(trx, email);
      id = await insertStudentAccount(trx, hooks, {
        institutionId: sso.institutionId,
        email,
        name: identity.name ?? email.slice(0, email.lastIndexOf('@')),
        passwordHash: NO_PASSWORD,
      });
    }
    const accountId = id;
    // A browser signed in as someone else is never switched to this account unasked.
    if (options.current && options.current.userId !== accountId)
      throw new SsoFailure('signed_in', 'the browser is signed in as another account');
    if (resolved.newLink)
      await queries.linkIdentity(trx, { ...identity, userId: accountId, linkedBy: resolved.newLink, at });
    if (resolved.newLink === 'admin_grant')
      await recordIdentityLinked(
        trx,
        await memberActor(trx, accountId, sso.institutionId),
        identity,
        'admin_grant',
      );
    const account = await findUserById(trx, accountId);
    if (account?.role === 'student') {
      // The provider proved the address for this browser, which takes on a new visitor id with the
      // proof. Answers sent unproven before it are not promoted: a redirect carries no tab's
      // secrets (surveys/proof-tokens.ts), and the visitor id alone may be one planted in it.
      await recordProof(trx, { visitorHash: options.visitor.nextHash, email, at });
    }
    return accountId;
  });
  options.visitor.adoptNext();

  const account = await findUserById(db, userId);
  if (!account) throw new SsoFailure('failed');
  const method: SignInMethod =
    needsSecondFactor(account.role) && identity.multiFactor && sso.providerMfaCounts
      ? 'sso_with_provider_mfa'
      : 'sso';
  if (options.current !== undefined) await deleteSession(db, options.current.idHash);
  const { sessionId, idHash } = await createSession(db, userId, method);
  const user: SessionUser = {
    id: account.id,
    email: account.email,
    name: account.name,
    role: account.role,
    institutionId: account.institution_id,
    institutionName: account.institution_name,
    institutionTimeZone: account.institution_time_zone,
    language: account.language,
    signInMethod: method,
    hasSecondFactor: await userHasSecondFactor(db, account.id),
  };
  const home = can(roleName(user.role), 'dashboard') ? '/dashboard/' : '/survey/';
  return {
    kind: 'signed-in',
    user,
    sessionId,
    sessionIdHash: idHash,
    destination: attempt.next_path ?? home,
  };
}

/**
 * Links the identity to the account that started the attempt from its signed-in browser (which
 * must still be signed in as it). The identity may be linked to one account only.
 */
async function linkToSignedInAccount(
  options: SsoCallback,
  attempt: queries.SsoAttempt,
  sso: NonNullable<Awaited<ReturnType<typeof readInstitutionSso>>>,
  identity: ProvenIdentity,
  at: number,
): Promise<SsoCompleted> {
  const userId = attempt.link_user_id;
  if (userId === null || options.current?.userId !== userId)
    throw new SsoFailure('signed_in', 'the browser is no longer signed in as the account that asked to link');
  await writeTransaction(options.db, async (trx) => {
    const account = await findUserById(trx, userId);
    if (!account || !isSignInAccount(account, sso.institutionId)) throw new SsoFailure('account');
    const linkedId = await queries.linkedUserId(trx, identity);
    if (linkedId === userId) return;
    if (linkedId !== null) throw new SsoFailure('account', 'the identity is linked to another account');
    await queries.linkIdentity(trx, { ...identity, userId, linkedBy: 'session', at });
    await recordIdentityLinked(trx, await memberActor(trx, userId, sso.institutionId), identity, 'session');
  });
  return { kind: 'linked', destination: attempt.next_path ?? '/' };
}
