import type { Server } from 'node:http';
import net from 'node:net';
import type Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider for the single sign-on tests (oidc-provider), on a free loopback
 * port: its development sign-in form accepts any login (the address to sign in as) with any
 * password, and every account's address is verified. Three clients, all sending people back to
 * the app's callback: an ordinary one, one whose codes last a second, and one for which the
 * provider misbehaves and issues ID tokens meant for another application.
 */

export const CLIENT_SECRET = 'provider-secret-for-the-browser-tests';
export const CLIENTS = {
  ordinary: 'wellspring',
  shortLivedCodes: 'wellspring-short-codes',
  wrongAudience: 'wellspring-wrong-audience',
} as const;
/** How long the short-lived client's codes last, in seconds. */
export const SHORT_CODE_TTL_S = 1;

/**
 * What the provider library says about a set-up that is deliberate here: it runs on Node 20 (it
 * asks for 22), and with its development keys, in-memory store and sign-in form, which suit a
 * provider that lives for one test. Those lines are dropped; any other warning is printed.
 */
const EXPECTED_PROVIDER_WARNINGS = [
  'Unsupported runtime',
  'a quick start development-only in-memory adapter is used',
  'quick start development-only signing keys are used',
  'a quick start development-only feature devInteractions is enabled',
];

function dropExpectedProviderWarnings() {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    const line = typeof args[0] === 'string' ? args[0].replace('oidc-provider WARNING: ', '') : '';
    if (EXPECTED_PROVIDER_WARNINGS.some((expected) => line.startsWith(expected))) return;
    warn(...args);
  };
}

let providerClass: Promise<typeof Provider> | undefined;

/** The library, loaded once the warnings it prints on loading and first use are filtered. */
function loadProvider(): Promise<typeof Provider> {
  if (!providerClass) {
    dropExpectedProviderWarnings();
    providerClass = import('oidc-provider').then((module) => module.default);
  }
  return providerClass;
}

export interface TestProvider {
  issuer: string;
  stop: () => Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('No port')),
      );
    });
  });
}

/** How the clients prove themselves at the token endpoint: the secret in the form, or in the Authorization header. */
type SecretMethod = 'client_secret_post' | 'client_secret_basic';

interface ProviderOptions {
  /** The one way the provider accepts the client secret. */
  secretMethod?: SecretMethod;
  /**
   * Whether its discovery document lists that way. A provider may list none, and OpenID Connect
   * Discovery then makes the Authorization header the default.
   */
  listsSecretMethods?: boolean;
  /**
   * The claims of the account signed in as `login` (the development form's login), instead of
   * that address, verified: a hostile or careless provider leaves `email_verified` out, or says
   * another address for a subject.
   */
  claimsOf?: (login: string) => Record<string, unknown> | undefined;
  /** Claims added to every ID token, e.g. `amr: ['mfa']` for a multi-factor sign-in. */
  idTokenClaims?: Record<string, unknown>;
  /** A hostile token endpoint: the ID tokens it answers carry a signature made by no key of the provider. */
  forgesIdTokenSignatures?: boolean;
}

/** The ID token in a token endpoint's answer with its signature replaced by one made of nothing. */
function forgeSignature(body: Record<string, unknown>) {
  if (typeof body.id_token !== 'string') return;
  const [header, payload] = body.id_token.split('.');
  body.id_token = `${header}.${payload}.${Buffer.alloc(256, 7).toString('base64url')}`;
}

/** Starts the provider; `redirectUri` is the app's callback, where every client sends people back. */
export async function startTestProvider(
  redirectUri: string,
  {
    secretMethod = 'client_secret_post',
    listsSecretMethods = true,
    claimsOf,
    idTokenClaims,
    forgesIdTokenSignatures = false,
  }: ProviderOptions = {},
): Promise<TestProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const client = (clientId: string) => ({
    client_id: clientId,
    client_secret: CLIENT_SECRET,
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: secretMethod,
  });
  const Provider = await loadProvider();
  const provider = new Provider(issuer, {
    clients: Object.values(CLIENTS).map(client),
    clientAuthMethods: [secretMethod],
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({
        sub: id,
        ...(claimsOf?.(id) ?? { email: id, email_verified: true, name: `SSO ${id.split('@')[0]}` }),
      }),
    }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    // Every lifetime the sign-ins use is set, so the library does not fall back to defaults it
    // announces; none of them is what a test measures except the authorization code's.
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: (_ctx: unknown, _code: unknown, forClient: { clientId: string }) =>
        forClient.clientId === CLIENTS.shortLivedCodes ? SHORT_CODE_TTL_S : 60,
    },
    cookies: { keys: ['cookie-key-for-the-browser-tests'] },
  });
  // The misbehaving case: ID tokens for the wrong-audience client name another application.
  const issue = provider.IdToken.prototype.issue;
  provider.IdToken.prototype.issue = function (this: { client?: { clientId?: string } }, ...args: unknown[]) {
    // Read at each issue: a test may change what the next ID token says.
    const token = this as { set?: (key: string, value: unknown) => void };
    for (const [key, value] of Object.entries(idTokenClaims ?? {})) token.set?.(key, value);
    const real = this.client;
    if (real?.clientId === CLIENTS.wrongAudience)
      this.client = new Proxy(real, {
        get: (target, key) => (key === 'clientId' ? 'another-application' : Reflect.get(target, key)),
      });
    return issue.apply(this, args);
  };
  if (forgesIdTokenSignatures)
    provider.use(async (ctx, next) => {
      await next();
      if (ctx.path === '/token' && typeof ctx.body === 'object' && ctx.body)
        forgeSignature(ctx.body as Record<string, unknown>);
    });
  if (!listsSecretMethods)
    provider.use(async (ctx, next) => {
      await next();
      if (ctx.path === '/.well-known/openid-configuration' && typeof ctx.body === 'object' && ctx.body)
        delete (ctx.body as Record<string, unknown>).token_endpoint_auth_methods_supported;
    });
  const server: Server = await new Promise((resolve) => {
    const listening = provider.listen(port, '127.0.0.1', () => resolve(listening));
  });
  return {
    issuer,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
