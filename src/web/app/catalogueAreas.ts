/**
 * Which catalogue holds the messages of a piece of the web app: its messages are split the way
 * its code is (vite.config.ts, CHUNK_GROUPS), so a page loads the messages of what it shows, in
 * the active language only. Read by the extraction (lingui.config.ts), the browser
 * (catalogues.ts) and the server, which preloads a page's catalogues with its code.
 * Paths are relative to src/web.
 */
export const CATALOGUE_AREAS = {
  /**
   * The shell and the shared UI, on every page, with the pieces of features every page's code
   * carries (vite.config.ts, the app chunk): the page-not-found screen, the answer scale.
   */
  app: ['app', 'ui', 'main.tsx', 'api.ts', 'config.ts', 'features/not-found', 'features/survey/likert.ts'],
  /** The survey screens with the crisis panel. */
  survey: ['features/survey', 'features/crisis', 'features/demo-survey'],
  /** Signing in, registering, second factors and password resets. */
  'sign-in': ['features/auth', 'features/password-reset', 'features/verify', 'features/second-factor'],
  /** The landing page. */
  landing: ['features/landing'],
  /** Every other feature: the staff's and a signed-in student's own screens. */
  staff: ['features'],
} as const;

export type CatalogueArea = keyof typeof CATALOGUE_AREAS;

/** The area of a source file of src/web (relative path): the first whose folders hold it. */
export function catalogueAreaOf(source: string): CatalogueArea {
  const areas = Object.entries(CATALOGUE_AREAS) as [CatalogueArea, readonly string[]][];
  const found = areas.find(([, folders]) =>
    folders.some((folder) => source === folder || source.startsWith(`${folder}/`)),
  );
  return found ? found[0] : 'app';
}

/**
 * The catalogues a screen of an area shows messages from: its own and the shell's. A staff
 * screen may show any public area's pieces too (a survey preview, a sign-in step), so it loads
 * them all; they are small beside its own.
 */
export function screenCatalogueAreas(area: CatalogueArea): CatalogueArea[] {
  return area === 'staff' ? (Object.keys(CATALOGUE_AREAS) as CatalogueArea[]) : ['app', area];
}

/** A catalogue's source, relative to src/web (as the build manifest names it). */
export function catalogueSource(language: string, area: CatalogueArea): string {
  return `locales/${language}/${area}.po`;
}
