import {
  completeSecondFactorOnScreen,
  createAdmin,
  createStudent,
  createSuperuser,
  expect,
  fakeSuperuserSession,
  openInBrowser,
  type Page,
  signInThroughApi,
  signInWithForm,
  stopPageClock,
  test,
  uniqueId,
} from './support';

/** The spec's pause between the success message and the redirect (section 9). */
const REDIRECT_DELAY_MS = 600;

const messageDialog = (page: Page) => page.getByRole('dialog').or(page.getByRole('alertdialog'));

/**
 * Submits the login form and checks the redirect happens no sooner than the spec's delay after
 * the server accepted the login, landing on `expectedPath`. The page's clock (installed before
 * the page loaded) stands still from the click on: only runFor moves it, so a busy machine's
 * slowness between the steps does not count.
 */
async function expectDelayedRedirect(page: Page, expectedPath: RegExp) {
  await stopPageClock(page);
  const loginResponse = page.waitForResponse((response) => response.url().endsWith('/api/login/'));
  await page.getByRole('button', { name: 'Sign In' }).click();
  expect((await loginResponse).status()).toBe(200);
  await expect(messageDialog(page)).toContainText('Login successful');
  expect(new URL(page.url()).pathname).toBe('/login/');
  await page.clock.runFor(REDIRECT_DELAY_MS - 50);
  expect(new URL(page.url()).pathname).toBe('/login/');
  await page.clock.runFor(100);
  await page.waitForURL(expectedPath);
  await page.clock.resume();
}

