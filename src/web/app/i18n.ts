import { setupI18n } from '@lingui/core';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE } from '../../common/languages';
import type { CatalogueArea } from './catalogueAreas';
import { LANGUAGES, loadCatalogues, loadedAreas, spokenLanguage } from './catalogues';

/**
 * The app's one translator. A page shows one language at a time; the server renders each page in
 * one synchronous pass, activating the page's language right before it (entry-server.tsx).
 */
export const i18n = setupI18n();

/** The page's language, known before its messages have arrived. */
let pageLanguage = DEFAULT_LANGUAGE;

/** Loads the areas' messages in the page's language (a screen's, before it shows). */
export function needCatalogues(areas: readonly CatalogueArea[]): Promise<void> {
  return loadCatalogues(i18n, pageLanguage, areas);
}

/**
 * Makes a language the page's at once (screens loading meanwhile fetch their messages in it) and
 * the translator's once the areas' messages have arrived.
 */
export async function activateLanguage(language: string, areas: readonly CatalogueArea[]): Promise<void> {
  pageLanguage = spokenLanguage(language);
  const chosen = pageLanguage;
  await loadCatalogues(i18n, chosen, areas);
  i18n.activate(chosen);
}

/** A year: the language someone chose stays chosen on this device. */
const LANGUAGE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/**
 * Switches the page to another language: the messages of everything loaded so far, then every
 * text on the screen, `<html lang>` and the cookie the server reads for the next page.
 */
export async function switchLanguage(language: string): Promise<void> {
  const spoken = spokenLanguage(language);
  await activateLanguage(spoken, ['app', ...loadedAreas()]);
  document.documentElement.lang = spoken;
  // biome-ignore lint/suspicious/noDocumentCookie: one small preference cookie; the Cookie Store API is not in every browser the product supports.
  document.cookie = `${LANGUAGE_COOKIE}=${spoken}; Path=/; Max-Age=${LANGUAGE_COOKIE_MAX_AGE_S}; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;
}

export { LANGUAGES };
