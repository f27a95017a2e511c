import fs from 'node:fs';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LanguageTag, pickLanguage } from '../../common/languages';

/**
 * The folder of the server's catalogues: src/server/locales beside the sources, or the copy the
 * build puts beside the compiled server (dist/server/locales).
 */
function localesFolder(): string | null {
  const candidates = [
    path.join(import.meta.dirname, 'locales'),
    path.resolve(import.meta.dirname, '../locales'),
  ];
  return candidates.find((folder) => fs.existsSync(folder)) ?? null;
}

let languages: readonly string[] | undefined;

/** The languages the product speaks: those it has catalogues for (read once). */
export function supportedLanguages(): readonly string[] {
  if (!languages) {
    const folder = localesFolder();
    const found = folder
      ? fs
          .readdirSync(folder, { withFileTypes: true })
          .filter((entry) => entry.isDirectory() && LanguageTag.safeParse(entry.name).success)
          .map((entry) => entry.name)
      : [];
    languages = [...new Set([DEFAULT_LANGUAGE, ...found])].sort();
  }
  return languages;
}

/**
 * The language to answer a request in: the one its sender chose (the language cookie), else the
 * best match for what their browser asks for, else the default.
 */
export function requestLanguage(request: FastifyRequest): string {
  const chosen = request.cookies?.[LANGUAGE_COOKIE];
  if (chosen && supportedLanguages().includes(chosen)) return chosen;
  return pickLanguage(request.headers['accept-language'], supportedLanguages());
}
