import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config';

const originOf = (url: string | null) => (url ? [new URL(url).origin] : []);

/**
 * The Content-Security-Policy the built app runs under: no inline scripts anywhere; the optional
 * analytics script, demo video and contact-form service are allowed only when configured.
 */
function contentSecurityPolicy(web: Config['web']) {
  const contactIsExternal = /^https?:\/\//.test(web.contactFormUrl);
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...originOf(web.analyticsScriptUrl)],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ...originOf(web.analyticsScriptUrl)],
    fontSrc: ["'self'"],
    frameSrc: originOf(web.demoVideoUrl).length ? originOf(web.demoVideoUrl) : ["'none'"],
    mediaSrc: ["'self'", ...originOf(web.demoVideoUrl)],
    formAction: ["'self'", ...(contactIsExternal ? originOf(web.contactFormUrl) : [])],
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    upgradeInsecureRequests: null,
  };
}

/** Helmet's options for every response of the app. */
function helmetOptions(web: Config['web']) {
  return {
    contentSecurityPolicy: { directives: contentSecurityPolicy(web) },
    // Sent only over HTTPS (app.ts): over plain HTTP it would be ignored or wrong.
    hsts: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  } satisfies HelmetOptions;
}

/**
 * A built script or stylesheet is never a document: a page's policy, framing, referrer, opener and
 * agent-cluster headers mean nothing on it, and browsers ignore them there. It keeps the headers
 * that do apply to a subresource: it runs only as the type it is served as (nosniff), and only
 * for pages of this origin. Every page loads several scripts before it can be used, and the
 * others would add about 0.6 KB to each of them on a phone's network.
 */
const SUBRESOURCE_OPTIONS = {
  contentSecurityPolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  referrerPolicy: false,
  strictTransportSecurity: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} satisfies HelmetOptions;

/**
 * Sets the app's security headers on a response: every response of the app (an onRequest hook),
 * and those Fastify answers before any hook runs (the router's refusals of malformed addresses).
 * `isBuiltSubresource` tells the built scripts and stylesheets by their URL: they get only the
 * headers that apply to them (SUBRESOURCE_OPTIONS).
 */
export function securityHeaderSetter(
  web: Config['web'],
  isBuiltSubresource: (url: string) => boolean = () => false,
): (request: IncomingMessage, response: ServerResponse) => void {
  const page = helmet(helmetOptions(web));
  const subresource = helmet(SUBRESOURCE_OPTIONS);
  return (request, response) => {
    const middleware = isBuiltSubresource(request.url ?? '') ? subresource : page;
    middleware(request, response, () => {});
  };
}
