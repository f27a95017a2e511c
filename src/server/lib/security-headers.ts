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
 * Sets the app's security headers on a response: every response of the app (an onRequest hook),
 * and those Fastify answers before any hook runs (the router's refusals of malformed addresses).
 */
export function securityHeaderSetter(
  web: Config['web'],
): (request: IncomingMessage, response: ServerResponse) => void {
  const middleware = helmet(helmetOptions(web));
  return (request, response) => middleware(request, response, () => {});
}
