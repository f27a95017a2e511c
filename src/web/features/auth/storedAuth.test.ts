// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { DISPLAY_COOKIES } from '../../../common/displayCookies';
import { readStoredAuth } from './storedAuth';

/** Sets the display cookies as the server's Set-Cookie would. */
function storeCookies(cookies: Record<string, string>) {
  for (const [name, value] of Object.entries(cookies)) {
    // biome-ignore lint/suspicious/noDocumentCookie: the code under test reads document.cookie.
    document.cookie = `${name}=${encodeURIComponent(value)}; path=/`;
  }
}

const SIGNED_IN = { auth_token: 'marker', user_email: 'cora@north.edu' };

describe('readStoredAuth', () => {
  afterEach(() => {
    for (const name of DISPLAY_COOKIES) {
      // biome-ignore lint/suspicious/noDocumentCookie: clearing what the test stored.
      document.cookie = `${name}=; max-age=0; path=/`;
    }
  });

  it('reads nobody without the marker and the email', () => {
    storeCookies({ user_email: 'cora@north.edu', user_role: 'counsellor' });
    expect(readStoredAuth()).toBeNull();
  });

  it.each(['admin', 'counsellor', 'viewer', 'student', 'superuser'] as const)(
    'shows a %s by the role cookie',
    (role) => {
      storeCookies({ ...SIGNED_IN, is_superuser: 'false', is_institution_admin: 'false', user_role: role });
      expect(readStoredAuth()).toEqual({ email: 'cora@north.edu', role });
    },
  );

  it('falls back to the two flags of a sign-in from before the role cookie', () => {
    storeCookies({ ...SIGNED_IN, is_superuser: 'false', is_institution_admin: 'true' });
    expect(readStoredAuth()?.role).toBe('admin');
    storeCookies({ is_institution_admin: 'false', is_superuser: 'true' });
    expect(readStoredAuth()?.role).toBe('superuser');
    storeCookies({ is_superuser: 'false' });
    expect(readStoredAuth()?.role).toBe('student');
  });

  it('ignores a role cookie it does not know', () => {
    storeCookies({ ...SIGNED_IN, is_institution_admin: 'true', user_role: 'owner' });
    expect(readStoredAuth()?.role).toBe('admin');
  });
});
