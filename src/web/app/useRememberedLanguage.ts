import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { setLanguage } from '../../common/endpoints/account';
import type { CurrentUser } from '../../common/schemas/auth';
import { api } from '../api';
import { CURRENT_USER_QUERY_KEY, useCurrentUser } from '../features/auth/useCurrentUser';
import { LANGUAGES } from './catalogues';
import { i18n, switchLanguage } from './i18n';

/**
 * A signed-in person's language follows them from device to device: the page switches to the one
 * they chose last (their mail is written in it too). Returns what to call when they choose one
 * in the header, which keeps it with their account.
 */
export function useRememberedLanguage(): (language: string) => void {
  const { data: user } = useCurrentUser();
  const queryClient = useQueryClient();
  const remembered = user?.language;

  useEffect(() => {
    if (remembered && remembered !== i18n.locale && LANGUAGES.includes(remembered)) {
      void switchLanguage(remembered);
    }
  }, [remembered]);

  return (language) => {
    if (!user) return;
    queryClient.setQueryData<CurrentUser | null>(CURRENT_USER_QUERY_KEY, (current) =>
      current ? { ...current, language } : current,
    );
    // This device keeps the choice in its cookie whatever happens; a failed save is tried again
    // at the next choice.
    api.call(setLanguage, { body: { language } }).catch((error: unknown) => {
      console.error('Could not keep the chosen language with the account', error);
    });
  };
}
