import { z } from 'zod/mini';
import { IdParam } from '../schemas/common';
import {
  SsoConnectionTestRequest,
  SsoConnectionTestResponse,
  SsoDiscoverRequest,
  SsoDiscoverResponse,
  SsoSettingsRequest,
  SsoSettingsResponse,
} from '../schemas/sso';
import { endpoint } from './endpoint';

const CallbackQuery = /*#__PURE__*/ z.object({
  state: z.optional(z.string().check(z.maxLength(500))),
  code: z.optional(z.string().check(z.maxLength(4000))),
  error: z.optional(z.string().check(z.maxLength(500))),
});

const LinkResponse = /*#__PURE__*/ z.object({ success: z.literal(true), authorization_url: z.string() });

const StartQuery = /*#__PURE__*/ z.object({
  institution: IdParam,
  next: z.optional(z.string().check(z.maxLength(2000, 'next is too long'))),
});

const tags = ['single sign-on'];

export const getSsoSettings = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/institution/sso/',
  summary: "The institution's single sign-on; the client secret is never returned",
  tags,
  response: { status: 200, schema: SsoSettingsResponse },
  errors: [400, 401, 403, 404],
  access: { staff: 'settings' },
});

export const updateSsoSettings = /*#__PURE__*/ endpoint({
  method: 'PUT',
  path: '/api/institution/sso/',
  summary: 'Set up or change single sign-on',
  description:
    'Without client_secret (or with an empty one), the stored secret is kept. Needs a second factor proven in the last 5 minutes (403 STEP_UP_REQUIRED); every admin is told by mail. Switching on, or changing the issuer or client ID, needs a passed connection test (POST /api/institution/sso/test/) of the same issuer and client ID in the last hour (409 CONNECTION_UNTESTED).',
  tags,
  body: SsoSettingsRequest,
  response: { status: 200, schema: SsoSettingsResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'settings' },
});

export const testSsoConnection = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/institution/sso/test/',
  summary: "Test connection: read the provider's discovery document, changing nothing",
  description:
    'Through the same network guard as a sign-in (public addresses only). 400 with the reason when the provider cannot be reached or does not answer as an OpenID Connect provider. A passed test lets single sign-on be switched on with this issuer and client ID for the next hour; a failed one withdraws that.',
  tags,
  body: SsoConnectionTestRequest,
  response: { status: 200, schema: SsoConnectionTestResponse },
  errors: [400, 401, 403, 404, 429],
  access: { staff: 'settings' },
});

export const disableSso = /*#__PURE__*/ endpoint({
  method: 'DELETE',
  path: '/api/institution/sso/',
  summary: 'Switch single sign-on off: everyone signs in with a password again',
  description:
    'Needs a second factor proven in the last 5 minutes (403 STEP_UP_REQUIRED); every admin is told by mail.',
  tags,
  response: { status: 200, schema: SsoSettingsResponse },
  errors: [400, 401, 403, 404],
  access: { staff: 'settings' },
});

export const discoverSso = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/sso/discover/',
  summary: "Whether an address signs in through its institution's provider, and where to start",
  tags,
  body: SsoDiscoverRequest,
  response: { status: 200, schema: SsoDiscoverResponse },
  errors: [400, 403, 429],
  access: 'public',
});

export const startSso = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/sso/start/',
  summary: "Redirect to the institution's provider to sign in",
  description:
    'Answers 302 to the provider, or to /login/?sso_error=<reason>&next=<next> when the sign-in cannot start. `next` is kept when it stays on this site.',
  tags,
  query: StartQuery,
  response: { status: 302, redirect: true },
  errors: [400, 429],
  access: 'public',
});

export const linkSsoAccount = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/sso/link/',
  summary: 'Link the signed-in account to its institution account, for signing in with it',
  description:
    "Answers the provider's address to send the browser to; it comes back to the callback, which links the identity the provider proves to this account (staff sign in with their institution only once linked this way).",
  tags,
  response: { status: 200, schema: LinkResponse },
  errors: [400, 401, 403, 404, 429],
  access: 'user',
});

export const completeSso = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/sso/callback/',
  summary: 'Where the provider sends the browser back; signs in and redirects',
  description:
    'Answers 302 to where the sign-in was going (or the home of the role), or to /login/?sso_error=<reason>, with that `next` kept. Each state works once.',
  tags,
  query: CallbackQuery,
  response: { status: 302, redirect: true },
  errors: [400, 429],
  access: 'public',
});
