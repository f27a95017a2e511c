import { describe, expect, it } from 'vitest';
import { firstPaintMarkup } from './first-paint';
import { SCREEN_ROUTES } from './routes';

describe('first paint of the shell', () => {
  it('draws the header and the heading of every public screen', () => {
    const headings: Record<string, string> = {
      '/': 'Proactive Mental Health Support for Universities',
      '/register/': 'Register',
      '/demo-survey/': 'Student Wellness Check',
      '/survey/link/:hashLink/': 'Student Wellness Check',
      '/survey/invite/:token/': 'Student Wellness Check',
    };
    for (const [route, heading] of Object.entries(headings)) {
      const markup = firstPaintMarkup(route, 'Wellspring');
      expect(markup).toContain('<span>Wellspring Health</span>');
      expect(markup).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
      expect(markup).toContain('<main id="main" tabindex="-1" class="AppLayout_main">');
    }
  });

  it('shows the login screen checking who is signed in, as the screen does until the server says', () => {
    expect(firstPaintMarkup('/login/', 'Wellspring')).toContain(
      '<div class="Auth_checking" role="status"><span class="Spinner_spinner" aria-hidden="true"></span>Checking authentication...</div>',
    );
  });

  it('notes the shared link on its page only, not on a personal invitation', () => {
    expect(firstPaintMarkup('/survey/link/:hashLink/', 'Wellspring')).toContain(
      'Survey accessed via shared link',
    );
    expect(firstPaintMarkup('/survey/invite/:token/', 'Wellspring')).not.toContain('shared link');
  });

  it('leaves the screens of signed-in users to the app', () => {
    for (const route of ['/survey/', '/dashboard/', '/admin/survey-templates/', '/schedule-survey/']) {
      expect(route in SCREEN_ROUTES).toBe(true);
      expect(firstPaintMarkup(route, 'Wellspring')).toBe('');
    }
  });

  it('escapes the brand name', () => {
    expect(firstPaintMarkup('/login/', '<b>Uni</b>')).toContain('<span>&lt;b&gt;Uni&lt;/b&gt; Health</span>');
  });
});
