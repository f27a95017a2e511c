import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { DASHBOARD_EVENT, type DashboardData, DashboardEvent } from '../../../common/schemas/dashboard';
import { DASHBOARD_EVENTS_URL, DASHBOARD_QUERY_KEY } from './dashboardApi';

export type LiveState = 'connecting' | 'live' | 'offline';

/** The first retry after a failure waits this long; each failure in a row doubles it... */
const RECONNECT_FIRST_DELAY_MS = 1_000;
/** ...up to this. */
export const RECONNECT_MAX_DELAY_MS = 30_000;
/** A connection that has not opened by then counts as failed (a proxy may hold it open silently). */
const CONNECT_TIMEOUT_MS = 15_000;

/** How long to wait before connection attempt number `failures + 1`. */
export function reconnectDelay(failures: number): number {
  return Math.min(RECONNECT_MAX_DELAY_MS, RECONNECT_FIRST_DELAY_MS * 2 ** Math.max(0, failures - 1));
}

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
 * replaces the cached answer, so cards, table and charts update in place. The server starts
 * every connection with a fresh snapshot, so nothing missed while disconnected stays missing.
 *
 * Reconnecting is ours, not EventSource's: it gives up for good on a refusal (CLOSED) and
 * retries a lost server forever at its own pace while saying "connecting". Here any failure
 * (an error, or no answer within CONNECT_TIMEOUT_MS) shows the offline state and retries
 * with a doubling delay, at once when the browser says it is back online.
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
    let source: EventSource | null = null;
    let failures = 0;
    let retryTimer: number | undefined;
    let openTimer: number | undefined;
    let stopped = false;

    const closeSource = () => {
      window.clearTimeout(openTimer);
      source?.close();
      source = null;
    };

    const fail = () => {
      closeSource();
      if (stopped) return;
      failures += 1;
      setState('offline');
      window.clearTimeout(retryTimer);
      retryTimer = window.setTimeout(connect, reconnectDelay(failures));
    };

    function connect() {
      window.clearTimeout(retryTimer);
      closeSource();
      // The first attempt says "connecting"; later ones keep saying "offline" until one opens.
      if (failures === 0) setState('connecting');
      const current = new EventSource(DASHBOARD_EVENTS_URL, { withCredentials: true });
      source = current;
      openTimer = window.setTimeout(fail, CONNECT_TIMEOUT_MS);
      current.addEventListener('open', () => {
        window.clearTimeout(openTimer);
        failures = 0;
        setState('live');
      });
      current.addEventListener('error', () => {
        if (source === current) fail();
      });
      current.addEventListener(DASHBOARD_EVENT, (event: MessageEvent<string>) => {
        if (applyEvent(queryClient, event.data)) setUpdates((count) => count + 1);
      });
    }

    const retryWhenOnline = () => {
      if (failures > 0) connect();
    };

    connect();
    window.addEventListener('online', retryWhenOnline);
    return () => {
      stopped = true;
      window.removeEventListener('online', retryWhenOnline);
      window.clearTimeout(retryTimer);
      closeSource();
    };
  }, [enabled, queryClient]);

  return { state, updates };
}
