import { z } from 'zod/mini';
import { Email } from './common';
import { SSO_ERRORS } from './values';

/**
 * Single sign-on per institution (design section 11): the institution's OpenID Connect provider.
 * The client secret goes in and never comes out: answers only say whether one is stored.
 */

const MAX_SSO_DOMAINS = 20;

/**
 * Loopback hosts, where plain http may be allowed (a provider on the same machine, in development);
 * the server allows it only when so configured (SSO_ALLOW_INSECURE_ISSUER).
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Why an issuer address cannot be used, or null: https, or http on a loopback address only. */
function issuerProblem(issuer: string): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'issuer must be a URL such as https://login.example.edu';
  }
  if (url.username || url.password || url.search || url.hash)
    return 'issuer must not carry credentials, a query or a fragment';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'issuer must be an https URL';
}

/** A domain name such as example.edu: letters, digits and hyphens, in dot-separated labels. */
const DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const Domain = z
  .pipe(
    z.string({ error: 'Each domain must be a text' }).check(z.trim()),
    z.transform((domain: string) => domain.toLowerCase().replace(/^@/, '')),
  )
  .check(z.refine((domain) => DOMAIN_PATTERN.test(domain), 'Each domain must look like example.edu'));

export const SsoSettingsRequest = z.object({
  issuer: z.string({ error: 'issuer is required' }).check(
    z.trim(),
    z.maxLength(500, 'issuer is too long'),
    z.refine((value) => !issuerProblem(value), {
      error: (issue) => issuerProblem(String(issue.input)) ?? 'issuer is not valid',
    }),
  ),
  client_id: z
    .string({ error: 'client_id is required' })
    .check(z.trim(), z.minLength(1, 'client_id is required'), z.maxLength(300, 'client_id is too long')),
  /** Omitted (or empty) keeps the stored secret. */
  client_secret: z.optional(
    z.string({ error: 'client_secret must be a text' }).check(z.maxLength(500, 'client_secret is too long')),
  ),
  domains: z.array(Domain).check(
    z.minLength(1, 'At least one email domain is required'),
    z.maxLength(MAX_SSO_DOMAINS, `At most ${MAX_SSO_DOMAINS} domains`),
    z.refine((domains) => new Set(domains).size === domains.length, 'Each domain once'),
  ),
  student_password_sign_in: z.boolean({ error: 'student_password_sign_in must be true or false' }),
  /**
   * The provider speaks for the institution's domains: its addresses count for a first sign-in
   * even without an `email_verified` claim. Only for a provider the institution runs itself: any
   * other could claim any of its addresses. Omitted keeps the stored value (off at first).
   */
  email_authoritative: z.optional(z.boolean({ error: 'email_authoritative must be true or false' })),
  /**
   * Staff whose provider asserts a multi-factor sign-in (`amr` "mfa", or a multi-factor `acr`)
   * need no second factor of ours; off, staff always prove ours. Omitted keeps the stored value
   * (on at first).
   */
  provider_mfa_counts: z.optional(z.boolean({ error: 'provider_mfa_counts must be true or false' })),
});
export type SsoSettingsRequest = z.infer<typeof SsoSettingsRequest>;

export const SsoSettingsResponse = z.object({
  success: z.literal(true),
  /** Null when single sign-on is off. */
  sso: z.nullable(
    z.object({
      issuer: z.string(),
      client_id: z.string(),
      has_client_secret: z.boolean(),
      domains: z.array(z.string()),
      student_password_sign_in: z.boolean(),
      email_authoritative: z.boolean(),
      provider_mfa_counts: z.boolean(),
    }),
  ),
});
export type SsoSettingsResponse = z.infer<typeof SsoSettingsResponse>;

/** A provider to try before switching single sign-on on: its issuer and the app's client id. */
export const SsoConnectionTestRequest = z.pick(SsoSettingsRequest, { issuer: true, client_id: true });
export type SsoConnectionTestRequest = z.infer<typeof SsoConnectionTestRequest>;

export const SsoConnectionTestResponse = z.object({
  success: z.literal(true),
  /** The issuer as the provider's discovery document names it. */
  issuer: z.string(),
  message: z.string(),
});
export type SsoConnectionTestResponse = z.infer<typeof SsoConnectionTestResponse>;

export const SsoDiscoverRequest = z.object({ email: Email });

export const SsoDiscoverResponse = z.object({
  success: z.literal(true),
  sso: z.nullable(z.object({ institution_name: z.string(), start_url: z.string() })),
});
export type SsoDiscoverResponse = z.infer<typeof SsoDiscoverResponse>;

export { SSO_ERRORS };
export type SsoError = (typeof SSO_ERRORS)[number];

export const SSO_ERROR_MESSAGES: Record<SsoError, string> = {
  failed: 'Sign-in with your institution did not work. Try again, or sign in with your password.',
  unreachable:
    "Your institution's sign-in service could not be reached. Try again in a few minutes, or sign in with your password.",
  domain: "This account cannot sign in here: its email address is not one of your institution's domains.",
  expired: 'That sign-in took too long or was already used. Start again.',
  account: 'This account cannot sign in here. Ask your institution for help.',
  browser: 'That sign-in was started in another browser. Start again here.',
  signed_in: 'This browser is signed in as someone else. Sign out first, then sign in with your institution.',
  unlinked:
    'Staff accounts sign in with their institution only once they have linked it to their account: sign in with your password and second factor, then link it.',
  unverified: 'Your institution did not confirm this email address. Ask your institution for help.',
};
