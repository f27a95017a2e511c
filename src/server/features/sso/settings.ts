import net from 'node:net';
import { z } from 'zod/mini';
import { emailDomain } from '../../../common/institution-email';
import type {
  SsoConnectionTestRequest,
  SsoConnectionTestResponse,
  SsoSettingsRequest,
  SsoSettingsResponse,
} from '../../../common/schemas/sso';
import type { Executor } from '../../db/executor';
import { parseStoredJson } from '../../db/stored-json';
import { type AuditActor, recordAudit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { seal, unseal } from '../../lib/sealed';
import { now } from '../../lib/time';
import { institutionDomains } from '../institutions';
import { recordSignInChange } from '../second-factor';
import { institutionOfDomain } from '../verify';
import { discoverProvider, isNetworkFailure, type ProviderClient } from './provider';
import { mayConnectTo, type ProviderNetworkPolicy } from './provider-network';
import * as queries from './queries';
import { recordTestOutcome, requireTestedProvider } from './tested-provider';

/** An institution's single sign-on as the sign-in uses it; the secret opened. */
interface InstitutionSso {
  institutionId: number;
  institutionName: string;
  client: ProviderClient;
  domains: string[];
  studentPasswordSignIn: boolean;
  /** The provider's addresses count for a first link without an `email_verified` claim. */
  emailAuthoritative: boolean;
  /** Staff whose provider asserts a multi-factor sign-in need no second factor of ours. */
  providerMfaCounts: boolean;
}

const StoredDomains = z.array(z.string());

/** The stored domains of a settings row; none when the stored value no longer reads. */
export function storedDomains(row: { domains: string }): string[] {
  return parseStoredJson(StoredDomains, row.domains) ?? [];
}

/** A stored 1 or 0 from an optional flag of a request, or the stored value when it has none. */
function flag(given: boolean | undefined, stored: number): number {
  return given === undefined ? stored : given ? 1 : 0;
}

const SSO_NOT_CONFIGURED = 'Single sign-on is not set up for this institution';

/**
 * The institution's single sign-on, or null when it has none. A sealed secret that no longer
 * opens (the server secret changed) reads as no secret: the provider then refuses the exchange
 * and the sign-in fails cleanly, and the admin enters the secret again.
 */
export async function readInstitutionSso(
  db: Executor,
  institutionId: number,
  sealKey: Buffer,
): Promise<InstitutionSso | null> {
  const row = await queries.ssoSettingsRow(db, institutionId);
  if (!row) return null;
  return {
    institutionId: row.institution_id,
    institutionName: row.institution_name,
    client: {
      issuer: row.issuer,
      clientId: row.client_id,
      clientSecret: row.client_secret_sealed === null ? null : unseal(sealKey, row.client_secret_sealed),
    },
    domains: storedDomains(row),
    studentPasswordSignIn: row.student_password_sign_in === 1,
    emailAuthoritative: row.email_authoritative === 1,
    providerMfaCounts: row.provider_mfa_counts === 1,
  };
}

/** The answer of the settings API: never the secret, only whether one is stored. */
async function toResponse(db: Executor, institutionId: number): Promise<SsoSettingsResponse> {
  const row = await queries.ssoSettingsRow(db, institutionId);
  if (!row) return { success: true, sso: null };
  return {
    success: true,
    sso: {
      issuer: row.issuer,
      client_id: row.client_id,
      has_client_secret: row.client_secret_sealed !== null,
      domains: storedDomains(row),
      student_password_sign_in: row.student_password_sign_in === 1,
      email_authoritative: row.email_authoritative === 1,
      provider_mfa_counts: row.provider_mfa_counts === 1,
    },
  };
}

export async function getSsoSettings(options: {
  db: Executor;
  institutionId: number;
  actor: AuditActor;
}): Promise<SsoSettingsResponse> {
  await recordAudit(options.db, options.actor, {
    action: 'sso.read',
    subject: { type: 'institution', id: options.institutionId },
  });
  return toResponse(options.db, options.institutionId);
}

const ISSUER_NOT_PUBLIC =
  'issuer must be the public https address of your provider, not a private, loopback or link-local one';

/**
 * What the address itself says about where the provider is: plain http only in development, and
 * no address written out that the server would not call. Names are resolved (and checked) only
 * when the server calls the provider, which answers every failure alike.
 */
function issuerRefusal(issuer: string, network: ProviderNetworkPolicy): string | null {
  const url = new URL(issuer);
  if (url.protocol !== 'https:' && !network.allowLoopback) return 'issuer must be an https URL';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (net.isIP(host) && !mayConnectTo(host, network)) return ISSUER_NOT_PUBLIC;
  if ((host === 'localhost' || host.endsWith('.localhost')) && !network.allowLoopback)
    return ISSUER_NOT_PUBLIC;
  return null;
}

/**
 * Reads the provider's discovery document through the same network guard as a sign-in (public
 * addresses only, every name checked): what the admin runs before switching single sign-on on,
 * so a mistyped issuer is found now rather than by the first person who cannot sign in.
 */
export async function testSsoConnection(options: {
  db: Executor;
  institutionId: number;
  actor: AuditActor;
  request: SsoConnectionTestRequest;
  network: ProviderNetworkPolicy;
}): Promise<SsoConnectionTestResponse> {
  const { db, institutionId } = options;
  const { issuer, client_id: clientId } = options.request;
  const outcome = async (passed: boolean) => {
    await recordTestOutcome(db, institutionId, { issuer, clientId, passed });
    await recordAudit(db, options.actor, {
      action: 'sso.test',
      subject: { type: 'institution', id: institutionId },
      detail: { issuer, client_id: clientId, passed },
    });
  };
  const refusal = issuerRefusal(issuer, options.network);
  if (refusal) {
    await outcome(false);
    throw new AppError('BAD_REQUEST', refusal);
  }
  let found: string;
  try {
    const config = await discoverProvider({ issuer, clientId, clientSecret: null }, options.network);
    found = config.serverMetadata().issuer;
  } catch (error) {
    await outcome(false);
    throw new AppError(
      'BAD_REQUEST',
      isNetworkFailure(error)
        ? `The provider at ${issuer} could not be reached. Check the issuer URL.`
        : `${issuer} did not answer as an OpenID Connect provider: check that the issuer URL is exactly the one your provider names.`,
    );
  }
  await outcome(true);
  return {
    success: true,
    issuer: found,
    message: `Connected: ${found} answers as an OpenID Connect provider. Single sign-on can be switched on with these settings for the next hour.`,
  };
}

/**
 * Sets up or changes single sign-on. Only the institution's own email domains may sign in this
 * way, so no institution can claim another's students (and an address finds one provider). A
 * request without a secret keeps the stored one.
 */
export async function saveSsoSettings(options: {
  db: Executor;
  institutionId: number;
  actor: AuditActor;
  sealKey: Buffer;
  network: ProviderNetworkPolicy;
  settings: SsoSettingsRequest;
}): Promise<SsoSettingsResponse> {
  const { db, institutionId, settings } = options;
  const refusal = issuerRefusal(settings.issuer, options.network);
  if (refusal) throw new AppError('BAD_REQUEST', refusal);
  const own = await institutionDomains(db, institutionId);
  const foreign = settings.domains.filter((domain) => !own.includes(domain));
  if (foreign.length > 0)
    throw new AppError(
      'BAD_REQUEST',
      `Only your institution's email domains can sign in this way (${own.join(', ') || 'none set up'}); not ${foreign.join(', ')}`,
    );
  const before = await queries.ssoSettingsRow(db, institutionId);
  await requireTestedProvider(
    db,
    institutionId,
    { issuer: settings.issuer, clientId: settings.client_id },
    before ? { issuer: before.issuer, clientId: before.client_id } : null,
  );
  const newSecret = settings.client_secret ? seal(options.sealKey, settings.client_secret) : undefined;
  const row = {
    institution_id: institutionId,
    issuer: settings.issuer,
    client_id: settings.client_id,
    client_secret_sealed: newSecret ?? before?.client_secret_sealed ?? null,
    domains: JSON.stringify(settings.domains),
    student_password_sign_in: settings.student_password_sign_in ? 1 : 0,
    // Left out of a request, each keeps its stored value (or its default).
    email_authoritative: flag(settings.email_authoritative, before?.email_authoritative ?? 0),
    provider_mfa_counts: flag(settings.provider_mfa_counts, before?.provider_mfa_counts ?? 1),
    updated_at: now(),
  };
  await queries.saveSsoSettings(db, row);
  const changed = before
    ? Object.entries({
        issuer: before.issuer !== row.issuer,
        client_id: before.client_id !== row.client_id,
        client_secret: newSecret !== undefined,
        domains: before.domains !== row.domains,
        student_password_sign_in: before.student_password_sign_in !== row.student_password_sign_in,
        email_authoritative: before.email_authoritative !== row.email_authoritative,
        provider_mfa_counts: before.provider_mfa_counts !== row.provider_mfa_counts,
      })
        .filter(([, isChanged]) => isChanged)
        .map(([field]) => field)
    : ['enabled'];
  // The secret itself is never written to the log: only that it changed. Every admin is told:
  // an admin who points sign-on at a provider of their own is seen by the others.
  await recordSignInChange(db, options.actor, {
    action: 'sso.update',
    subject: { type: 'institution', id: institutionId },
    detail: { changed, issuer: row.issuer },
    summary:
      changed.length > 0
        ? /*i18n*/ {
            id: 'mail.sign-in-change.sso-changed',
            message: 'The single sign-on of your institution was changed ({changes}; provider {issuer})',
          }
        : /*i18n*/ {
            id: 'mail.sign-in-change.sso-saved',
            message:
              'The single sign-on of your institution was changed (saved unchanged; provider {issuer})',
          },
    summaryValues: { changes: changed.join(', '), issuer: row.issuer },
    tell: await queries.activeAdminEmails(db, institutionId),
  });
  return toResponse(db, institutionId);
}

/** Switches single sign-on off: everyone signs in with a password again. */
export async function disableSso(options: {
  db: Executor;
  institutionId: number;
  actor: AuditActor;
}): Promise<SsoSettingsResponse> {
  if (!(await queries.deleteSsoSettings(options.db, options.institutionId)))
    throw new AppError('NOT_FOUND', SSO_NOT_CONFIGURED);
  await recordSignInChange(options.db, options.actor, {
    action: 'sso.disable',
    subject: { type: 'institution', id: options.institutionId },
    summary: /*i18n*/ {
      id: 'mail.sign-in-change.sso-off',
      message: 'The single sign-on of your institution was switched off',
    },
    tell: await queries.activeAdminEmails(options.db, options.institutionId),
  });
  return { success: true, sso: null };
}

/**
 * Why a password sign-in with this address is refused, or null when passwords work for it: the
 * address is of a single sign-on domain of an institution that switched students' passwords off.
 * Decided by the address alone, before any password is checked, and the same for a right or
 * wrong password and for an address with or without an account: the answer is no oracle. Staff,
 * who keep their passwords, get past it only with the right one.
 */
export async function passwordRefusalForAddress(db: Executor, email: string): Promise<string | null> {
  const domain = emailDomain(email);
  const owner = await institutionOfDomain(db, domain);
  if (!owner) return null;
  const row = await queries.ssoSettingsRow(db, owner.id);
  if (!row || row.student_password_sign_in === 1 || !storedDomains(row).includes(domain)) return null;
  return `Students of ${row.institution_name} sign in with their institution account: use "Sign in with ${row.institution_name}" on the login page. Staff: check your email and password.`;
}
