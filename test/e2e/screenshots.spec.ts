import {
  createAdmin,
  createStudent,
  expect,
  expectNoHorizontalOverflow,
  openInBrowser,
  type Page,
  SCREEN_WIDTHS,
  saveScreenshot,
  signIn,
  test,
} from './support';

/**
 * Screenshots of every screen at desktop and phone width, saved under test-results/screenshots/
 * for people to look at. Each one also checks the page never scrolls sideways.
 */

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

for (const [label, width] of Object.entries(SCREEN_WIDTHS)) {
  test.describe(`screens at ${width} px (${label})`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('anonymous screens', async ({ page }) => {
      const screens = [
        ['landing', '/'],
        ['login', '/login/'],
        ['register-step-1', '/register/'],
        ['demo-survey', '/demo-survey/'],
        ['not-found', '/no-such-page/'],
      ] as const;
      for (const [name, path] of screens) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectNoHorizontalOverflow(page);
        await saveScreenshot(page, name);
      }
    });

    test('register step 2 and a message modal', async ({ page }) => {
      await page.goto('/register/');
      await page.getByLabel('Institution').selectOption('Demo University');
      await page.getByLabel('Full Name').fill('Robin Ellery');
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(page.getByRole('heading', { name: /Step 2 of 2/ })).toBeVisible();
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, 'register-step-2');

      await page.getByRole('button', { name: 'Submit' }).click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await saveScreenshot(page, 'register-modal');
    });

    test('login "Checking authentication..."', async ({ page }) => {
      await page.route('**/api/user/', () => {
        // Never answered: the screen stays in its checking state.
      });
      await openInBrowser(page, '/login/');
      await expect(page.getByText('Checking authentication...')).toBeVisible();
      await saveScreenshot(page, 'login-checking');
    });

    test('header menus of a student and an admin', async ({ page, context }) => {
      const student = await createStudent();
      await signIn(page, student);
      await page.goto('/');
      await mainNav(page).getByRole('button', { name: student.email }).click();
      await expectNoHorizontalOverflow(page);
      await page.screenshot({ path: `test-results/screenshots/header-student-${width}.png` });

      await context.clearCookies();
      const admin = await createAdmin();
      await signIn(page, admin);
      await page.goto('/');
      await mainNav(page).getByRole('button', { name: admin.email }).click();
      await expectNoHorizontalOverflow(page);
      await page.screenshot({ path: `test-results/screenshots/header-admin-${width}.png` });
    });
  });
}
