import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { escapeHtml } from './html';

/** Every screen of the web app (spec section 2); each answers with the app shell. */
export const SCREEN_ROUTES = [
  '/',
  '/login/',
  '/register/',
  '/survey/',
  '/survey/link/:hashLink/',
  '/demo-survey/',
  '/dashboard/',
  '/admin/survey-templates/',
  '/schedule-survey/',
] as const;

/**
 * Vite names every file under assets/ after a hash of its content: a changed file gets a new
 * name, so browsers and proxies may keep these for a year without asking again.
 */
export const HASHED_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** The few unhashed files (favicon) keep their name across releases: revalidate them each time. */
const UNHASHED_FILE_CACHE_CONTROL = 'no-cache';
/** The shell names the current release's assets: it must never be served from a stale copy. */
export const SHELL_CACHE_CONTROL = 'no-cache';

const TITLE = /<title>[^<]*<\/title>/;
const CONFIG_META = '<meta name="app-config" content="{}" />';

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
      prefix: '/react-static/',
      index: false,
      wildcard: true,
      // The build writes .br and .gz twins of each asset (scripts/vite-precompress.ts); the
      // browser gets the smallest it accepts, with its Content-Encoding and Vary: Accept-Encoding.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, file) => {
        reply.header(
          'Cache-Control',
          file.startsWith(hashedAssets) ? HASHED_ASSET_CACHE_CONTROL : UNHASHED_FILE_CACHE_CONTROL,
        );
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

  const sendShell = (status: number) => async (_request: unknown, reply: import('fastify').FastifyReply) => {
    if (!shell) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app has not been built yet. Run "npm run build".');
    }
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', SHELL_CACHE_CONTROL)
      .send(shell);
  };

  for (const route of SCREEN_ROUTES) {
    const withoutSlash = route.replace(/\/$/, '');
    app.get(route, { schema: { hide: true } }, sendShell(200));
    if (withoutSlash) app.get(withoutSlash, { schema: { hide: true } }, sendShell(200));
  }

  // Unknown pages get the shell too (its router shows "page not found"), with an honest 404.
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    if (request.url.startsWith('/api/') || request.url.startsWith('/react-static/')) {
      return reply
        .status(404)
        .send({ success: false, message: `No such endpoint: GET ${request.url.split('?')[0]}` });
    }
    return sendShell(404)(request, reply);
  });
};
