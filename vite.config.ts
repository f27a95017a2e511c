import { defineConfig, type Plugin } from 'vite';
import { endpointEntriesForTheBrowser } from './scripts/vite-endpoint-entries.ts';
import { linguiCatalogues, linguiMacros } from './scripts/vite-lingui.ts';
import { precompress } from './scripts/vite-precompress.ts';

/** The shared UI that only staff screens use (tables, confirmations, load errors, chart sizing). */
const STAFF_UI =
  /[\\/]src[\\/]web[\\/]ui[\\/](ConfirmDialog|Table|LoadError|useMediaQuery)\.(tsx?|module\.css)$/;
/** The shared UI that only the sign-in group's screens and a staff invitation use. */
const SIGN_IN_UI = /[\\/]src[\\/]web[\\/]ui[\\/]NewPasswordFields\.tsx$/;

/**
 * Which chunk a module goes into (output.codeSplitting): each public page loads the shared app
 * chunk and its own screen's chunk, the survey pages and the sign-in pages one more for what
 * their screens share. Left to itself the bundler made a chunk of every small module two
 * screens share (the spinner, a field, a redirect rule: 0.1 to 1 KiB each), and every response
 * costs about 1 KiB of headers: the survey link loaded 12 scripts. Measured with
 * `npm run bench -- pages`.
 * - zod: the schema library, on its own: no public page loads it to draw itself or to take the
 *   server's first paint over. Answers are parsed with the contract's own copy of their
 *   endpoint's module, which a call loads the first time it parses one (api.ts and
 *   contractModules in scripts/vite-endpoint-entries.ts), and the answers the server rendered a
 *   page from are not parsed again. The screens take the contract's plain values from
 *   schemas/values.ts. No public page loads it before it can be used: the sign-in screens load
 *   the passkey and unconfirmed-address contracts (whose schemas bring it) when they are used.
 * - app: the browser's entry (main.tsx) with the libraries every screen runs on, the shell, the
 *   shared UI and the small shared pieces of features (sign-in state, asking for a code). The entry
 *   is in it, so the page's script tag loads it directly: no entry chunk of its own to wait for.
 * - survey: what the survey screens share (form, answers, crisis support, the rule of which
 *   instrument items are asked): about 10 KB, not loaded by the other public pages. No schema:
 *   a survey's answers are parsed with the contract's copy of its modules, and the stored draft
 *   only when there is one (storage.ts). Nor the instrument library: a survey brings its own
 *   instruments' forms, and the library's texts load only with the staff screens that show
 *   them. The staff screens that show survey questions (templates, settings) load this chunk
 *   too, with the survey form they do not use.
 * - sign-in: what the login, registration and password-reset screens share (single sign-on,
 *   passkeys, the new-password fields, the step that takes an emailed code). A survey loads the
 *   code step only once its answers wait for one (SurveyForm.tsx): it is no part of the first paint.
 * - staff-ui: the shared UI only staff screens use (SIGN_IN_UI and STAFF_UI stay out of app, so
 *   that the public pages do not load them).
 * Each screen (`*Screen.tsx`) stays a chunk of its own, however small: the build manifest names
 * a screen only by its own chunk, and the server preloads a screen's code from that (preload.ts).
 * Not the survey screens: they are in the survey group, whose chunk the server preloads for them
 * by its name (GROUPED_SCREENS in src/server/features/shell/routes.ts), one script less.
 * A group also takes what its modules import, and the higher priority chooses first: zod comes
 * first, and imports nothing of ours; then app, so the libraries and the shared values stay in
 * it rather than in a screen's group. The schemas' modules belong to no group: the staff screens
 * that build forms from them take them, and each endpoint module's copy is a chunk its first
 * parse loads.
 * What one screen alone uses stays in its chunk: the dashboard's charts load only there.
 */
const CHUNK_GROUPS = [
  {
    name: 'zod',
    test: /[\\/]node_modules[\\/]zod[\\/]/,
    priority: 3,
  },
  {
    name: 'survey',
    test: /[\\/]src[\\/](web[\\/]features[\\/](survey[\\/]|crisis[\\/])|common[\\/]instruments[\\/](types|conditional)\.ts$)/,
    priority: 1,
  },
  {
    name: 'sign-in',
    test: (id: string) =>
      SIGN_IN_UI.test(id) ||
      /[\\/]src[\\/](web[\\/]features[\\/]((auth|password-reset)[\\/](?!\w*Screen\.tsx$)|second-factor[\\/]passkeys\.ts$|verify[\\/]CodeStep\.(tsx|module\.css)$))/.test(
        id,
      ),
    priority: 1,
  },
  {
    name: 'app',
    test: (id: string) =>
      /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack)[\\/]/.test(id) ||
      (/[\\/]src[\\/]web[\\/](main\.tsx|(ui|app)[\\/]|(api|config|features[\\/](survey[\\/]likert|auth[\\/]loginPath|verify[\\/]verifyApi))\.ts$)/.test(
        id,
      ) &&
        !STAFF_UI.test(id) &&
        !SIGN_IN_UI.test(id)),
    priority: 2,
  },
  {
    name: 'staff-ui',
    test: STAFF_UI,
    priority: 1,
  },
];

