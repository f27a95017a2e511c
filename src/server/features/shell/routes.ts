import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { catalogueAreaOf, catalogueSource, screenCatalogueAreas } from '../../../web/app/catalogueAreas';
import { unknownEndpoint } from '../../lib/errors';
import { requestLanguage, supportedLanguages } from '../../lib/languages';
import { escapeHtml } from './html';
import { type BuildManifest, screenChunkKey, screenPreloadTags, shellAssetFiles } from './preload';
import { loadRenderer, RENDERER_DIR, visitorTransport } from './render';

/** Vite's record of which files each source became (build.manifest in vite.config.ts). */
function readManifest(webRoot: string, exists: (file: string) => boolean): BuildManifest | null {
  const file = path.join(webRoot, '.vite', 'manifest.json');
  return exists(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as BuildManifest) : null;
}

/**
 * Every screen of the web app (spec section 2), each answered with the app shell, and the
 * source of its screen in src/web (as the build manifest names it), so the shell of a route can
 * have the browser fetch that screen's code right away (preload.ts).
 */
export const SCREEN_ROUTES = {
  '/': 'features/landing/LandingScreen.tsx',
  '/login/': 'features/auth/LoginScreen.tsx',
  '/register/': 'features/auth/RegisterScreen.tsx',
  '/forgot-password/': 'features/password-reset/ForgotPasswordScreen.tsx',
  '/reset-password/:token/': 'features/password-reset/ResetPasswordScreen.tsx',
  '/sign-in/second-factor/': 'features/second-factor/SecondFactorScreen.tsx',
  '/survey/': 'features/survey/SurveyScreen.tsx',
  '/survey/link/:hashLink/': 'features/survey/SurveyScreen.tsx',
  '/survey/invite/:token/': 'features/survey/InvitationSurveyScreen.tsx',
  '/demo-survey/': 'features/demo-survey/DemoSurveyScreen.tsx',
  '/dashboard/': 'features/dashboard/DashboardScreen.tsx',
  '/admin/survey-templates/': 'features/templates/TemplatesScreen.tsx',
  '/schedule-survey/': 'features/schedule/ScheduleScreen.tsx',
  '/admin/team/': 'features/team/TeamScreen.tsx',
  '/admin/activity/': 'features/activity/ActivityScreen.tsx',
  '/staff/invite/:token/': 'features/team/InvitationScreen.tsx',
  '/cases/': 'features/cases/CasesScreen.tsx',
  '/cases/:id/': 'features/cases/CaseScreen.tsx',
  '/students/:id/history/': 'features/cases/StudentHistoryScreen.tsx',
  '/admin/settings/': 'features/settings/SettingsScreen.tsx',
  '/admin/roster/': 'features/roster/RosterScreen.tsx',
  '/admin/records/': 'features/records/StudentRecordsScreen.tsx',
  '/account/records/': 'features/records/OwnRecordsScreen.tsx',
  '/admin/campaigns/': 'features/campaigns/CampaignsScreen.tsx',
  '/admin/campaigns/:id/not-answered/': 'features/campaigns/NotAnsweredScreen.tsx',
  '/admin/campaigns/:id/results/': 'features/campaigns/ResultsScreen.tsx',
} as const;

/**
 * The screens the build puts into a chunk group rather than a chunk of their own, by group
 * (vite.config.ts): a survey page then loads one script less before it can be used.
 */
const GROUPED_SCREENS: Partial<Record<string, string>> = {
  'features/survey/SurveyScreen.tsx': 'survey',
  'features/survey/InvitationSurveyScreen.tsx': 'survey',
};

/** The screens whose address carries a credential, and which of its parameters: never logged. */
const SCREEN_SECRET_PARAMS: { [Route in keyof typeof SCREEN_ROUTES]?: readonly string[] } = {
  '/survey/link/:hashLink/': ['hashLink'],
  '/survey/invite/:token/': ['token'],
  '/staff/invite/:token/': ['token'],
  '/reset-password/:token/': ['token'],
};

