import { setTimeout as delay } from 'node:timers/promises';
import type { Browser } from '@playwright/test';
import { SSO_ERROR_MESSAGES } from '../../src/common/schemas/sso';
import {
  CLIENT_SECRET,
  CLIENTS,
  SHORT_CODE_TTL_S,
  startTestProvider,
  type TestProvider,
} from '../helpers/oidc-provider';
import { apiOf } from './admin-support';
import {
  baseUrl,
  completeSecondFactorOnScreen,
  createAdmin,
  createInstitutionWithAdmin,
  createStudent,
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  type Page,
  SCREEN_WIDTHS,
  saveScreenshot,
  signInThroughApi,
  signInWithForm,
  type TestInstitution,
  test,
  uniqueId,
} from './support';

/**
 * Design section 11: students and staff sign in with their university account through the
 * institution's OpenID Connect provider, a real one started here (oidc-provider). Each test sets
 * up an institution of its own, through the admin API as an admin would.
 */

const FAILED = 'Sign-in with your institution did not work. Try again, or sign in with your password.';
const EXPIRED = 'That sign-in took too long or was already used. Start again.';
const UNREACHABLE = "Your institution's sign-in service could not be reached.";

/** The app's callback, registered with the provider. */
const CALLBACK = () => new URL('/api/sso/callback/', baseUrl()).href;

let provider: TestProvider;

test.beforeAll(async () => {
  provider = await startTestProvider(CALLBACK());
});
test.afterAll(async () => {
  await provider.stop();
});

