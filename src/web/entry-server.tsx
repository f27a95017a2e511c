/**
 * The server's renderer of the public screens' first paint: the app's own routes and components,
 * rendered by React on the server (built by `vite build --ssr` next to the web app, and loaded by
 * src/server/features/shell/render.ts). The browser hydrates what it returns (main.tsx).
 */
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { createApi, type Transport } from './api';
import { App, createQueryClient } from './app/App';
import { CATALOGUE_AREAS, type CatalogueArea } from './app/catalogueAreas';
import { loadCatalogues, spokenLanguage } from './app/catalogues';
import {
  isFirstPaintScreen,
  loadFirstPaintData,
  RECORDED_ANSWERS_ID,
  type RecordedAnswer,
  recordingTransport,
} from './app/firstPaint';
import { i18n } from './app/i18n';
import { routes } from './app/routes';
import { applyAppConfig } from './config';

export interface FirstPaintRequest {
  /** The page's path and query, as the browser asked for it. */
  url: string;
  /** The deployment's settings (brand name, demo video, analytics), as the browser gets them. */
  settings: unknown;
  /** Asks the API for a GET path on behalf of the visitor (their cookies). */
  transport: Transport;
  /** The visitor's language (their choice, else their browser's), as `<html lang>` says. */
  language: string;
}

export interface FirstPaint {
  /** What goes inside `<div id="root">`. */
  html: string;
  /**
   * The API's answers the render used, for the browser to hydrate from the same data: a JSON
   * data block (never run, so the strict CSP allows it), to go right after the root element.
   */
  data: string;
}

/** `<` escaped, so no text in the answers can end the block. */
function dataBlock(answers: RecordedAnswer[]): string {
  const json = JSON.stringify(answers).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${RECORDED_ANSWERS_ID}">${json}</script>`;
}

const handler = createStaticHandler(routes);

/** The first paint of a public screen, or null for a screen the browser draws alone. */
export async function renderFirstPaint({
  url,
  settings,
  transport,
  language,
}: FirstPaintRequest): Promise<FirstPaint | null> {
  const request = new Request(new URL(url, 'http://localhost'));
  const { pathname } = new URL(request.url);
  if (!isFirstPaintScreen(pathname)) return null;
  applyAppConfig(settings);
  const answers: RecordedAnswer[] = [];
  const queryClient = createQueryClient();
  const spoken = spokenLanguage(language);
  await loadFirstPaintData(queryClient, pathname, createApi(recordingTransport(transport, answers)), spoken);
  const context = await handler.query(request);
  // No route of the app redirects or answers on its own: anything else is left to the browser.
  if (context instanceof Response) return null;
  const router = createStaticRouter(handler.dataRoutes, context);
  await loadCatalogues(i18n, spoken, Object.keys(CATALOGUE_AREAS) as CatalogueArea[]);
  // Nothing awaits between choosing the language and rendering: no other page's render can
  // interleave and switch it.
  i18n.activate(spoken);
  const html = renderToString(
    <App queryClient={queryClient}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </App>,
  );
  queryClient.clear();
  return { html, data: dataBlock(answers) };
}
