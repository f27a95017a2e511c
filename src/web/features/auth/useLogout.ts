import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { logout } from './authApi';
import { clearStoredAuth } from './storedAuth';
import { CURRENT_USER_QUERY_KEY } from './useCurrentUser';

/**
 * Logout as the spec wants it: ask the server to end the session, and whatever it answers,
 * forget the user locally (display cookies, session storage, cached data) and go home.
 *
 * The way home comes first: a screen that needs a login (survey, dashboard, templates,
 * schedule) sends a signed-out user to the login page, so it must be gone before the cached
 * user is cleared, or it would win the race and land the user on /login/?next=... instead.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  return useCallback(async () => {
    try {
      await logout();
    } catch (error) {
      console.error('Logout request failed; signing out locally anyway', error);
    }
    // flushSync: the promise settles once the home screen is on the page, not merely scheduled.
    await navigate('/', { flushSync: true });
    clearStoredAuth();
    queryClient.clear();
    queryClient.setQueryData(CURRENT_USER_QUERY_KEY, null);
  }, [navigate, queryClient]);
}