/** Sets up single sign-on for the institution as its admin does, from a browser of the admin's own. */
async function setUpSso(
  browser: Browser,
  institution: TestInstitution,
  settings: { issuer?: string; clientId?: string; studentPasswords?: boolean } = {},
) {
  const context = await browser.newContext({
    extraHTTPHeaders: {
      'X-Forwarded-For': `10.250.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`,
    },
  });
  try {
    const page = await context.newPage();
    await signInThroughApi(page, institution.admin);
    const csrf = (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
    const issuer = settings.issuer ?? provider.issuer;
    const clientId = settings.clientId ?? CLIENTS.ordinary;
    // As on the screen: single sign-on is switched on only with settings whose test passed.
    const tested = await context.request.post('/api/institution/sso/test/', {
      headers: { 'X-CSRFToken': csrf },
      data: { issuer, client_id: clientId },
    });
    expect(tested.status(), await tested.text()).toBe(200);
    const response = await context.request.put('/api/institution/sso/', {
      headers: { 'X-CSRFToken': csrf },
      data: {
        issuer,
        client_id: clientId,
        client_secret: CLIENT_SECRET,
        domains: [institution.domain],
        student_password_sign_in: settings.studentPasswords ?? true,
      },
    });
    expect(response.status(), await response.text()).toBe(200);
    expect(await response.text()).not.toContain(CLIENT_SECRET);
  } finally {
    await context.close();
  }
}

/** Types the address on the login page and follows the institution's button to the provider. */
async function startSignIn(page: Page, institution: TestInstitution, email: string, loginPath = '/login/') {
  await page.goto(loginPath);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('link', { name: `Sign in with ${institution.name}` }).click();
}

/** Signs in at the provider's own (development) form, and agrees to share the address. */
async function signInAtProvider(page: Page, email: string) {
  await page.getByPlaceholder('Enter any login').fill(email);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * Keeps the browser at the provider once the person agreed: the provider's answer (which issues
 * the code) is fetched, and the address it would send the browser back to is given to the test
 * instead. (Redirects cannot be held in the browser itself.)
 */
function holdTheWayBack(page: Page): Promise<string> {
  return new Promise((resolve, reject) => {
    void page.route(`${provider.issuer}/interaction/**`, async (route) => {
      if (!route.request().postData()?.includes('prompt=consent')) return route.continue();
      try {
        const agreed = await route.fetch({ maxRedirects: 0 });
        const resume = new URL(agreed.headers().location ?? '', provider.issuer).href;
        const issued = await page.context().request.get(resume, { maxRedirects: 0 });
        const location = issued.headers().location ?? '';
        if (!location.includes('/api/sso/callback/')) throw new Error(`no way back: ${location}`);
        await route.fulfill({ status: 200, contentType: 'text/plain', body: 'Held at the provider' });
        resolve(location);
      } catch (error) {
        reject(error);
      }
    });
  });
}

async function currentUser(page: Page) {
  const response = await page.context().request.get('/api/user/');
  return { status: response.status(), body: (await response.json()) as Record<string, unknown> };
}

test.describe('single sign-on', () => {
  test('a new student signs in with the university account and has an account from then on', async ({
    page,
    browser,
  }) => {
    const institution = await createInstitutionWithAdmin();
    await setUpSso(browser, institution);
    const email = `new-${uniqueId()}@${institution.domain}`;
    await startSignIn(page, institution, email);
    await signInAtProvider(page, email);
    await expect(page).toHaveURL('/survey/');
    expect(await currentUser(page)).toEqual({
      status: 200,
      body: expect.objectContaining({ email, role: 'student', institution_name: institution.name }),
    });
    // The account stays: the next sign-in through the institution is the same student. A `next`
    // that leaves the site (as a forged link would carry it) is dropped: the student lands at home.
    await page.context().clearCookies();
    await page.goto('/login/');
    await page.getByLabel('Email').fill(email);
    const start = page.getByRole('link', { name: `Sign in with ${institution.name}` });
    await page.goto(`${await start.getAttribute('href')}&next=${encodeURIComponent('//evil.example/')}`);
    await signInAtProvider(page, email);
    await expect(page).toHaveURL('/survey/');
    expect((await currentUser(page)).body).toMatchObject({ email, role: 'student' });
  });

  test('an admin signs in with the institution once linked, and still proves the second factor', async ({
    page,
    browser,
  }) => {
    const institution = await createInstitutionWithAdmin();
    await setUpSso(browser, institution);
    // The provider proving the admin's address alone signs nobody in as staff.
    await startSignIn(page, institution, institution.admin.email);
    await signInAtProvider(page, institution.admin.email);
    await expect(page).toHaveURL('/login/?sso_error=unlinked');
    await expect(page.getByRole('alert')).toHaveText(SSO_ERROR_MESSAGES.unlinked);

    // Signed in with password and second factor, the admin links the institution account.
    await signInThroughApi(page, institution.admin);
    const link = await apiOf(page).send<{ authorization_url: string }>('post', '/api/sso/link/');
    await page.goto(link.authorization_url);
    await expect(page).toHaveURL('/dashboard/');

    await page.context().clearCookies();
    await startSignIn(page, institution, institution.admin.email, '/login/?next=/admin/settings/');
    await signInAtProvider(page, institution.admin.email);
    await completeSecondFactorOnScreen(page, institution.admin);
    await expect(page).toHaveURL('/admin/settings/');
    await expect(page.getByRole('heading', { level: 1, name: 'Institution settings' })).toBeVisible();
    expect((await currentUser(page)).body).toMatchObject({ email: institution.admin.email, role: 'admin' });
  });

  test("an admin allows a colleague's next sign-in with the institution to link, from the Team screen", async ({
    page,
    browser,
  }) => {
    const institution = await createInstitutionWithAdmin();
    const colleague = await createAdmin(institution.name, institution.domain);
    await setUpSso(browser, institution);
    await signInThroughApi(page, institution.admin);
    await page.goto('/admin/team/');
    // The admin's own row offers the self-link; a colleague's, the permission.
    await expect(page.getByRole('button', { name: 'Link single sign-on' })).toBeVisible();
    await page.getByRole('button', { name: `Allow single sign-on link for ${colleague.name}` }).click();
    await expect(page.getByText(`${colleague.name}'s next sign-in with single sign-on`)).toBeVisible();
    await expect(page.getByText('Their next single sign-on links it, until')).toBeVisible();

    await page.context().clearCookies();
    await startSignIn(page, institution, colleague.email, '/login/?next=/admin/team/');
    await signInAtProvider(page, colleague.email);
    await completeSecondFactorOnScreen(page, colleague);
    await expect(page).toHaveURL('/admin/team/');
    expect((await currentUser(page)).body).toMatchObject({ email: colleague.email, role: 'admin' });
    await expect(page.getByText('Signs in with single sign-on')).toBeVisible();
  });

  test('a token meant for another application is refused', async ({ page, browser }) => {
    const institution = await createInstitutionWithAdmin();
    await setUpSso(browser, institution, { clientId: CLIENTS.wrongAudience });
    const email = `aud-${uniqueId()}@${institution.domain}`;
    await startSignIn(page, institution, email);
    await signInAtProvider(page, email);
    await expect(page).toHaveURL('/login/?sso_error=failed');
    await expect(page.getByRole('alert')).toHaveText(FAILED);
    expect((await currentUser(page)).status).toBe(401);
  });

  test('the address the provider sent back works once', async ({ page, browser }) => {
    const institution = await createInstitutionWithAdmin();
    await setUpSso(browser, institution);
    const email = `replay-${uniqueId()}@${institution.domain}`;
    await startSignIn(page, institution, email);
    const callback = page.waitForRequest((request) => request.url().includes('/api/sso/callback/'));
    await signInAtProvider(page, email);
    const callbackUrl = (await callback).url();
    await expect(page).toHaveURL('/survey/');

    // Someone who got hold of the address (a shared computer's history, a log) tries it again.
    const other = await browser.newPage();
    try {
      await other.goto(callbackUrl);
      await expect(other).toHaveURL('/login/?sso_error=expired');
      await expect(other.getByRole('alert')).toHaveText(EXPIRED);
      expect((await currentUser(other)).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  test('a code used after it expired is refused', async ({ page, browser }) => {
    const institution = await createInstitutionWithAdmin();
    await setUpSso(browser, institution, { clientId: CLIENTS.shortLivedCodes });
    const email = `late-${uniqueId()}@${institution.domain}`;
    const callbackUrl = holdTheWayBack(page);
    await startSignIn(page, institution, email);
    await signInAtProvider(page, email);
    const url = await callbackUrl;
    // The browser comes back only once the code has expired (a slow network, a sleeping laptop).
    await delay((SHORT_CODE_TTL_S + 1) * 1000);
    await page.goto(url);
    await expect(page).toHaveURL('/login/?sso_error=failed');
    await expect(page.getByRole('alert')).toHaveText(FAILED);
    expect((await currentUser(page)).status).toBe(401);
  });

  test('a provider that is down is explained, and passwords still work', async ({ page, browser }) => {
    const institution = await createInstitutionWithAdmin();
    const down = await startTestProvider(CALLBACK());
    await setUpSso(browser, institution, { issuer: down.issuer });
    await down.stop();
    await startSignIn(page, institution, institution.admin.email);
    await expect(page).toHaveURL('/login/?sso_error=unreachable');
    await expect(page.getByRole('alert')).toContainText(UNREACHABLE);
    await signInWithForm(page, institution.admin);
    await completeSecondFactorOnScreen(page, institution.admin);
    await expect(page).toHaveURL('/dashboard/');
  });

  test('students of an institution that switched their passwords off are sent to its sign-in', async ({
    page,
    browser,
  }) => {
    const institution = await createInstitutionWithAdmin();
    const student = await createStudent(institution);
    await setUpSso(browser, institution, { studentPasswords: false });
    await signInWithForm(page, student);
    await expect(page.getByRole('alertdialog')).toContainText(`Sign in with ${institution.name}`);
    expect((await currentUser(page)).status).toBe(401);
  });

  for (const [label, width] of Object.entries(SCREEN_WIDTHS)) {
    test(`the login page offers the institution's sign-in, and the admin sets it up (${label})`, async ({
      page,
      browser,
    }) => {
      const institution = await createInstitutionWithAdmin();
      await setUpSso(browser, institution);
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/login/?sso_error=unreachable');
      await page.getByLabel('Email').fill(`someone@${institution.domain}`);
      await expect(page.getByRole('link', { name: `Sign in with ${institution.name}` })).toBeVisible();
      await expectNoA11yViolations(page);
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, 'sso-login');

      await signInThroughApi(page, institution.admin);
      await page.goto('/admin/settings/');
      const section = page.getByRole('heading', { level: 2, name: 'Single sign-on' });
      await expect(section).toBeVisible();
      await expect(page.getByLabel('Issuer URL')).toHaveValue(provider.issuer);
      await expect(page.getByLabel('Client secret')).toHaveValue('');
      await expect(page.getByText('A secret is stored.')).toBeVisible();
      await section.scrollIntoViewIfNeeded();
      await expectNoA11yViolations(page);
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, 'sso-settings');
    });
  }
});

test('single sign-on is switched on only after a successful connection test of that provider', async ({
  page,
}) => {
  test.slow();
  const institution = await createInstitutionWithAdmin();
  await signInThroughApi(page, institution.admin);
  await page.goto('/admin/settings/');
  await expect(page.getByRole('heading', { level: 2, name: 'Single sign-on' })).toBeVisible();
  const switchOn = page.getByRole('button', { name: 'Switch single sign-on on' });
  const note = page.getByText(
    'Test the connection to this provider before single sign-on can be switched on.',
  );

  // A provider that is not there: the test says so, and switching on stays refused.
  // Port 1: nothing listens there.
  const down = 'http://127.0.0.1:1';
  await page.getByLabel('Issuer URL').fill(down);
  await page.getByLabel('Client ID').fill(CLIENTS.ordinary);
  await page.getByLabel('Client secret').fill(CLIENT_SECRET);
  await page.getByLabel('Email domains').fill(institution.domain);
  await expect(note).toBeVisible();
  await expect(switchOn).toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(
    page.getByText(`The provider at ${down} could not be reached. Check the issuer URL.`),
  ).toBeVisible();
  // Pressed anyway (it stays focusable, announced as unavailable): nothing is switched on.
  await switchOn.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Off: everyone signs in with a password.', { exact: false })).toBeVisible();
  expect((await apiOf(page).send<{ sso: unknown }>('get', '/api/institution/sso/')).sso).toBeNull();

  // The real provider: tested, then switched on.
  await page.getByLabel('Issuer URL').fill(provider.issuer);
  await expect(note).toBeVisible();
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(
    page.getByText(`Connected: ${provider.issuer} answers as an OpenID Connect provider.`),
  ).toBeVisible();
  await expect(switchOn).not.toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('heading', { level: 2, name: 'Single sign-on' }).scrollIntoViewIfNeeded();
  await expectNoA11yViolations(page);
  await switchOn.click();
  await expect(page.getByText('Single sign-on saved.')).toBeVisible();
  await expect(page.getByText('On: people with these addresses can sign in', { exact: false })).toBeVisible();
});

test('the server refuses settings whose test no longer stands, and the screen says why', async ({ page }) => {
  test.slow();
  const institution = await createInstitutionWithAdmin();
  await signInThroughApi(page, institution.admin);
  await page.goto('/admin/settings/');
  const switchOn = page.getByRole('button', { name: 'Switch single sign-on on' });
  await page.getByLabel('Issuer URL').fill(provider.issuer);
  await page.getByLabel('Client ID').fill(CLIENTS.ordinary);
  await page.getByLabel('Email domains').fill(institution.domain);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText(`Connected: ${provider.issuer}`)).toBeVisible();
  await expect(switchOn).not.toHaveAttribute('aria-disabled', 'true');

  // Meanwhile another client of the provider is tested (another admin, another tab): the pass
  // the server holds is no longer of these settings, whatever this screen remembers.
  await apiOf(page).send('post', '/api/institution/sso/test/', {
    issuer: provider.issuer,
    client_id: 'another-client',
  });
  await switchOn.click();
  const why =
    'The last successful connection test was of another issuer URL or client ID. Test the connection with these settings, then save.';
  // Said beside the button, as what describes it, and the button is unavailable until a new test.
  await expect(switchOn).toHaveAccessibleDescription(why);
  await expect(switchOn).toHaveAttribute('aria-disabled', 'true');
  expect((await apiOf(page).send<{ sso: unknown }>('get', '/api/institution/sso/')).sso).toBeNull();
  const section = page.getByRole('heading', { level: 2, name: 'Single sign-on' });
  await section.scrollIntoViewIfNeeded();
  await expectNoA11yViolations(page);
  for (const width of Object.values(SCREEN_WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, 'sso-refusal');
  }

  // Tested again, the same settings go through.
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(switchOn).not.toHaveAttribute('aria-disabled', 'true');
  await switchOn.click();
  await expect(page.getByText('Single sign-on saved.')).toBeVisible();
});
