import type { Locator } from '@playwright/test';
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
 * Design section 6: a student opens a public page on a phone on a slow campus network. The
 * server draws the top of the page (src/server/features/shell/first-paint.ts), so it shows real
 * content before any JavaScript has arrived, and nothing moves when the app takes over.
 *
 * Each page loads over a throttled connection (Lighthouse's slow 4G) with its scripts held back
 * until the first paint has been checked and photographed; then they arrive and the app draws
 * the screen. Screenshots: test-results/screenshots/first-paint-<page>-375.png and
 * loaded-<page>-375.png.
 */

interface PublicPage {
  name: string;
  path: () => Promise<string>;
  /** What the server draws, visible before the app runs. */
  firstPaint: (page: Page) => Locator;
  /** Waits for what only the app draws, once it has what it asked the server for. */
  loaded: (page: Page) => Promise<void>;
}

/** Generous: the page arrives over a throttled connection on a busy machine. */
const WAIT = { timeout: 30_000 };

const heading = (name: string) => (page: Page) => page.getByRole('heading', { level: 1, name });

const PUBLIC_PAGES: PublicPage[] = [
  {
    name: 'landing',
    path: async () => '/',
    firstPaint: heading('Proactive Mental Health Support for Universities'),
    loaded: (page) => expect(page.getByRole('region', { name: 'Core features' })).toBeVisible(WAIT),
  },
  {
    name: 'login',
    path: async () => '/login/',
    firstPaint: (page) => page.getByRole('status').filter({ hasText: 'Checking authentication...' }),
    loaded: (page) => expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible(WAIT),
  },
  {
    name: 'register',
    path: async () => '/register/',
    firstPaint: heading('Register'),
    loaded: (page) =>
      expect(page.getByLabel('Institution').getByRole('option', { name: 'Demo University' })).toBeAttached(
        WAIT,
      ),
  },
  {
    name: 'demo-survey',
    path: async () => '/demo-survey/',
    firstPaint: heading('Student Wellness Check'),
    loaded: (page) => expect(page.getByRole('button', { name: 'Submit', exact: true })).toBeVisible(WAIT),
  },
  {
    name: 'survey-link',
    path: async () => `/survey/link/${await demoLinkHash()}/`,
    firstPaint: heading('Student Wellness Check'),
    loaded: (page) => expect(page.getByRole('button', { name: 'Submit Survey' })).toBeVisible(WAIT),
  },
  {
    name: 'survey-invite',
    path: surveyInvitationPath,
    firstPaint: heading('Student Wellness Check'),
    loaded: (page) => expect(page.getByLabel('Full Name')).toHaveValue('Invited Student', WAIT),
  },
];

/** Lighthouse's mobile network: 150 ms round trips, 1.6 Mbit/s down, 750 kbit/s up. */
async function throttleToSlow4g(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
}

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

/**
 * Waits for the page's stylesheets. The browser paints nothing before they arrive, but a
 * script asking where an element is gets the layout of the bare markup meanwhile, so a box
 * measured earlier is one no one ever saw.
 */
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

const brand = (page: Page) => page.getByRole('banner').getByRole('link').first();

test.describe('first paint of the public pages on a phone', () => {
  test.use({ viewport: { width: SCREEN_WIDTHS.mobile, height: 800 } });

  for (const publicPage of PUBLIC_PAGES) {
    test(`${publicPage.name}: content before the scripts arrive, nothing moves when the app takes over`, async ({
      page,
    }) => {
      const path = await publicPage.path();
      await throttleToSlow4g(page);
      const releaseScripts = await holdScripts(page);

      // Module scripts hold back DOMContentLoaded: wait for the response, then for the content.
      await page.goto(path, { waitUntil: 'commit' });
      const firstPaint = publicPage.firstPaint(page);
      await expect(firstPaint).toBeVisible();
      await expect(brand(page)).toBeVisible();
      await stylesheetsApplied(page);
      // The footer is the app's alone: nothing of the app has run yet.
      await expect(page.getByRole('contentinfo')).toHaveCount(0);
      await expectNoHorizontalOverflow(page);
      const brandBefore = await brand(page).boundingBox();
      const firstPaintBefore = await firstPaint.boundingBox();
      await saveScreenshot(page, `first-paint-${publicPage.name}`);

      releaseScripts();
      await expect(page.getByRole('contentinfo')).toBeVisible(WAIT);
      await publicPage.loaded(page);
      // The app drew the brand and the top of the screen where the server had. Read once the
      // screen is complete: on its way there the app replaces its own nodes (a loading state,
      // then the form), so a box read mid-way can belong to a node that is already gone.
      expect(await brand(page).boundingBox()).toEqual(brandBefore);
      if (publicPage.name !== 'login') expect(await firstPaint.boundingBox()).toEqual(firstPaintBefore);
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, `loaded-${publicPage.name}`);
    });
  }
});
