import { generate } from 'otplib';
import { SIGN_IN_CHANGE_SUBJECT } from '../../src/common/schemas/second-factor';
import {
  allMailsTo,
  createInstitutionWithAdmin,
  createStudent,
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  inviteStaff,
  joinFromInvitation,
  SCREEN_WIDTHS,
  saveScreenshot,
  signInThroughApi,
  test,
} from './support';

/** Every signed-in user's own account page, and an admin resetting a colleague's lost second factor. */

test.describe('account', () => {
  for (const [device, width] of Object.entries(SCREEN_WIDTHS)) {
    test(`a student changes their password at ${width} px (${device}); no serious axe violations`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const student = await createStudent();
      await signInThroughApi(page, student);
      await page.goto('/account/');
      await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
      await expect(page.getByRole('button', { name: /Sign out other sessions/ })).toBeVisible();
      await expectNoA11yViolations(page, 'account');
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, 'account');

      await page.getByLabel('Current password').fill('not-my-password');
      await page.getByLabel('New password', { exact: true }).fill('a sturdy new passphrase for me');
      await page.getByLabel('Confirm new password').fill('a sturdy new passphrase for me');
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect(page.getByText('Your current password is not right.')).toBeVisible();

      await page.getByLabel('Current password').fill(student.password);
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect(page.getByText(/Your password is changed/)).toBeVisible();
      await expect(page.getByLabel('Current password')).toHaveValue('');
    });
  }

  test('a staff member replaces their authenticator app; the new one is confirmed before the old stops', async ({
    page,
  }) => {
    const institution = await createInstitutionWithAdmin();
    await signInThroughApi(page, institution.admin);
    await page.goto('/account/');
    const app = page.getByRole('region', { name: 'Authenticator app' });
    await expect(app.getByText('An authenticator app is set up for your account.')).toBeVisible();
    await app.getByRole('button', { name: 'Replace authenticator app' }).click();
    await expect(app.getByText('Your current app keeps working until you confirm the new one')).toBeVisible();
    await expect(app.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
    const key = (await app.locator('code').textContent())?.replace(/\s/g, '') ?? '';
    expect(key).toMatch(/^[A-Z2-7]{16,}$/);
    await expectNoA11yViolations(page, 'account, replacing the authenticator app');
    for (const width of Object.values(SCREEN_WIDTHS)) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, 'account-replace-app');
    }

    // A code from an app that is not the new one is refused, and the old app is still the app.
    await app.getByLabel('6-digit code').fill('000000');
    await app.getByRole('button', { name: 'Confirm' }).click();
    await expect(app.getByRole('alert')).toHaveText(
      'That code is not right. Check that the app shows the new entry, and try again.',
    );
    await app.getByLabel('6-digit code').fill(await generate({ secret: key }));
    await app.getByRole('button', { name: 'Confirm' }).click();
    await expect(
      page.getByText('Your new authenticator app is set up. The old one no longer works.'),
    ).toBeVisible();
    await expect(app.getByText('An authenticator app is set up for your account.')).toBeVisible();

    // Told by mail, at a time on the institution's clock that names it.
    await expect
      .poll(() =>
        allMailsTo(institution.admin.email)
          .filter((mail) => mail.subject === SIGN_IN_CHANGE_SUBJECT)
          .map((mail) => mail.text)
          .find((text) => text.includes('authenticator app of your staff account was replaced')),
      )
      .toMatch(
        /was replaced \(the old one no longer works\) by .+, on \w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \([A-Za-z_/]+\)/,
      );
  });

  test('an admin resets a colleague’s second factor from the Team screen, after a confirmation naming them', async ({
    page,
    browser,
  }) => {
    await page.setViewportSize({ width: SCREEN_WIDTHS.desktop, height: 900 });
    const institution = await createInstitutionWithAdmin();
    await signInThroughApi(page, institution.admin);
    const colleague = await inviteStaff(page, 'counsellor', institution.domain);
    const theirs = await browser.newContext();
    const theirPage = await theirs.newPage();
    await joinFromInvitation(theirPage, colleague);

    await page.goto('/admin/team/');
    const reset = page.getByRole('button', { name: `Reset second factor of ${colleague.name}` });
    await reset.click();
    const dialog = page.getByRole('alertdialog', { name: 'Reset second factor' });
    await expect(dialog).toContainText(
      `Reset ${colleague.name}'s second factor? They will set one up again at their next sign-in.`,
    );
    // The harmless choice has the focus.
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectNoA11yViolations(page, 'team reset dialog');
    await saveScreenshot(page, 'team-reset-second-factor');
    await dialog.getByRole('button', { name: 'Reset second factor' }).click();
    await expect(page.getByText(`The second factor of ${colleague.email} was reset.`)).toBeVisible();

    // They are signed out everywhere, and set a factor up again at their next sign-in.
    const answer = await theirs.request.get('/api/user/');
    expect(answer.status()).toBe(401);
    await theirs.close();
  });
});
