import fs from 'node:fs';
import type { FastifyRequest } from 'fastify';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LanguageTag, pickLanguage } from '../../common/languages';
import { localesFolder } from './locales-folder';

let languages: readonly string[] | undefined;

/** The languages the product has: one folder of catalogues each, the default always among them. */
export function supportedLanguages(): readonly string[] {
  if (!languages) {
    const folders = fs
      .readdirSync(localesFolder(), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && LanguageTag.safeParse(entry.name).success)
      .map((entry) => entry.name);
    languages = Object.freeze([...new Set([DEFAULT_LANGUAGE, ...folders])].sort());
  }
  return languages;
}

/** The language a request is answered in: the one its person chose (cookie), else its browser's. */
export function requestLanguage(request: Pick<FastifyRequest, 'cookies' | 'headers'>): string {
  const chosen = request.cookies?.[LANGUAGE_COOKIE];
  if (chosen && supportedLanguages().includes(chosen)) return chosen;
  return pickLanguage(request.headers['accept-language'], supportedLanguages());
}
