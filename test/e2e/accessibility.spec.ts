import {
  createAdmin,
  createStudent,
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  type Page,
  signIn,
  test,
  uniqueId,
} from './support';

/** Every screen of this part of the app, in each of its states, checked by axe (WCAG 2.1 A and AA). */

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test.describe('accessibility', () => {
  for (const [path, heading] of [
    ['/', 'Proactive Mental Health Support for Universities'],
    ['/login/', 'Login'],
    ['/register/', 'Register'],
    ['/demo-survey/', 'Student Wellness Check'],
    ['/no-such-page/', 'Page not found'],
  ] as const) {
    test(`${path} has no serious or critical violations`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expectNoA11yViolations(page);
    });
  }

  test('login with its message modal open', async ({ page }) => {
    await page.goto('/login/');
    // A refused login counts against its address: each test uses one of its own.
    await page.getByLabel('Email').fill(`nobody-${uniqueId()}@demo.edu`);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await expectNoA11yViolations(page, 'login modal');
  });

  test('register step 2 and its message modal', async ({ page }) => {
    await page.goto('/register/');
    await page.getByLabel('Institution').selectOption('Demo University');
    await page.getByLabel('Full Name').fill('Robin Ellery');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('heading', { name: /Step 2 of 2/ })).toBeVisible();
    await expectNoA11yViolations(page, 'register step 2');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await expectNoA11yViolations(page, 'register modal');
  });

  test('demo survey with answers picked', async ({ page }) => {
    await page.goto('/demo-survey/');
    for (const group of await page.getByRole('group').all()) await group.getByRole('radio').nth(2).check();
    await expectNoA11yViolations(page, 'demo survey answered');
  });

  test('header of a student with the dropdown open', async ({ page }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.goto('/');
    await mainNav(page).getByRole('button', { name: student.email }).click();
    await expectNoA11yViolations(page, 'student header menu');
  });

  test('header of an institution admin with the dropdown open', async ({ page }) => {
    const admin = await createAdmin();
    await signIn(page, admin);
    await page.goto('/');
    await mainNav(page).getByRole('button', { name: admin.email }).click();
    await expectNoA11yViolations(page, 'admin header menu');
  });
});

test.describe('at 320 px wide', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test('no screen scrolls sideways', async ({ page }) => {
    for (const path of ['/', '/login/', '/register/', '/demo-survey/', '/no-such-page/']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoHorizontalOverflow(page);
    }
  });

  test('the signed-in header and its dropdown fit', async ({ page }) => {
    const admin = await createAdmin();
    await signIn(page, admin);
    await page.goto('/');
    await mainNav(page).getByRole('button', { name: admin.email }).click();
    await expect(mainNav(page).getByRole('link', { name: 'Dashboard' })).toBeInViewport();
    await expectNoHorizontalOverflow(page);
  });
});
