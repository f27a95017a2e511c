import { BRAND_NAME_MAX_LENGTH, DEFAULT_BRAND_NAME } from '../common/brand';
import { requestQuote } from '../common/endpoints/contact';

/**
 * Deployment settings: the server hands them to its renderer of the first paint, and writes them
 * into `<meta name="app-config" content="...">` of the HTML shell for the browser. Reading them at
 * runtime (not at build time) lets one build serve every institution's deployment. Each field
 * falls back to its default on its own, so one bad value never takes the others down with it.
 * Read without zod: every page reads them before it draws, and a public page loads no zod until
 * it parses an answer of its own (api.ts).
 */

const DEFAULT_CONTACT_FORM_URL = requestQuote.path;

/** Only http(s) URLs may reach an iframe `src` or a script `src`; anything else is dropped. */
function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    // Relative URLs are this site's own: any base of the right protocol resolves them.
    const { protocol } = new URL(value, 'http://localhost/');
    return protocol === 'https:' || protocol === 'http:' ? value : null;
  } catch {
    return null;
  }
}

function brandName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  return name.length >= 1 && name.length <= BRAND_NAME_MAX_LENGTH ? name : DEFAULT_BRAND_NAME;
}

interface AppConfig {
  brandName: string;
  demoVideoUrl: string | null;
  contactFormUrl: string;
  analyticsScriptUrl: string | null;
  publicUrl: string | null;
}

function parseConfigJson(raw: string | null | undefined): unknown {
  if (!raw) return {};
  try {
    return JSON.parse(raw);
  } catch (error) {
    console.error('The app-config meta tag does not hold valid JSON; using defaults.', error);
    return {};
  }
}

/** The settings the server wrote into the page (`<meta name="app-config">`). */
export function readAppConfigMeta(doc: Document): unknown {
  return parseConfigJson(doc.querySelector('meta[name="app-config"]')?.getAttribute('content'));
}

function parsedAppConfig(json: unknown): AppConfig {
  const settings = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  return {
    brandName: brandName(settings.brandName),
    demoVideoUrl: httpUrl(settings.demoVideoUrl),
    contactFormUrl: httpUrl(settings.contactFormUrl) ?? DEFAULT_CONTACT_FORM_URL,
    analyticsScriptUrl: httpUrl(settings.analyticsScriptUrl),
    publicUrl: httpUrl(settings.publicUrl),
  };
}

/**
 * The settings in force. Set once, before anything renders: by the browser's entry from the page,
 * by the server's renderer from its own configuration (src/web/entry-server.tsx).
 */
export let appConfig: AppConfig = parsedAppConfig({});

/** "{brand} Health", the product name used in titles, the header and the footer. */
export let productName = `${appConfig.brandName} Health`;

export function applyAppConfig(settings: unknown): void {
  appConfig = parsedAppConfig(settings);
  productName = `${appConfig.brandName} Health`;
}

/** The browser tab title of a screen: "Log in - Wellspring Health". */
export function pageTitle(screen: string): string {
  return `${screen} - ${productName}`;
}
