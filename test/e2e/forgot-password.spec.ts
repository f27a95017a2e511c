import {
  createStudent,
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  mailsTo,
  type Page,
  SCREEN_WIDTHS,
  test,
  waitForMails,
} from './support';

const NEW_PASSWORD = 'Amber-Kettle-Voyage-93';

/** Moves the focus with Tab alone until it reaches the element, as a keyboard user would. */
async function tabTo(page: Page, target: ReturnType<Page['getByRole']>) {
  for (let presses = 0; presses < 40; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the element');
}

test('a student who forgot the password chooses a new one from the mailed link, by keyboard at 375 px', async ({
  page,
}) => {
  const student = await createStudent();
  await page.setViewportSize({ width: SCREEN_WIDTHS.mobile, height: 800 });
  await page.goto('/login/');

  await tabTo(page, page.getByRole('link', { name: 'Forgot password?' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot password' })).toBeVisible();
  await expectNoA11yViolations(page);
  await expectNoHorizontalOverflow(page);

  await tabTo(page, page.getByRole('textbox', { name: 'Email' }));
  await page.keyboard.type(student.email);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'we sent it a link' })).toBeVisible();

  // The registration's code came first; the link is in the newest mail.
  await waitForMails(student.email, 2);
  const link = /\/reset-password\/[A-Za-z0-9_-]+\//.exec(mailsTo(student.email).at(-1)?.text ?? '')?.[0];
  if (!link) throw new Error('No reset link was mailed');
  await page.goto(link);

  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
  await expectNoA11yViolations(page);
  await expectNoHorizontalOverflow(page);
  await tabTo(page, page.getByLabel('New password'));
  await page.keyboard.type(NEW_PASSWORD);
  await page.keyboard.press('Tab');
  await page.keyboard.type(NEW_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Your password is changed' })).toBeVisible();
  await expectNoA11yViolations(page);

  await tabTo(page, page.getByRole('link', { name: 'Go to the login page' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Login' })).toBeVisible();
  await tabTo(page, page.getByRole('textbox', { name: 'Email' }));
  await page.keyboard.type(student.email);
  await tabTo(page, page.getByLabel('Password', { exact: true }));
  await page.keyboard.type(NEW_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/survey\/$/);
});
