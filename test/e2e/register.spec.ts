import {
  createStudent,
  DEMO_INSTITUTION,
  expect,
  expectNoA11yViolations,
  mailedCode,
  mailsTo,
  type Page,
  stopPageClock,
  TEST_PASSWORD,
  test,
  uniqueId,
  waitForMails,
} from './support';

const institutionSelect = (page: Page) => page.getByLabel('Institution');

async function fillStepOne(page: Page, name = 'Robin Ellery') {
  await institutionSelect(page).selectOption(DEMO_INSTITUTION.name);
  await page.getByLabel('Full Name').fill(name);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: /Step 2 of 2/ })).toBeVisible();
}

async function fillStepTwo(page: Page, fields: { email: string; password: string; confirm: string }) {
  await page.getByLabel('Email').fill(fields.email);
  await page.getByLabel('Password', { exact: true }).fill(fields.password);
  await page.getByLabel('Confirm Password').fill(fields.confirm);
}

async function expectModalMessage(page: Page, text: string) {
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(text);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
}

test.describe('registration', () => {
  test('step 1: institutions from the server, the hint, Full Name, and the step indicator', async ({
    page,
  }) => {
    await page.goto('/register/');
    await expect(page.getByRole('heading', { level: 1, name: 'Register' })).toBeVisible();
    const steps = page.getByRole('list', { name: 'Registration progress' }).getByRole('listitem');
    await expect(steps).toHaveText(['Institution', 'Account']);
    await expect(steps.nth(0)).toHaveAttribute('aria-current', 'step');
    await expect(steps.nth(1)).not.toHaveAttribute('aria-current', 'step');

    await expect(institutionSelect(page).locator('option', { hasText: DEMO_INSTITUTION.name })).toHaveCount(
      1,
    );
    await expect(page.getByText("Don't see your institution? Contact sales to add it.")).toBeVisible();
    await expect(page.getByLabel('Full Name')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Next' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveCount(0);
  });

  test('Next needs an institution and a non-blank full name', async ({ page }) => {
    await page.goto('/register/');
    const message = 'Please select an institution and enter your full name';
    await page.getByRole('button', { name: 'Next' }).click();
    await expectModalMessage(page, message);

    await institutionSelect(page).selectOption(DEMO_INSTITUTION.name);
    await page.getByLabel('Full Name').fill('   ');
    await page.getByRole('button', { name: 'Next' }).click();
    await expectModalMessage(page, message);

    await institutionSelect(page).selectOption('');
    await page.getByLabel('Full Name').fill('Robin Ellery');
    await page.getByRole('button', { name: 'Next' }).click();
    await expectModalMessage(page, message);
    await expect(page.getByRole('heading', { name: /Step 1 of 2/ })).toBeVisible();
  });

  test('step 2 has Email, Password and Confirm Password; Previous goes back keeping the answers', async ({
    page,
  }) => {
    await page.goto('/register/');
    await fillStepOne(page);
    const steps = page.getByRole('list', { name: 'Registration progress' }).getByRole('listitem');
    await expect(steps.nth(1)).toHaveAttribute('aria-current', 'step');
    await expect(page.getByRole('heading', { name: /Step 2 of 2/ })).toBeFocused();
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'password');
    await expect(page.getByLabel('Confirm Password')).toHaveAttribute('type', 'password');
    await expect(page.getByRole('button', { name: 'Submit' })).toBeVisible();

    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(page.getByRole('heading', { name: /Step 1 of 2/ })).toBeFocused();
    await expect(institutionSelect(page)).toHaveValue(DEMO_INSTITUTION.name);
    await expect(page.getByLabel('Full Name')).toHaveValue('Robin Ellery');
  });

  test('Submit needs every field', async ({ page }) => {
    let registerCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/register/')) registerCalls += 1;
    });
    await page.goto('/register/');
    await fillStepOne(page);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectModalMessage(page, 'Please fill in all required fields');

    await fillStepTwo(page, { email: `x-${uniqueId()}@demo.edu`, password: TEST_PASSWORD, confirm: '' });
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectModalMessage(page, 'Please fill in all required fields');
    expect(registerCalls).toBe(0);
  });

  test('shows the server messages when it refuses', async ({ page }) => {
    const existing = await createStudent();
    await page.goto('/register/');
    await fillStepOne(page);

    await fillStepTwo(page, {
      email: `robin-${uniqueId()}@elsewhere.org`,
      password: TEST_PASSWORD,
      confirm: TEST_PASSWORD,
    });
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectModalMessage(page, 'Use your Demo University email address');

    await fillStepTwo(page, {
      email: `robin-${uniqueId()}@demo.edu`,
      password: TEST_PASSWORD,
      confirm: `${TEST_PASSWORD}x`,
    });
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectModalMessage(page, 'Passwords do not match');

    // An address that has an account is answered like any other; only its owner hears, by mail.
    await fillStepTwo(page, { email: existing.email, password: TEST_PASSWORD, confirm: TEST_PASSWORD });
    const response = page.waitForResponse((candidate) => candidate.url().endsWith('/api/register/'));
    await page.getByRole('button', { name: 'Submit' }).click();
    expect((await response).status()).toBe(201);
    await expect(page.getByRole('heading', { name: `We sent a code to ${existing.email}` })).toBeVisible();
    await waitForMails(existing.email, 2);
    expect(mailsTo(existing.email)).toHaveLength(2);
    expect(mailsTo(existing.email).at(-1)?.text).toContain('already has one');
  });

  test('says why the server refuses a password that is easy to guess', async ({ page }) => {
    await page.goto('/register/');
    await fillStepOne(page);
    await fillStepTwo(page, {
      email: `robin-${uniqueId()}@demo.edu`,
      password: 'Summer2024',
      confirm: 'Summer2024',
    });
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectModalMessage(
      page,
      'This password is too easy to guess. Add more words that are less common.',
    );
  });

  test('says "Registration failed" when the server gives no message', async ({ page }) => {
    await page.route('**/api/register/', (route) =>
      route.fulfill({ status: 502, body: '<html>Bad gateway</html>' }),
    );
    await page.goto('/register/');
    await fillStepOne(page);
    await fillStepTwo(page, {
      email: `robin-${uniqueId()}@demo.edu`,
      password: TEST_PASSWORD,
      confirm: TEST_PASSWORD,
    });
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectModalMessage(page, 'Registration failed');
  });

  test('a registration asks for the mailed code, then goes to /login/ after 600 ms, and the new account can sign in', async ({
    page,
  }) => {
    const email = `robin-${uniqueId()}@demo.edu`;
    await page.clock.install();
    await page.goto('/register/');
    await fillStepOne(page);
    await fillStepTwo(page, { email, password: TEST_PASSWORD, confirm: TEST_PASSWORD });

    const response = page.waitForResponse((candidate) => candidate.url().endsWith('/api/register/'));
    await page.getByRole('button', { name: 'Submit' }).click();
    expect((await response).status()).toBe(201);
    await expect(page.getByRole('heading', { name: `We sent a code to ${email}` })).toBeVisible();
    await expectNoA11yViolations(page, 'register, code step');
    await page.getByLabel('Code from the mail').fill(await mailedCode(email));
    // The page's clock stands still from here: only runFor moves it, so the delay is exact.
    await stopPageClock(page);
    const checked = page.waitForResponse((candidate) => candidate.url().endsWith('/api/verify/check/'));
    await page.getByRole('button', { name: 'Confirm' }).click();
    expect((await checked).status()).toBe(200);
    await expect(page.getByRole('dialog')).toContainText('your account is ready');
    expect(new URL(page.url()).pathname).toBe('/register/');
    await page.clock.runFor(550);
    expect(new URL(page.url()).pathname).toBe('/register/');
    await page.clock.runFor(100);
    await page.waitForURL(/\/login\/$/);
    await page.clock.resume();

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(/\/survey\/$/);
  });
});