const ASSET_BASE = '/react-static/';

/** A script or stylesheet the build wrote under assets/ (any query string aside). */
const BUILT_SUBRESOURCE = new RegExp(`^${ASSET_BASE}assets/[^/?#]+\\.(js|css)(\\?|$)`);

/** Whether a request asks for one of the built app's scripts or stylesheets. */
export function isBuiltSubresource(url: string): boolean {
  return BUILT_SUBRESOURCE.test(url);
}

/**
 * Vite names every file under assets/ after a hash of its content: a changed file gets a new
 * name, so browsers and proxies may keep these for a year without asking again.
 */
const HASHED_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const HASHED_ASSET_OMITTED_HEADERS = ['ETag', 'Last-Modified', 'Accept-Ranges'];
/** The few unhashed files (favicon) keep their name across releases: revalidate them each time. */
const UNHASHED_FILE_CACHE_CONTROL = 'no-cache';
/**
 * The shell names the current release's assets: it must never be served from a stale copy. A
 * rendered page shows who is signed in (and an invitation whose student it names): for this
 * browser alone.
 */
const SHELL_CACHE_CONTROL = 'private, no-cache';

/**
 * Every screen the browser draws alone asks the server at once who is signed in
 * (src/web/main.tsx). The shell has the browser ask while the app's code is still on its way,
 * and the app's request is answered from this one. Credentials and mode match the app's `fetch`
 * (same origin, cookies included), or the browser would not reuse the answer. A rendered page
 * carries the answer its render used instead.
 */
const CURRENT_USER_PRELOAD =
  '<link rel="preload" href="/api/user/" as="fetch" crossorigin="use-credentials" />';

const TITLE = /<title>[^<]*<\/title>/;
const CONFIG_META = '<meta name="app-config" content="{}" />';
const ROOT_ELEMENT = '<div id="root"></div>';
const SHELL_LANGUAGE = '<html lang="en">';

