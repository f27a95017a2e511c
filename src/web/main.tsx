import './ui/tokens.css';
import './ui/base.css';
import type { QueryClient } from '@tanstack/react-query';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { createApi, fetchTransport } from './api';
import { App, createQueryClient } from './app/App';
import { spokenLanguage } from './app/catalogues';
import {
  loadFirstPaintData,
  RECORDED_ANSWERS_ID,
  type RecordedAnswer,
  replayingTransport,
} from './app/firstPaint';
import { activateLanguage } from './app/i18n';
import { routes } from './app/routes';
import { applyAppConfig, readAppConfigMeta } from './config';
import { currentUserQuery } from './features/auth/useCurrentUser';

/**
 * Resolves in a task of its own, so that the work before and the work after are two short tasks
 * instead of one long one, and the browser can answer a tap in between. A message, not a timer:
 * timers are held back in background tabs and under a test's paused clock.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** The API answers the server rendered the first paint from, or null on a page it did not render. */
function recordedAnswers(): RecordedAnswer[] | null {
  const script = document.getElementById(RECORDED_ANSWERS_ID);
  if (!script?.textContent) return null;
  try {
    return JSON.parse(script.textContent) as RecordedAnswer[];
  } catch (error) {
    console.error('The first paint came without readable data; drawing the page afresh.', error);
    return null;
  }
}

/**
 * Loads the code of the screens matching the current address, as the server did before it
 * rendered them: hydration must render the screen itself, not the loading state a lazy route
 * shows while its code is on its way.
 */
async function loadMatchedScreens(routeList: RouteObject[]): Promise<void> {
  const lazyMatches = matchRoutes(routeList, window.location)?.filter((match) => match.route.lazy) ?? [];
  await Promise.all(
    lazyMatches.map(async ({ route }) => {
      const load = route.lazy as () => Promise<Partial<RouteObject>>;
      Object.assign(route, { ...(await load()), lazy: undefined });
    }),
  );
}

/**
 * Marks the root once the app runs it: `data-app="hydrated"` when it took over the server's first
 * paint, `"rendered"` when it drew the page itself. Browser tests wait for it.
 */
const markRunning = (root: HTMLElement, how: 'hydrated' | 'rendered') => () => {
  root.dataset.app = how;
};

/**
 * A page the server rendered that the app cannot take over as it is (its first render differs):
 * React draws it afresh, and this says so, loudly, for it is a bug.
 */
function reportHydrationMismatch(error: unknown, info: { componentStack?: string }) {
  console.error(
    'The page the server rendered differs from the app; it was drawn afresh.',
    error,
    info.componentStack,
  );
}

/**
 * The server rendered this public screen (src/web/entry-server.tsx): the app takes it over in
 * place (hydration) from the same data the server used, so nothing on the screen changes.
 */
async function hydrateFirstPaint(
  root: HTMLElement,
  queryClient: QueryClient,
  answers: RecordedAnswer[],
  appMessages: Promise<void>,
) {
  await loadFirstPaintData(
    queryClient,
    window.location.pathname,
    createApi(replayingTransport(answers, fetchTransport)),
    spokenLanguage(document.documentElement.lang),
  );
  await loadMatchedScreens(routes);
  await appMessages;
  await nextTask();
  const router = createBrowserRouter(routes);
  // As a transition, React hydrates in slices of a few milliseconds and lets the browser answer a
  // tap in between; otherwise a long survey form is taken over in one long task.
  startTransition(() => {
    hydrateRoot(
      root,
      <App queryClient={queryClient} onRunning={markRunning(root, 'hydrated')}>
        <RouterProvider router={router} />
      </App>,
      { onRecoverableError: reportHydrationMismatch },
    );
  });
}

/**
 * Starts the app in a few short tasks instead of one long one, so that a phone stays responsive
 * while it starts (Lighthouse's Total Blocking Time counts every task over 50 ms).
 */
async function start(root: HTMLElement) {
  applyAppConfig(readAppConfigMeta(document));
  // The server chose the page's language (the visitor's choice, else their browser's): the
  // shell's messages in it load beside everything else, each screen's with its code (lazyScreen.ts).
  const appMessages = activateLanguage(spokenLanguage(document.documentElement.lang), ['app']);
  const queryClient = createQueryClient();
  const answers = recordedAnswers();
  if (answers && root.childElementCount > 0) {
    await hydrateFirstPaint(root, queryClient, answers, appMessages);
    return;
  }
  // Every screen shows who is signed in: ask right away, while the screen's code is on its way.
  void queryClient.prefetchQuery(currentUserQuery());
  await appMessages;
  await nextTask();
  const router = createBrowserRouter(routes);
  createRoot(root).render(
    <App queryClient={queryClient} onRunning={markRunning(root, 'rendered')}>
      <RouterProvider router={router} />
    </App>,
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
void start(root);
