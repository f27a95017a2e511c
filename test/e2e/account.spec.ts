import {
  createInstitutionWithAdmin,
  createStudent,
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  inviteStaff,
  joinFromInvitation,
  SCREEN_WIDTHS,
  saveScreenshot,
  signIn,
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
      await signIn(page, student);
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

  test('an admin resets a colleague’s second factor from the Team screen, after a confirmation naming them', async ({
    page,
    browser,
  }) => {
    await page.setViewportSize({ width: SCREEN_WIDTHS.desktop, height: 900 });
    const institution = await createInstitutionWithAdmin();
    await signIn(page, institution.admin);
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
