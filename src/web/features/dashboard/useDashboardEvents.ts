import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { DASHBOARD_EVENT, type DashboardData, DashboardEvent } from '../../../common/schemas/dashboard';
import { DASHBOARD_EVENTS_URL, DASHBOARD_QUERY_KEY } from './dashboardApi';

export type LiveState = 'connecting' | 'live' | 'offline';

/** Applies one event; true when it brought new responses (not merely the first snapshot). */
function applyEvent(queryClient: QueryClient, raw: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    json = null;
  }
  const parsed = DashboardEvent.safeParse(json);
  if (!parsed.success) {
    // A notice without usable numbers still means "something changed": ask for them.
    void queryClient.invalidateQueries({ queryKey: DASHBOARD_QUERY_KEY });
    return false;
  }
  const previous = queryClient.getQueryData<DashboardData>(DASHBOARD_QUERY_KEY);
  queryClient.setQueryData(DASHBOARD_QUERY_KEY, parsed.data);
  return previous !== undefined && parsed.data.num_responses > previous.num_responses;
}

/**
 * Keeps the dashboard numbers current: each `dashboard` event carries the fresh data, which
 * replaces the cached answer, so cards, table and charts update in place. EventSource
 * reconnects by itself, and the server starts every connection with a fresh snapshot, so
 * nothing missed while disconnected stays missing.
 * `updates` counts the events that brought new responses, for the screen's live announcement.
 */
export function useDashboardEvents(enabled: boolean) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  const [updates, setUpdates] = useState(0);

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') {
      setState('offline');
      return;
    }
    setState('connecting');
    const source = new EventSource(DASHBOARD_EVENTS_URL, { withCredentials: true });
    const onOpen = () => setState('live');
    const onError = () => {
      // CLOSED means the server refused (e.g. the session ended): EventSource will not retry.
      setState(source.readyState === EventSource.CLOSED ? 'offline' : 'connecting');
    };
    const onDashboard = (event: MessageEvent<string>) => {
      if (applyEvent(queryClient, event.data)) setUpdates((count) => count + 1);
    };

    source.addEventListener('open', onOpen);
    source.addEventListener('error', onError);
    source.addEventListener(DASHBOARD_EVENT, onDashboard);
    return () => {
      source.removeEventListener('open', onOpen);
      source.removeEventListener('error', onError);
      source.removeEventListener(DASHBOARD_EVENT, onDashboard);
      source.close();
    };
  }, [enabled, queryClient]);

  return { state, updates };
}
