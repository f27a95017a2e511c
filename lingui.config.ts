import fs from 'node:fs';
import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';
import { CATALOGUE_AREAS, type CatalogueArea } from './src/web/app/catalogueAreas';

/**
 * The product's languages are the catalogues present: a language is added by adding its
 * catalogues (see README, "Languages"), not by changing code. English is the source language:
 * its catalogues hold the spec's wording as the code has it.
 *
 * The browser's catalogues follow src/web/app/catalogueAreas.ts; the server's holds what it
 * writes itself (mail).
 */
const WEB = 'src/web';
const TESTS = ['**/*.test.ts', '**/*.test.tsx'];
const inWeb = (folders: readonly string[]) => folders.map((folder) => `${WEB}/${folder}`);
const areas = Object.keys(CATALOGUE_AREAS) as CatalogueArea[];

export default defineConfig({
  sourceLocale: 'en',
  locales: fs
    .readdirSync(`${WEB}/locales`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort(),
  fallbackLocales: { default: 'en' },
  format: formatter({ origins: false, lineNumbers: false }),
  catalogs: [
    ...areas.map((area) => ({
      path: `${WEB}/locales/{locale}/${area}`,
      include: inWeb(CATALOGUE_AREAS[area]),
      // An area takes what no area before it took (staff: every feature the others leave).
      exclude: [
        ...areas
          .slice(0, areas.indexOf(area))
          .flatMap((before) => inWeb(CATALOGUE_AREAS[before]))
          // A folder is left out with everything in it.
          .map((source) => (/\.tsx?$/.test(source) ? source : `${source}/**`)),
        ...TESTS,
      ],
    })),
    { path: 'src/server/locales/{locale}/mail', include: ['src/server'], exclude: TESTS },
  ],
});