/**
 * React Router's components the app never renders (its <Form>, fetchers' forms, the framework
 * mode's links) stayed in every page's code: their `React.forwardRef(...)` and `React.memo(...)`
 * calls and the `X.displayName = "..."` lines after them read as side effects to the bundler.
 * Both are pure: marked so, and the names (which only React's developer tools show) left out,
 * the unused ones drop out of the app chunk (about 1 KB brotli). What the app uses is unchanged.
 */
function pureReactRouterComponents(): Plugin {
  return {
    name: 'wellspring:pure-react-router-components',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]node_modules[\\/]react-router[\\/]dist[\\/]/ },
      handler(code) {
        const marked = code
          .replace(/^\w+\.displayName = "[^"]*";$/gm, '')
          .replace(/= (React\d*\.(?:forwardRef|memo|createContext)\()/g, '= /* @__PURE__ */ $1');
        // Every line stays where it was: the library's own source map still holds.
        return { code: marked, map: null };
      },
    },
  };
}

/**
 * Brotli at its highest level (precompress) takes seconds by design: once per build, so that no
 * request pays for it. Not a slowness worth a warning on every build. Nor are the "use client"
 * marks of React Router and TanStack Query, which mean nothing to an app without server components.
 */
const BUILD_CHECKS = { bundlerTimings: false, moduleLevelDirective: false };

/**
 * The web app is built into dist/web and served by our server under /react-static/.
 * Screen routes (/, /login/, ...) are answered by the server with the built index.html,
 * so the router itself works from the site root and only asset URLs carry the base path.
 *
 * `vite build --ssr` builds the server's renderer of the public screens' first paint
 * (entry-server.tsx) into dist/web/.server/: the same components and CSS-module class names as
 * the browser's build, with React and the app's libraries bundled in, so production installs
 * none of the browser's libraries.
 */
export default defineConfig(({ isSsrBuild, command }) => ({
  root: 'src/web',
  base: '/react-static/',
  plugins: [
    linguiMacros({ production: command === 'build' }),
    linguiCatalogues(),
    endpointEntriesForTheBrowser(),
    ...(isSsrBuild ? [] : [pureReactRouterComponents(), precompress()]),
  ],
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  ...(isSsrBuild
    ? {
        ssr: { noExternal: true, target: 'node' as const },
        // React's production build on the server too, whatever NODE_ENV the server runs with.
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        build: {
          ssr: 'entry-server.tsx',
          outDir: '../../dist/web/.server',
          emptyOutDir: true,
          copyPublicDir: false,
          rolldownOptions: { checks: BUILD_CHECKS },
        },
      }
    : {
        build: {
          outDir: '../../dist/web',
          // The renderer (dist/web/.server) is built after the web app, and empties its own folder.
          emptyOutDir: true,
          // The strict CSP forbids inline scripts; every chunk must be a file.
          assetsInlineLimit: 0,
          // .vite/manifest.json: the server reads which files each screen became, to preload them.
          manifest: true,
          // Current browsers all know <link rel="modulepreload"> (Safari since 17); one that does
          // not still runs the app, only without fetching ahead: not worth code on every page.
          modulePreload: { polyfill: false },
          rolldownOptions: {
            output: {
              codeSplitting: { groups: CHUNK_GROUPS },
              // A catalogue's file says whose messages it holds (messages-es-survey-<hash>.js).
              chunkFileNames: (chunk) => {
                const catalogue = chunk.facadeModuleId?.match(/[\\/]locales[\\/]([\w-]+)[\\/]([\w-]+)\.po$/);
                return catalogue
                  ? `assets/messages-${catalogue[1]}-${catalogue[2]}-[hash].js`
                  : 'assets/[name]-[hash].js';
              },
            },
            // zod's schema builders, chained checks included, have no side effects: a schema no
            // screen uses (a request only the server parses) is left out of the browser's code.
            treeshake: { manualPureFunctions: ['z'] },
            checks: BUILD_CHECKS,
          },
        },
      }),
  server: {
    // `npm run dev`: API calls and pages go to the server it runs beside Vite.
    proxy: { '/api': 'http://127.0.0.1:8000' },
  },
}));
