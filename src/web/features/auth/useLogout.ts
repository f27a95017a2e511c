import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { logout } from './authApi';
import { clearStoredAuth } from './storedAuth';
import { CURRENT_USER_QUERY_KEY } from './useCurrentUser';

/**
 * Logout as the spec wants it: ask the server to end the session, and whatever it answers,
 * forget the user locally (display cookies, session storage, cached data) and go home.
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
    clearStoredAuth();
    queryClient.clear();
    queryClient.setQueryData(CURRENT_USER_QUERY_KEY, null);
    navigate('/');
  }, [navigate, queryClient]);
}
