import fs from 'node:fs';
import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

/**
 * The product's languages are the catalogues present: a language is added by adding its
 * catalogues (see README, "Languages"), not by changing code. English is the source language:
 * its catalogues hold the spec's wording as the code has it.
 *
 * The browser's catalogues are split the way its code is (vite.config.ts, CHUNK_GROUPS), so
 * that a page loads the messages of what it shows, in the active language only: the shell and
 * shared UI (app), the survey screens with the crisis panel (survey), the sign-in screens
 * (sign-in), the landing page (landing) and every staff screen (staff). The server's catalogue
 * holds what it writes itself: mail.
 */
const WEB = 'src/web';
const SURVEY = [`${WEB}/features/survey`, `${WEB}/features/crisis`, `${WEB}/features/demo-survey`];
const SIGN_IN = [
  `${WEB}/features/auth`,
  `${WEB}/features/password-reset`,
  `${WEB}/features/verify`,
  `${WEB}/features/second-factor`,
];
const LANDING = [`${WEB}/features/landing`, `${WEB}/features/not-found`];
const APP = [`${WEB}/app`, `${WEB}/ui`, `${WEB}/main.tsx`, `${WEB}/api.ts`, `${WEB}/config.ts`];
const TESTS = ['**/*.test.ts', '**/*.test.tsx'];

export default defineConfig({
  sourceLocale: 'en',
  locales: fs.readdirSync(`${WEB}/locales`).sort(),
  fallbackLocales: { default: 'en' },
  format: formatter({ origins: false, lineNumbers: false }),
  catalogs: [
    { path: `${WEB}/locales/{locale}/app`, include: APP, exclude: TESTS },
    { path: `${WEB}/locales/{locale}/survey`, include: SURVEY, exclude: TESTS },
    { path: `${WEB}/locales/{locale}/sign-in`, include: SIGN_IN, exclude: TESTS },
    { path: `${WEB}/locales/{locale}/landing`, include: LANDING, exclude: TESTS },
    {
      path: `${WEB}/locales/{locale}/staff`,
      include: [`${WEB}/features`],
      exclude: [...SURVEY, ...SIGN_IN, ...LANDING, ...TESTS],
    },
    { path: 'src/server/locales/{locale}/mail', include: ['src/server'], exclude: TESTS },
  ],
});
