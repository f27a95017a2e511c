import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyRequest } from 'fastify';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LanguageTag, pickLanguage } from '../../common/languages';

/**
 * The catalogues' folder: beside this module's folder when it runs from the sources
 * (src/server/lib -> src/server/locales), beside the bundle when it runs compiled (dist/server,
 * where the build copies it).
 */
const CANDIDATES = [new URL('../locales/', import.meta.url), new URL('./locales/', import.meta.url)];

let supported: readonly string[] | undefined;

/** The languages the product has: one per catalogue folder, the default always among them. */
export function supportedLanguages(): readonly string[] {
  if (supported) return supported;
  const found = new Set<string>([DEFAULT_LANGUAGE]);
  for (const candidate of CANDIDATES) {
    try {
      for (const entry of readdirSync(fileURLToPath(candidate), { withFileTypes: true })) {
        if (entry.isDirectory() && LanguageTag.safeParse(entry.name).success) found.add(entry.name);
      }
      break;
    } catch {
      // Not this layout: try the next.
    }
  }
  supported = Object.freeze([...found].sort());
  return supported;
}

/** The language a request is answered in: the one its visitor chose (the cookie) if the product has it, else the browser's pick. */
export function requestLanguage(request: FastifyRequest): string {
  const languages = supportedLanguages();
  const chosen = request.cookies?.[LANGUAGE_COOKIE];
  if (chosen && languages.includes(chosen)) return chosen;
  return pickLanguage(request.headers['accept-language'], languages);
}
