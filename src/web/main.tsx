import './ui/tokens.css';
import './ui/base.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { mayPassOnRetry } from './api';
import { routes } from './app/routes';
import { fetchCurrentUser } from './features/auth/authApi';
import { CURRENT_USER_QUERY_KEY } from './features/auth/useCurrentUser';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal will not change on retry; network hiccups and server failures get one more try.
      retry: (failureCount, error) => failureCount < 1 && mayPassOnRetry(error),
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});

type Router = ReturnType<typeof createBrowserRouter>;

/** Resolves once the router has loaded the code of the screen the page was opened on. */
function firstScreenLoaded(router: Router): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

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

/**
 * A click on a link of the server-drawn first paint goes to the router, as it would once the
 * app has rendered: the visit stays one page, and the next screen can go back to this one.
 */
function routeFirstPaintLinks(container: HTMLElement, router: Router): () => void {
  const onClick = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest('a[href]');
    if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin) return;
    if (link.pathname === window.location.pathname && link.hash) return;
    event.preventDefault();
    void router.navigate(link.pathname + link.search + link.hash);
  };
  container.addEventListener('click', onClick);
  return () => container.removeEventListener('click', onClick);
}

/**
 * Starts the app in a few short tasks instead of one long one, so that a phone stays responsive
 * while it starts (Lighthouse's Total Blocking Time counts every task over 50 ms): the code is
 * run, then the router starts and asks for the screen's code, then that code runs, then the
 * screen is drawn.
 */
async function start(root: HTMLElement) {
  await nextTask();
  const router = createBrowserRouter(routes);
  const app = (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>
  );
  const reactRoot = createRoot(root);
  if (root.childElementCount === 0) {
    reactRoot.render(app);
    return;
  }
  // The server drew this public screen's first paint (src/server/features/shell/first-paint.ts),
  // the same markup the screen renders first. Rendering before the screen's code is here would
  // replace it with a loading state: the app waits for it, then replaces the markup in one
  // synchronous render, so no frame shows an empty or half-drawn page.
  const stopRoutingLinks = routeFirstPaintLinks(root, router);
  await firstScreenLoaded(router);
  await nextTask();
  stopRoutingLinks();
  root.replaceChildren();
  flushSync(() => reactRoot.render(app));
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

// Every screen shows who is signed in: ask right away, while the screen's code is on its way.
void queryClient.prefetchQuery({
  queryKey: CURRENT_USER_QUERY_KEY,
  queryFn: fetchCurrentUser,
  staleTime: 60_000,
});

void start(root);