export const shellRoutes: FastifyPluginAsync<{ webRoot: string; exists: (file: string) => boolean }> = async (
  app,
  { webRoot, exists },
) => {
  const indexFile = path.join(webRoot, 'index.html');
  const built = exists(indexFile);
  if (built) {
    const hashedAssets = path.join(webRoot, 'assets') + path.sep;
    await app.register(fastifyStatic, {
      root: webRoot,
      prefix: ASSET_BASE,
      index: false,
      wildcard: true,
      // The build writes .br and .gz twins of each asset (scripts/vite-precompress.ts); the
      // browser gets the smallest it accepts, with its Content-Encoding and Vary: Accept-Encoding.
      preCompressed: true,
      // The build manifest (screen preloads) and the renderer are the server's, not for browsers.
      allowedPath: (pathName) => !pathName.startsWith('/.vite/') && !pathName.startsWith(`/${RENDERER_DIR}/`),
      cacheControl: false,
      setHeaders: (reply, file) => {
        if (!file.startsWith(hashedAssets)) {
          reply.header('Cache-Control', UNHASHED_FILE_CACHE_CONTROL);
          return;
        }
        reply.header('Cache-Control', HASHED_ASSET_CACHE_CONTROL);
        // Kept as it is and never asked for again: validators and ranges would only add to the
        // headers of every script a page loads before it can be used.
        for (const name of HASHED_ASSET_OMITTED_HEADERS) reply.removeHeader(name);
      },
    });
  }

  // Rendered once: the shell differs between deployments (brand, options), never between requests.
  const shell = built
    ? fs
        .readFileSync(indexFile, 'utf8')
        .replace(
          TITLE,
          `<title>${escapeHtml(app.config.web.brandName)} Health - Mental Health Solutions for Universities</title>`,
        )
        .replace(
          CONFIG_META,
          `<meta name="app-config" content="${escapeHtml(JSON.stringify(app.config.web))}" />`,
        )
    : null;
  const manifest = built ? readManifest(webRoot, exists) : null;
  const loadedByShell = shell ? shellAssetFiles(shell, ASSET_BASE) : new Set<string>();
  const renderFirstPaint = built ? await loadRenderer(webRoot) : null;

  /**
   * The pages of one screen: the shared shell plus the preloads of that screen's code, either for
   * the browser to draw it (asking who is signed in at once), or around the first paint the
   * server rendered, with the styles that paint needs applied.
   */
  const pagesFor = (screenSource: string, language: string) => {
    if (!shell || !manifest) return null;
    const screenKey = screenChunkKey(manifest, screenSource, GROUPED_SCREENS[screenSource]);
    // The screen's messages in the page's language come with its code (lazyScreen.ts).
    const catalogues = screenCatalogueAreas(catalogueAreaOf(screenSource)).map((area) =>
      catalogueSource(language, area),
    );
    const preloads = (applyStyles: boolean) =>
      [screenKey, ...catalogues]
        .map((key) => screenPreloadTags(manifest, key, ASSET_BASE, { applyStyles, loadedByShell }))
        .join('');
    const head = (applyStyles: boolean, extra: string) =>
      shell
        .replace(SHELL_LANGUAGE, `<html lang="${escapeHtml(language)}">`)
        .replace('</head>', `${extra}${preloads(applyStyles)}</head>`);
    const drawnByBrowser = head(false, CURRENT_USER_PRELOAD);
    const rendered = head(true, '');
    return {
      drawnByBrowser,
      rendered: (html: string, data: string) =>
        rendered.replace(ROOT_ELEMENT, `<div id="root">${html}</div>${data}`),
    };
  };

  const notBuilt = (reply: FastifyReply) =>
    reply.status(503).type('text/plain').send('The web app has not been built yet. Run "npm run build".');
  const sendPage = (reply: FastifyReply, status: number, page: string) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', SHELL_CACHE_CONTROL)
      // The page is in the language its visitor chose (a cookie) or their browser asks for.
      .header('Vary', 'Accept-Language, Cookie')
      .send(page);

  /**
   * The public screens' first paint, rendered by React from the app's own components
   * (src/web/entry-server.tsx). A render that fails leaves the page to the browser, as before
   * there was a renderer: the visitor still gets the screen.
   */
  const firstPaint = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!renderFirstPaint) return null;
    try {
      return await renderFirstPaint({
        url: request.url,
        language: requestLanguage(request),
        settings: app.config.web,
        transport: visitorTransport(app, request, reply),
      });
    } catch (error) {
      request.log.error({ err: error }, 'Rendering the first paint failed; the browser draws the page');
      return null;
    }
  };

  for (const [route, screenSource] of Object.entries(SCREEN_ROUTES)) {
    const withoutSlash = route.replace(/\/$/, '');
    const pagesByLanguage = new Map(
      supportedLanguages().map((language) => [language, pagesFor(screenSource, language)]),
    );
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const pages = pagesByLanguage.get(requestLanguage(request));
      if (!pages) return notBuilt(reply);
      const rendered = await firstPaint(request, reply);
      return sendPage(
        reply,
        200,
        rendered ? pages.rendered(rendered.html, rendered.data) : pages.drawnByBrowser,
      );
    };
    const options = {
      schema: { hide: true },
      config: { secretParams: SCREEN_SECRET_PARAMS[route as keyof typeof SCREEN_ROUTES] ?? [] },
    };
    app.get(route, options, handler);
    if (withoutSlash) app.get(withoutSlash, options, handler);
  }

  // Unknown pages get the shell too (its router shows "page not found"), with an honest 404.
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    if (request.url.startsWith('/api/') || request.url.startsWith('/react-static/')) {
      throw unknownEndpoint('GET', request.url);
    }
    return shell
      ? sendPage(
          reply,
          404,
          shell.replace(SHELL_LANGUAGE, `<html lang="${escapeHtml(requestLanguage(request))}">`),
        )
      : notBuilt(reply);
  });
};
