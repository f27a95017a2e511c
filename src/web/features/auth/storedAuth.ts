import { readCookie } from '../../api';

/**
 * The display-only login state the server keeps in script-readable cookies (`auth_token`,
 * `user_email`, `is_superuser`, `is_institution_admin`). They let the header show the right
 * state before `/api/user/` answers; they grant nothing: the server decides every permission.
 */

const DISPLAY_COOKIES = ['auth_token', 'user_email', 'is_superuser', 'is_institution_admin'] as const;

export interface StoredAuth {
  email: string;
  isSuperuser: boolean;
  isInstitutionAdmin: boolean;
}

export function readStoredAuth(): StoredAuth | null {
  const token = readCookie('auth_token');
  const email = readCookie('user_email');
  if (!token || !email) return null;
  return {
    email,
    isSuperuser: readCookie('is_superuser') === 'true',
    isInstitutionAdmin: readCookie('is_institution_admin') === 'true',
  };
}

/** Removes the display cookies, e.g. when the server says the session has ended. */
export function clearDisplayCookies(): void {
  for (const name of DISPLAY_COOKIES) {
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every supported browser.
    document.cookie = `${name}=; Max-Age=0; Path=/; SameSite=Lax`;
  }
}

/** Logout: forgets everything this browser stored for the user, including session storage. */
export function clearStoredAuth(): void {
  clearDisplayCookies();
  try {
    window.sessionStorage.clear();
  } catch (error) {
    console.error('Could not clear session storage', error);
  }
}
