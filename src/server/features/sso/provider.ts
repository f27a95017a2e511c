import * as oidc from 'openid-client';
import { ProviderAddressRefused, type ProviderNetworkPolicy, providerFetch } from './provider-network';

/**
 * The one place that speaks OpenID Connect to an institution's provider (authorization code flow
 * with PKCE S256, state and nonce), through openid-client: discovery, the authorization address,
 * and the code exchange with the checks of the ID token (signature, issuer, audience, nonce).
 */

/** A provider that does not answer within this long is treated as down; the browser is not kept waiting. */
const PROVIDER_TIMEOUT_SECONDS = 5;

export interface ProviderClient {
  issuer: string;
  clientId: string;
  /** Null for a public client (PKCE alone). */
  clientSecret: string | null;
}

/** The provider could not be reached or did not answer in time (as opposed to refusing). */
class ProviderUnreachable extends Error {}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** Whether an error (or one it was caused by) is the network failing rather than the provider answering. */
export function isNetworkFailure(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof ProviderUnreachable || current instanceof ProviderAddressRefused) return true;
    if (typeof current !== 'object') return false;
    const { name, code, message, cause } = current as {
      name?: unknown;
      code?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (name === 'TimeoutError' || name === 'AbortError') return true;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (name === 'TypeError' && message === 'fetch failed') return true;
    current = cause;
  }
  return false;
}

/**
 * How the app proves itself at the provider's token endpoint. The secret goes in the form body
 * where the provider lists that method, and otherwise in the Authorization header: OpenID Connect
 * Discovery makes that one the default when a provider lists none.
 */
function secretMethod(server: oidc.ServerMetadata, secret: string | null): oidc.ClientAuth {
  if (secret === null) return oidc.None();
  const listed = server.token_endpoint_auth_methods_supported;
  if (listed?.includes('client_secret_post')) return oidc.ClientSecretPost(secret);
  if (listed === undefined || listed.includes('client_secret_basic')) return oidc.ClientSecretBasic(secret);
  // Neither is listed: the provider will refuse the exchange, and the sign-in fails with a reason.
  return oidc.ClientSecretPost(secret);
}

/**
 * Reads the provider's metadata (its endpoints and keys' address) and settles how to authenticate
 * to it. Every request, to the issuer and to each address its document names, goes through
 * providerFetch: public addresses only (loopback, over plain http too, in development).
 */
export async function discoverProvider(
  client: ProviderClient,
  network: ProviderNetworkPolicy,
): Promise<oidc.Configuration> {
  const issuer = new URL(client.issuer);
  // Plain http is allowed only for a provider on this machine in development; providerFetch
  // refuses it otherwise, and anything but loopback even then.
  const insecure = network.allowLoopback && issuer.protocol === 'http:';
  const fetch = providerFetch(network);
  try {
    const discovered = await oidc.discovery(issuer, client.clientId, undefined, oidc.None(), {
      timeout: PROVIDER_TIMEOUT_SECONDS,
      [oidc.customFetch]: fetch,
      ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
    const server = discovered.serverMetadata();
    const config = new oidc.Configuration(
      server,
      client.clientId,
      client.clientSecret ?? undefined,
      secretMethod(server, client.clientSecret),
    );
    config.timeout = PROVIDER_TIMEOUT_SECONDS;
    config[oidc.customFetch] = fetch;
    if (insecure) oidc.allowInsecureRequests(config);
    // The ID token's signature is checked against the provider's published keys even though it
    // comes straight from the token endpoint: without it, anything answering there is believed.
    oidc.enableNonRepudiationChecks(config);
    return config;
  } catch (error) {
    if (isNetworkFailure(error)) throw new ProviderUnreachable('provider unreachable', { cause: error });
    throw error;
  }
}

/** What a sign-in keeps until the browser comes back: all random, used once. */
interface SignInChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export function newSignInChecks(): SignInChecks {
  return {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    codeVerifier: oidc.randomPKCECodeVerifier(),
  };
}

export async function authorizationUrl(
  config: oidc.Configuration,
  options: { redirectUri: string; checks: SignInChecks; loginHint?: string },
): Promise<URL> {
  const { checks } = options;
  return oidc.buildAuthorizationUrl(config, {
    redirect_uri: options.redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
    code_challenge_method: 'S256',
    ...(options.loginHint ? { login_hint: options.loginHint } : {}),
  });
}

/** Who the provider says signed in, from the verified ID token. */
export interface ProvenIdentity {
  /** The provider's issuer and its subject for the person: what a linked account is found by. */
  issuer: string;
  subject: string;
  email: string | null;
  /** The email_verified claim; null when the provider does not send it. */
  emailVerified: boolean | null;
  name: string | null;
  /** Whether the ID token says the person signed in with more than one factor (`amr`, `acr`). */
  multiFactor: boolean;
}

/**
 * How providers say a sign-in used several factors: RFC 8176's `amr` value `mfa`, or a
 * multi-factor `acr` (REFEDS MFA, the PAPE policy, and the `mfa` some providers send).
 */
const MULTI_FACTOR_ACR = new Set([
  'https://refeds.org/profile/mfa',
  'http://schemas.openid.net/pape/policies/2007/06/multi-factor',
  'mfa',
]);

function assertsMultiFactor(idToken: oidc.IDToken): boolean {
  const amr = Array.isArray(idToken.amr) ? idToken.amr : [];
  return amr.includes('mfa') || (typeof idToken.acr === 'string' && MULTI_FACTOR_ACR.has(idToken.acr));
}

/**
 * Exchanges the code from the callback address and verifies the ID token (issuer, audience,
 * signature, expiry, nonce); throws when any check fails or the provider refuses.
 */
export async function exchangeCode(
  config: oidc.Configuration,
  callbackUrl: URL,
  checks: SignInChecks,
): Promise<ProvenIdentity> {
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      pkceCodeVerifier: checks.codeVerifier,
      idTokenExpected: true,
    });
    const idToken = tokens.claims();
    if (!idToken) throw new Error('no ID token');
    // Some providers put the address in the ID token, others only behind the userinfo endpoint,
    // which answers for the same subject only (openid-client checks `sub`).
    const claims: Record<string, unknown> =
      typeof idToken.email === 'string'
        ? idToken
        : await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
    return {
      issuer: idToken.iss,
      subject: idToken.sub,
      email: typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null,
      emailVerified: typeof claims.email_verified === 'boolean' ? claims.email_verified : null,
      name: typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : null,
      multiFactor: assertsMultiFactor(idToken),
    };
  } catch (error) {
    if (isNetworkFailure(error)) throw new ProviderUnreachable('provider unreachable', { cause: error });
    throw error;
  }
}
