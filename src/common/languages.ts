import { z } from 'zod';

/**
 * The language every text exists in: the spec's wording. Whatever has no translation in a
 * person's language is shown in it.
 */
export const DEFAULT_LANGUAGE = 'en';

/**
 * A language as the product names it: a lowercase ISO 639 code, with an uppercase region only
 * where one is needed ("es", "pt-BR"). Which languages exist is decided by the catalogues
 * present, not by this rule.
 */
export const LanguageTag = z.string().regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, 'Not a language tag');
export type LanguageTag = z.infer<typeof LanguageTag>;

/** The cookie that keeps the language someone chose (or was given on their first visit). */
export const LANGUAGE_COOKIE = 'lang';

/**
 * The first of the languages a person's browser asks for (an Accept-Language header, best
 * first by its q-values) that the product has, matching a region-less language to a regional
 * request ("es-MX" is served "es"); the default language when none matches.
 */
export function pickLanguage(accepted: string | undefined | null, supported: readonly string[]): string {
  if (!accepted) return DEFAULT_LANGUAGE;
  const wanted = accepted
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, order };
    })
    .filter((entry) => entry.tag && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order);
  for (const { tag } of wanted) {
    const exact = supported.find((language) => language.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const base = tag.split('-')[0]?.toLowerCase();
    const byBase = supported.find((language) => language.split('-')[0] === base);
    if (byBase) return byBase;
  }
  return DEFAULT_LANGUAGE;
}
