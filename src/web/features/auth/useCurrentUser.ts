import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import type { RoleName } from '../../../common/roles';
import { type Api, api } from '../../api';
import { fetchCurrentUser } from './authApi';
import { clearDisplayCookies, readStoredAuth } from './storedAuth';

export const CURRENT_USER_QUERY_KEY = ['current-user'] as const;

/** Who is signed in, asked of the server over `client` (the server's renderer passes its own). */
export function currentUserQuery(client: Api = api) {
  return queryOptions({
    queryKey: CURRENT_USER_QUERY_KEY,
    queryFn: () => fetchCurrentUser(client),
    staleTime: 60_000,
  });
}

/**
 * The signed-in user as the server sees it: `data` is the user, null when signed out, and
 * undefined while the first answer is pending. Screens share one cached request.
 */
export function useCurrentUser() {
  const query = useQuery(currentUserQuery());

  useEffect(() => {
    if (query.error) console.error('Could not load the current user', query.error);
  }, [query.error]);

  return query;
}

export type AuthRole = 'anonymous' | RoleName;

export interface AuthState {
  role: AuthRole;
  email: string | null;
}

const ANONYMOUS: AuthState = { role: 'anonymous', email: null };

/**
 * The header's view of who is signed in (spec section 4): taken from the stored display
 * cookies (token plus email) while the server has not answered yet, and from `/api/user/`
 * once it has. When the server says nobody is signed in, stale display cookies are removed
 * (session storage is kept: it may hold survey answers waiting for this very login).
 */
export function useAuthState(): AuthState {
  const { data: user } = useCurrentUser();
  const stored = useStoredAuth();

  useEffect(() => {
    if (user === null && readStoredAuth()) clearDisplayCookies();
  }, [user]);

  if (user) {
    return { role: user.role, email: user.email };
  }
  if (user === null || !stored) return ANONYMOUS;
  // Pending, or the status call failed (logged only): fall back to what the browser stored.
  return { role: stored.role, email: stored.email };
}

const noSubscription = () => () => {};

/**
 * What the display cookies say. A page the server rendered knew no cookie of the browser's, so
 * hydration reads none either (the server's snapshot), and the header follows them right after.
 */
function useStoredAuth() {
  const token = useSyncExternalStore(noSubscription, storedAuthKey, () => '');
  return token ? readStoredAuth() : null;
}

/** The stored display state as one string, unchanged while the cookies are. */
function storedAuthKey(): string {
  const stored = readStoredAuth();
  return stored ? `${stored.role} ${stored.email}` : '';
}
