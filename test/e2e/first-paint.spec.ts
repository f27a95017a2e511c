import {
  expect,
  expectNoHorizontalOverflow,
  type Page,
  SCREEN_WIDTHS,
  saveScreenshot,
  test,
} from './support';
import { demoLinkHash, surveyInvitationPath } from './survey-helpers';

/**
 * Design section 6: a student opens a public page on a phone on a slow campus network. The server
 * renders each public page with React from the app's own routes and components
 * (src/web/entry-server.tsx), so the page shows its real content before any JavaScript has
 * arrived, and the browser takes that page over in place (hydration): the same nodes, nothing
 * redrawn, nothing moved.
 *
 * Each page loads with its scripts held back until the first paint has been checked and
 * photographed; then they arrive and the app takes over. Screenshots:
 * test-results/screenshots/first-paint-<page>-<width>.png and running-<page>-<width>.png.
 */

interface PublicPage {
  name: string;
  path: () => Promise<string>;
  /** Content of the screen itself, beyond its heading, that the server must have rendered. */
  content: (page: Page) => Promise<void>;
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

const PUBLIC_PAGES: PublicPage[] = [
  {
    name: 'landing',
    path: async () => '/',
    content: async (page) => {
      await expect(heading(page, 'Proactive Mental Health Support for Universities')).toBeVisible();
      await expect(page.getByRole('region', { name: 'Core features' })).toBeVisible();
    },
  },
  {
    name: 'login',
    path: async () => '/login/',
    // Signed out, as the server knew: the form at once, not "Checking authentication...".
    content: (page) => expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible(),
  },
  {
    name: 'register',
    path: async () => '/register/',
    content: async (page) => {
      await expect(heading(page, 'Register')).toBeVisible();
      await expect(
        page.getByLabel('Institution').getByRole('option', { name: 'Demo University' }),
      ).toBeAttached();
    },
  },
  {
    name: 'demo-survey',
    path: async () => '/demo-survey/',
    content: (page) => expect(page.getByRole('button', { name: 'Submit', exact: true })).toBeVisible(),
  },
  {
    name: 'survey-link',
    path: async () => `/survey/link/${await demoLinkHash()}/`,
    content: async (page) => {
      await expect(page.getByRole('group').first()).toBeVisible();
      await expect(page.getByRole('button', { name: 'Submit Survey' })).toBeVisible();
    },
  },
  {
    name: 'survey-invite',
    path: surveyInvitationPath,
    content: async (page) => {
      await expect(page.getByLabel('Full Name')).toHaveValue('Invited Student');
      await expect(page.getByRole('button', { name: 'Submit Survey' })).toBeVisible();
    },
  },
];

/** Generous: the app's scripts arrive on a busy machine. */
const WAIT = { timeout: 30_000 };

/** Holds back every script of the app until the returned function is called. */
async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/react-static/assets/*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Waits for the page's stylesheets: the browser paints nothing before they arrive. */
async function stylesheetsApplied(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every(
        (link) => link.sheet !== null,
      ),
    undefined,
    WAIT,
  );
}

/** Every element of the page's root: its tag, its own text and its box, in document order. */
function layoutOf(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('#root *')].map((element) => {
      const box = element.getBoundingClientRect();
      const ownText = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent)
        .join('');
      return [element.tagName, ownText, box.x, box.y, box.width, box.height].join(' ');
    }),
  );
}

/** Reports every error the page logs or throws (React reports a mismatch it drew afresh as one). */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

const root = (page: Page) => page.locator('#root');

for (const width of [SCREEN_WIDTHS.mobile, SCREEN_WIDTHS.desktop]) {
  test.describe(`first paint of the public pages at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    for (const publicPage of PUBLIC_PAGES) {
      test(`${publicPage.name}: the server renders the screen, and the app takes it over unchanged`, async ({
        page,
      }) => {
        const path = await publicPage.path();
        const errors = collectErrors(page);
        const releaseScripts = await holdScripts(page);

        // Module scripts hold back DOMContentLoaded: wait for the response, then for the content.
        await page.goto(path, { waitUntil: 'commit' });
        await publicPage.content(page);
        await stylesheetsApplied(page);
        await expect(page.getByRole('contentinfo')).toBeVisible();
        // Nothing of the app has run yet.
        await expect(root(page)).not.toHaveAttribute('data-app');
        await expectNoHorizontalOverflow(page);
        await page.evaluate(() => {
          (window as { serverMain?: Element | null }).serverMain = document.querySelector('main');
        });
        const layoutBefore = await layoutOf(page);
        const screenBefore = await page.screenshot({ fullPage: true });
        await saveScreenshot(page, `first-paint-${publicPage.name}`);

        releaseScripts();
        await expect(root(page)).toHaveAttribute('data-app', 'hydrated', WAIT);
        await page.waitForLoadState('networkidle');

        // Hydrated in place: the server's nodes are the app's (a page React had to draw afresh
        // would have new ones, and a report of the mismatch in the console).
        expect(
          await page.evaluate(() => (window as { serverMain?: Element | null }).serverMain?.isConnected),
        ).toBe(true);
        expect(errors).toEqual([]);
        // And not a pixel, box or word changed.
        expect(await layoutOf(page)).toEqual(layoutBefore);
        await saveScreenshot(page, `running-${publicPage.name}`);
        expect((await page.screenshot({ fullPage: true })).equals(screenBefore)).toBe(true);
        await publicPage.content(page);
      });
    }
  });
}

test.describe('the shared-link survey without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: { width: SCREEN_WIDTHS.mobile, height: 800 } });

  test('shows its questions and lets the student choose answers', async ({ page }) => {
    await page.goto(`/survey/link/${await demoLinkHash()}/`);
    await expect(heading(page, 'Student Wellness Check')).toBeVisible();
    const firstQuestion = page.getByRole('group').first();
    await expect(firstQuestion).toBeVisible();
    const firstAnswer = firstQuestion.getByRole('radio').first();
    await firstAnswer.check();
    await expect(firstAnswer).toBeChecked();
    await expect(page.getByLabel('Full Name')).toBeEditable();
    await expect(page.getByRole('button', { name: 'Submit Survey' })).toBeVisible();
    await saveScreenshot(page, 'no-script-survey-link');
  });

  test('an unknown link says so', async ({ page }) => {
    await page.goto('/survey/link/no-such-link/');
    await expect(page.getByText('Survey link not found or has expired.')).toBeVisible();
  });
});
