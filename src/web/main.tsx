import './ui/tokens.css';
import './ui/base.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { mayPassOnRetry } from './api';
import { routes } from './app/routes';

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

const router = createBrowserRouter(routes);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
