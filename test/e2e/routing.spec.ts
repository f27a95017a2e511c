import { expect, test } from './support';

test.describe('routing', () => {
  test('screen routes work with and without the trailing slash', async ({ page }) => {
    for (const [path, heading] of [
      ['/login', 'Login'],
      ['/register', 'Register'],
      ['/demo-survey', 'Student Wellness Check'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    }
  });

  test('assets come from /react-static/ and each screen loads its own chunk on first visit', async ({
    page,
  }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.every((script) => script.startsWith('/react-static/'))).toBe(true);
    expect(scripts.some((script) => /LoginScreen/.test(script))).toBe(false);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Login' })).toBeVisible();
    expect(scripts.some((script) => /LoginScreen/.test(script))).toBe(true);
  });

  test('an unknown path shows the not-found screen', async ({ page }) => {
    const response = await page.goto('/no-such-page/');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to Homepage' }).click();
    await expect(page).toHaveURL('/');
  });

  test('after navigating, focus moves to the new screen', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Demo Survey' }).click();
    await expect(page.getByRole('main')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('main').locator(':focus')).toHaveCount(1);
  });

  test('the skip link jumps to the main content', async ({ page }) => {
    await page.goto('/login/');
    // Keys only once the screen is there: its arrival moves focus, and a Tab pressed while it
    // loads goes wherever focus happens to be.
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(page.getByRole('main')).not.toHaveAttribute('aria-busy', 'true');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Email')).toBeFocused();
  });
});
