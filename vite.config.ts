import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './scripts/vite-precompress.ts';

/**
 * The code is written against React's API (imports from `react`, typed by @types/react), but
 * the browser runs Preact through its compatibility layer. Measured with `npm run bench -- pages`:
 * with React 19 and react-dom every public page loaded 127-143 KiB of compressed JavaScript
 * before it was usable (budget 80 KiB) and scored 0.77-0.93 (budget 0.95) on a phone; with
 * preact/compat in their place the same build is about 54 KiB lighter (landing page: 130 to 76
 * KiB), the rest of the budget being met by the shared contract's use of zod/mini.
 * React Router 7 and TanStack Query 5 run on it unchanged (the browser tests cover every screen).
 * Order matters: the subpaths come before the bare package names.
 */
const PREACT_ALIASES = [
  // Also sets how Preact schedules effects (see that file).
  {
    find: /^react-dom\/client$/,
    replacement: fileURLToPath(new URL('src/web/preact-client.ts', import.meta.url)),
  },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

/**
 * Which chunk a module goes into (output.codeSplitting): each public page loads the shared app
 * chunk and its own screen's chunk, and the survey pages one more for the survey contract.
 * Left to itself the bundler made a chunk of every small module two screens share (the
 * spinner, a field, a redirect rule: 0.1 to 1 KiB each), and every response costs about 1 KiB
 * of headers: the survey link loaded 12 scripts. Measured with `npm run bench -- pages`.
 * - app: the libraries every screen runs on, the shared UI and the small shared pieces of
 *   features (sign-in state, the code step), loaded with the entry on every page;
 * - survey-contract: the survey and template schemas (with the crisis resources and risk tiers
 *   they name), only for the screens that use them.
 * A group also takes what its modules import, and the higher priority chooses first: app comes
 * first, so the libraries and the common schemas stay in it rather than in survey-contract.
 * What one screen alone uses stays in its chunk: the dashboard's charts load only there.
 */
const CHUNK_GROUPS = [
  {
    name: 'survey-contract',
    test: /[\\/]src[\\/]common[\\/](risk[\\/]|schemas[\\/](surveys|templates)\.ts)/,
    priority: 1,
  },
  {
    name: 'app',
    test: (id: string) =>
      /[\\/]node_modules[\\/](preact|react-router|@tanstack|zod)[\\/]/.test(id) ||
      /[\\/]src[\\/]web[\\/](ui|app)[\\/]/.test(id) ||
      /[\\/]src[\\/]web[\\/](api|config|preact-client|features[\\/]survey[\\/]likert)\.ts$/.test(id) ||
      /[\\/]src[\\/]web[\\/]features[\\/](verify[\\/]|auth[\\/](?!(Login|Register)Screen))/.test(id),
    priority: 2,
  },
];

/**
 * The web app is built into dist/web and served by our server under /react-static/.
 * Screen routes (/, /login/, ...) are answered by the server with the built index.html,
 * so the router itself works from the site root and only asset URLs carry the base path.
 */
export default defineConfig({
  root: 'src/web',
  base: '/react-static/',
  plugins: [precompress()],
  resolve: { alias: PREACT_ALIASES, dedupe: ['preact'] },
  // JSX compiles to the automatic runtime's `react/jsx-runtime`, which the aliases turn into Preact's.
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  css: {
    // Readable, stable class names (Header_inner): the server's HTML shell draws the first paint
    // with the same classes the app then renders (src/server/features/shell/first-paint.ts).
    // Every CSS module file name is unique, so the names cannot collide.
    modules: {
      generateScopedName: (local, file) => `${file.split('/').pop()?.replace('.module.css', '')}_${local}`,
    },
  },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // The strict CSP forbids inline scripts; every chunk must be a file.
    assetsInlineLimit: 0,
    // .vite/manifest.json: the server reads which files each screen became, to preload them.
    manifest: true,
    rolldownOptions: {
      output: { codeSplitting: { groups: CHUNK_GROUPS } },
      // Brotli at its highest level (precompress) takes seconds by design: once per build, so
      // that no request pays for it. Not a slowness worth a warning on every build.
      checks: { bundlerTimings: false },
    },
  },
  server: {
    // `npx vite` for UI work: API calls go to a locally running server (npm run dev).
    proxy: { '/api': 'http://127.0.0.1:8000' },
  },
});
