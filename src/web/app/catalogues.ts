import type { I18n, Messages } from '@lingui/core';
import { DEFAULT_LANGUAGE } from '../../common/languages';
import { type CatalogueArea, catalogueSource } from './catalogueAreas';

/**
 * Every catalogue of every language, each its own file fetched only when asked for: a page loads
 * its areas' messages in the active language and nothing else.
 */
const CATALOGUES = import.meta.glob<{ messages: Messages }>('../locales/*/*.po');

function catalogueKey(language: string, area: CatalogueArea): string {
  return `../${catalogueSource(language, area)}`;
}

/** The languages the app speaks: those it has catalogues for, the default first. */
export const LANGUAGES: readonly string[] = [
  ...new Set(Object.keys(CATALOGUES).map((key) => key.split('/')[2] as string)),
].sort((a, b) => (a === DEFAULT_LANGUAGE ? -1 : b === DEFAULT_LANGUAGE ? 1 : a.localeCompare(b)));

/** The language itself if the app speaks it, else the default. */
export function spokenLanguage(language: string | null | undefined): string {
  return language && LANGUAGES.includes(language) ? language : DEFAULT_LANGUAGE;
}

const loaded = new Map<string, Promise<void>>();

/**
 * Adds a catalogue's messages without telling the app that the language changed: they are for a
 * screen not yet drawn (lazyScreen.ts loads them before it), so nothing on the page reads them.
 * `i18n.load` would re-render the whole app meanwhile, in the middle of the navigation to that
 * screen, which then settles before the screen is drawn (a logout from the survey would find the
 * survey still there and be sent to the login page). Lingui's loader that does not announce
 * itself is not part of its typed API, hence the check; without it, the announcing one.
 */
function addMessages(i18n: I18n, language: string, messages: Messages): void {
  const quiet = (i18n as unknown as { _load?: (language: string, messages: Messages) => void })._load;
  if (typeof quiet === 'function') quiet.call(i18n, language, messages);
  else i18n.load(language, messages);
}

/** Loads the areas' messages of one language into `i18n` (each once), without activating it. */
export function loadCatalogues(i18n: I18n, language: string, areas: readonly CatalogueArea[]): Promise<void> {
  return Promise.all(
    areas.map((area) => {
      const key = catalogueKey(language, area);
      let loading = loaded.get(key);
      if (!loading) {
        const load = CATALOGUES[key];
        if (!load) return Promise.resolve();
        loading = load().then(({ messages }) => addMessages(i18n, language, messages));
        // A failed fetch (a network hiccup) is tried again the next time it is needed.
        loading.catch(() => loaded.delete(key));
        loaded.set(key, loading);
      }
      return loading;
    }),
  ).then(() => undefined);
}

/** Which areas' messages are loaded (in any language): switching language loads them again. */
export function loadedAreas(): CatalogueArea[] {
  return [
    ...new Set([...loaded.keys()].map((key) => key.split('/')[3]?.replace(/\.po$/, '') as CatalogueArea)),
  ];
}
