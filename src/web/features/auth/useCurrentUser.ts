import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { RoleName } from '../../../common/roles';
import type { CurrentUser } from '../../../common/schemas/auth';
import { fetchCurrentUser } from './authApi';
import { clearDisplayCookies, readStoredAuth } from './storedAuth';

export const CURRENT_USER_QUERY_KEY = ['current-user'] as const;

/**
 * The signed-in user as the server sees it: `data` is the user, null when signed out, and
 * undefined while the first answer is pending. Screens share one cached request.
 */
export function useCurrentUser() {
  const query = useQuery<CurrentUser | null>({
    queryKey: CURRENT_USER_QUERY_KEY,
    queryFn: fetchCurrentUser,
    staleTime: 60_000,
  });

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

  useEffect(() => {
    if (user === null && readStoredAuth()) clearDisplayCookies();
  }, [user]);

  if (user) {
    return { role: user.role, email: user.email };
  }
  if (user === null) return ANONYMOUS;
  // Pending, or the status call failed (logged only): fall back to what the browser stored.
  const stored = readStoredAuth();
  if (stored) return { role: stored.role, email: stored.email };
  return ANONYMOUS;
}
