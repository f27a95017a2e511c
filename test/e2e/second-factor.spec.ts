import { generate } from 'otplib';
import {
  type Account,
  completeSecondFactorOnScreen,
  createAdmin,
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  type Page,
  rememberRecoveryCodes,
  SCREEN_WIDTHS,
  saveScreenshot,
  signInWithForm,
  test,
} from './support';

/** Design section 11: staff complete a password sign-in with a second factor. */

const SCREEN = /\/sign-in\/second-factor\/\?next=\/dashboard\/$/;

async function signOut(page: Page) {
  await page.context().clearCookies();
}

async function setUpOnScreen(page: Page, admin: Account) {
  await signInWithForm(page, admin);
  await completeSecondFactorOnScreen(page, admin);
  await expect(page).toHaveURL('/dashboard/');
}

test.describe('second factor for staff', () => {
  test('an admin sets up an app at the first sign-in, then lands on the dashboard', async ({ page }) => {
    const admin = await createAdmin();
    await signInWithForm(page, admin);
    await expect(page).toHaveURL(SCREEN);
    // A wrong first code is refused with a message, and the screen stays.
    await page.getByLabel('6-digit code').fill('000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('alert')).toContainText('That code is not right');
    await completeSecondFactorOnScreen(page, admin);
    await expect(page).toHaveURL('/dashboard/');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  });

  test('a staff screen opened with a password alone leads to the second factor, then back', async ({
    page,
  }) => {
    const admin = await createAdmin();
    await setUpOnScreen(page, admin);
    await signOut(page);
    // Signed in with the password only (through the API), then straight to a staff screen.
    const api = page.context().request;
    const csrf = await api.get('/api/csrf/');
    const { csrftoken } = (await csrf.json()) as { csrftoken: string };
    const login = await api.post('/api/login/', {
      headers: { 'X-CSRFToken': csrftoken },
      data: { email: admin.email, password: admin.password },
    });
    expect(((await login.json()) as { user: { second_factor?: string } }).user.second_factor).toBe('verify');
    const refused = await api.get('/api/dashboard/');
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('SECOND_FACTOR_REQUIRED');

    await page.goto('/admin/survey-templates/');
    await expect(page).toHaveURL('/sign-in/second-factor/?next=/admin/survey-templates/');
    await page.getByLabel('6-digit code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toContainText('That code is not right');
    await completeSecondFactorOnScreen(page, admin);
    await expect(page).toHaveURL('/admin/survey-templates/');
    await expect(page.getByRole('heading', { level: 1, name: 'Survey Templates' })).toBeVisible();
  });

  for (const [device, width] of Object.entries(SCREEN_WIDTHS)) {
    test(`no serious axe violations; screenshots at ${width} px (${device})`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const admin = await createAdmin();
      await signInWithForm(page, admin);
      await expect(page).toHaveURL(SCREEN);
      await expect(
        page.getByRole('img', { name: 'QR code to scan with your authenticator app' }),
      ).toBeVisible();
      await expectNoA11yViolations(page, 'second factor set-up');
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, 'second-factor-setup');

      const key = (await page.locator('code').textContent())?.replace(/\s/g, '') ?? '';
      await page.getByLabel('6-digit code').fill(await generate({ secret: key }));
      await page.getByRole('button', { name: 'Confirm' }).click();
      const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
      await expect(codes).toHaveCount(10);
      await expectNoA11yViolations(page, 'recovery codes');
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, 'second-factor-recovery-codes');
      rememberRecoveryCodes(admin.email, await codes.allTextContents());
      await page.getByRole('button', { name: 'I saved them, continue' }).click();
      await expect(page).toHaveURL('/dashboard/');

      await signOut(page);
      await signInWithForm(page, admin);
      await expect(page.getByRole('heading', { level: 1, name: "Confirm it's you" })).toBeVisible();
      await expectNoA11yViolations(page, 'second factor prompt');
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, 'second-factor-prompt');
    });
  }
});