test.describe('login', () => {
  test('has the spec fields, buttons and registration link', async ({ page }) => {
    await page.goto('/login/');
    await expect(page.getByRole('heading', { level: 1, name: 'Login' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
    await expect(page.getByLabel('Email')).toHaveAttribute('required');
    await expect(page.getByLabel('Password')).toHaveAttribute('type', 'password');
    await expect(page.getByLabel('Password')).toHaveAttribute('required');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Back' })).toBeVisible();

    await page.getByRole('link', { name: 'No Account? Register Now!' }).click();
    await expect(page).toHaveURL('/register/');
  });

  test('shows "Checking authentication..." until the server says who is signed in', async ({ page }) => {
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    await page.route('**/api/user/', async (route) => {
      await answered;
      await route.continue();
    });
    // The server renders /login/ knowing who is signed in; the check shows where the browser draws it.
    await openInBrowser(page, '/login/');
    await expect(page.getByRole('status').filter({ hasText: 'Checking authentication...' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveCount(0);
    answer();
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(page.getByText('Checking authentication...')).toHaveCount(0);
  });

  test('the browser checks the fields before anything is sent', async ({ page }) => {
    let loginCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/login/')) loginCalls += 1;
    });
    await page.goto('/login/');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').fill('whatever');
    await page.getByRole('button', { name: 'Sign In' }).click();
    expect(await page.getByLabel('Email').evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(
      false,
    );
    expect(loginCalls).toBe(0);
  });

  test('a student lands on /survey/ 600 ms after a successful login, signed in', async ({ page }) => {
    const student = await createStudent();
    await page.clock.install();
    await page.goto('/login/');
    await page.getByLabel('Email').fill(student.email);
    await page.getByLabel('Password').fill(student.password);
    await expectDelayedRedirect(page, /\/survey\/$/);
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: student.email }),
    ).toBeVisible();
  });

  test('an institution admin is asked for a second factor 600 ms after a successful login, then lands on /dashboard/', async ({
    page,
  }) => {
    const admin = await createAdmin();
    await page.clock.install();
    await page.goto('/login/');
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await expectDelayedRedirect(page, /\/sign-in\/second-factor\/\?next=\/dashboard\/$/);
    await completeSecondFactorOnScreen(page, admin);
    await expect(page).toHaveURL('/dashboard/');
  });

  test('a wrong password shows the server message in a modal the user closes', async ({ page }) => {
    const student = await createStudent();
    await page.clock.install();
    await page.goto('/login/');
    await page.getByLabel('Email').fill(student.email);
    await page.getByLabel('Password').fill('not-the-password');
    await stopPageClock(page);
    await page.getByRole('button', { name: 'Sign In' }).click();

    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('Invalid email or password');
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
    // Stays until the user closes it, however long the page's clock runs.
    await page.clock.runFor(REDIRECT_DELAY_MS + 10_000);
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL('/login/');
    await page.clock.resume();

    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeFocused();
  });

  test('the message modal also closes with Escape', async ({ page }) => {
    await page.goto('/login/');
    // A refused login counts against its address: each test uses one of its own.
    await page.getByLabel('Email').fill(`nobody-${uniqueId()}@demo.edu`);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alertdialog')).toContainText('Invalid email or password');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('alertdialog')).toBeHidden();
  });

  test('says "Login failed" when the server gives no message', async ({ page }) => {
    await page.route('**/api/login/', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto('/login/');
    await page.getByLabel('Email').fill('student@demo.edu');
    await page.getByLabel('Password').fill('anything');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alertdialog')).toContainText('Login failed');
  });

  test('a superuser is refused by the server as a wrong password is', async ({ page }) => {
    const superuser = await createSuperuser();
    await page.clock.install();
    await signInWithForm(page, superuser);
    await expect(page.getByRole('alertdialog')).toContainText('Invalid email or password');
    // No redirect follows, however long the page's clock runs past the delay of a success.
    await stopPageClock(page);
    await page.clock.runFor(REDIRECT_DELAY_MS + 200);
    await expect(page).toHaveURL('/login/');
  });

  test('a superuser already signed in who opens the login page is refused', async ({ page }) => {
    await fakeSuperuserSession(page);
    await openInBrowser(page, '/login/');
    await expect(page.getByRole('alertdialog')).toContainText('Super users cannot access this page');
    await expect(page).toHaveURL('/login/');
  });

  test('a user already signed in is sent on to their screen', async ({ page }) => {
    const student = await createStudent();
    await signInThroughApi(page, student);
    await page.goto('/login/');
    await expect(page).toHaveURL('/survey/');
  });

  test('"Back" returns to the previous screen, or home when opened directly', async ({ page }) => {
    await page.goto('/demo-survey/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).click();
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL('/demo-survey/');

    await page.goto('/login/');
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL('/');
  });

  test.describe('next', () => {
    test('returns to a same-site path after login', async ({ page }) => {
      const student = await createStudent();
      await signInWithForm(page, student, '/login/?next=%2Fsurvey%2Flink%2Fabc123%2F');
      await page.waitForURL(/\/survey\/link\/abc123\/$/);
    });

    for (const offSite of [
      '//evil.example/phish',
      '/\\evil.example/phish',
      'https://evil.example/phish',
      'javascript:alert(1)',
      '/\t/evil.example',
      '/.//evil.example:8080/',
      '/%2e//evil.example/',
      '/survey/..//evil.example/',
    ]) {
      test(`ignores the off-site next ${JSON.stringify(offSite)}`, async ({ page, baseURL }) => {
        const student = await createStudent();
        await signInWithForm(page, student, `/login/?next=${encodeURIComponent(offSite)}`);
        await page.waitForURL(/\/survey\/$/);
        expect(new URL(page.url()).origin).toBe(baseURL);
        expect(page.url()).not.toContain('evil.example');
      });
    }
  });
});

test('signing in again works after the session ended on the server', async ({ page, context }) => {
  const student = await createStudent();
  await signInThroughApi(page, student);
  await page.goto('/');
  // The session expires server-side; the browser keeps its CSRF token bound to that session.
  const remaining = (await context.cookies()).filter((cookie) => cookie.name !== 'sessionid');
  await context.clearCookies();
  await context.addCookies(remaining);

  await signInWithForm(page, student);
  await page.waitForURL(/\/survey\/$/);
});
