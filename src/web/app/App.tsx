import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useEffect } from 'react';
import { mayPassOnRetry } from '../api';
import { i18n } from './i18n';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A refusal will not change on retry; network hiccups and server failures get one more try.
        retry: (failureCount, error) => failureCount < 1 && mayPassOnRetry(error),
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

/** Calls `onRunning` once the app's first render is on the screen and its handlers are live. */
function Running({ onRunning }: { onRunning: () => void }) {
  useEffect(() => onRunning(), [onRunning]);
  return null;
}

/**
 * The app around its router, the same on the server that renders a first paint and in the
 * browser that hydrates it: the two trees must match element for element.
 */
export function App({
  queryClient,
  onRunning,
  children,
}: {
  queryClient: QueryClient;
  onRunning?: () => void;
  children: React.ReactNode;
}) {
  return (
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </I18nProvider>
      {onRunning && <Running onRunning={onRunning} />}
    </StrictMode>
  );
}
