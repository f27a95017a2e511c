/** The little of oidc-provider (which ships no types) the single sign-on specs use. */
declare module 'oidc-provider' {
  import type { Server } from 'node:http';

  export interface ProviderClient {
    client_id: string;
    client_secret: string;
    redirect_uris: string[];
    grant_types?: string[];
    response_types?: string[];
    token_endpoint_auth_method?: string;
  }

  export interface Account {
    accountId: string;
    claims: () => Record<string, unknown>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    listen(port: number, host: string, callback?: () => void): Server;
    /** Koa middleware, run around the provider's own routes. */
    use(middleware: (ctx: { path: string; body: unknown }, next: () => Promise<void>) => Promise<void>): this;
    IdToken: {
      prototype: { issue: (this: { client?: { clientId?: string } }, ...args: unknown[]) => Promise<string> };
    };
  }
}
