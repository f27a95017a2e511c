import { DISPLAY_COOKIES, displayedRole } from '../../../common/displayCookies';
import type { RoleName } from '../../../common/roles';
import { readCookie } from '../../api';

/**
 * The display-only login state the server keeps in script-readable cookies (DISPLAY_COOKIES).
 * They let the header show the right state before `/api/user/` answers; they grant nothing: the
 * server decides every permission.
 */

interface StoredAuth {
  email: string;
  role: RoleName;
}

/**
 * The role the cookies show: `user_role`, or, from a sign-in before it was set, the spec's two
 * flags (which know admins and superusers only: anyone else reads as a student until the server
 * answers with the exact role).
 */
function storedRole(): RoleName {
  const role = displayedRole(readCookie('user_role'));
  if (role) return role;
  if (readCookie('is_superuser') === 'true') return 'superuser';
  return readCookie('is_institution_admin') === 'true' ? 'admin' : 'student';
}

export function readStoredAuth(): StoredAuth | null {
  const token = readCookie('auth_token');
  const email = readCookie('user_email');
  if (!token || !email) return null;
  return { email, role: storedRole() };
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
