import { DISPLAY_COOKIES } from '../../src/common/displayCookies';
import {
  type Account,
  createAdmin,
  createStudent,
  DEMO_INSTITUTION,
  expect,
  fakeSuperuserSession,
  inviteStaff,
  joinFromInvitation,
  menuLinks,
  type Page,
  type StaffRole,
  signIn,
  test,
} from './support';

/** A page with the site's header that the browser draws alone (the not-found screen). */
const BROWSER_DRAWN_PAGE = '/no-such-page/';

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const footerNav = (page: Page) => page.getByRole('navigation', { name: 'Footer' });

/** Holds every `/api/user/` call until the returned function is called: the header has only the cookies. */
async function holdUserCalls(page: Page): Promise<() => void> {
  let answerUserCalls: () => void = () => {};
  const serverAnswered = new Promise<void>((resolve) => {
    answerUserCalls = resolve;
  });
  await page.route('**/api/user/', async (route) => {
    await serverAnswered;
    await route.continue();
  });
  return answerUserCalls;
}

/** The footer repeats the header's visitor links, so a signed-in user sees neither of them there. */
async function expectSignedInFooter(page: Page) {
  const footer = footerNav(page);
  await expect(footer.getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/#contact');
  await expect(footer.getByRole('link', { name: 'Login' })).toHaveCount(0);
  await expect(footer.getByRole('link', { name: 'Demo Survey' })).toHaveCount(0);
}

async function expectMenuLinks(page: Page, links: Record<string, string>) {
  const nav = mainNav(page);
  for (const [name, href] of Object.entries(links)) {
    await expect(nav.getByRole('link', { name })).toHaveAttribute('href', href);
  }
}

test.describe('header', () => {
  test('anonymous visitors see "Demo Survey" and "Login"', async ({ page }) => {
    await page.goto('/');
    const nav = mainNav(page);
    await expect(nav.getByRole('link', { name: 'Demo Survey' })).toHaveAttribute('href', '/demo-survey/');
    await expect(nav.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login/');
    await expect(nav.getByRole('button')).toHaveCount(0);
    const footer = footerNav(page);
    await expect(footer.getByRole('link', { name: 'Demo Survey' })).toHaveAttribute('href', '/demo-survey/');
    await expect(footer.getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/#contact');
    await expect(footer.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login/');

    await nav.getByRole('link', { name: 'Demo Survey' }).click();
    await expect(page).toHaveURL('/demo-survey/');
    await mainNav(page).getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL('/login/');
  });

  test.describe('signed-in student', () => {
    let student: Account;
    test.beforeEach(async ({ page }) => {
      student = await createStudent();
      await signIn(page, student);
      await page.goto('/');
    });

    test('sees their email in a dropdown with "New Survey" and Logout, toggled by clicks', async ({
      page,
    }) => {
      const toggle = mainNav(page).getByRole('button', { name: student.email });
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(mainNav(page).getByRole('link', { name: 'New Survey' })).toBeHidden();

      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await expectMenuLinks(page, {
        'New Survey': '/survey/',
        'My Records': '/account/records/',
        Account: '/account/',
      });
      await expect(mainNav(page).getByRole('button', { name: 'Logout' })).toBeVisible();
      await expect(mainNav(page).getByRole('link', { name: 'Dashboard' })).toHaveCount(0);

      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(mainNav(page).getByRole('link', { name: 'New Survey' })).toBeHidden();
    });

    test('the footer offers no "Login" or "Demo Survey" link', async ({ page }) => {
      await expect(mainNav(page).getByRole('button', { name: student.email })).toBeVisible();
      await expectSignedInFooter(page);
      await page.goto('/survey/');
      await expect(page.getByRole('heading', { level: 1, name: 'Student Wellness Check' })).toBeVisible();
      await expectSignedInFooter(page);
    });

    test('the dropdown closes on Escape (focus back on its button) and on an outside click', async ({
      page,
    }) => {
      const toggle = mainNav(page).getByRole('button', { name: student.email });
      await toggle.click();
      await page.keyboard.press('Escape');
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(toggle).toBeFocused();

      await toggle.click();
      await expect(mainNav(page).getByRole('link', { name: 'New Survey' })).toBeVisible();
      await page.getByRole('heading', { level: 1 }).click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(mainNav(page).getByRole('link', { name: 'New Survey' })).toBeHidden();
    });

    test('the dropdown works from the keyboard alone', async ({ page }) => {
      const toggle = mainNav(page).getByRole('button', { name: student.email });
      await toggle.focus();
      await page.keyboard.press('Enter');
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');

      await page.keyboard.press('ArrowDown');
      await expect(mainNav(page).getByRole('link', { name: 'New Survey' })).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await expect(mainNav(page).getByRole('link', { name: 'My Records' })).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await expect(mainNav(page).getByRole('link', { name: 'Account' })).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await expect(mainNav(page).getByRole('button', { name: 'Logout' })).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await expect(mainNav(page).getByRole('link', { name: 'New Survey' })).toBeFocused();

      await page.keyboard.press('Enter');
      await expect(page).toHaveURL('/survey/');
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    });

    test('Tab moving focus out of the dropdown closes it', async ({ page }) => {
      const toggle = mainNav(page).getByRole('button', { name: student.email });
      await toggle.click();
      await page.keyboard.press('Tab');
      await expect(mainNav(page).getByRole('link', { name: 'New Survey' })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(mainNav(page).getByRole('link', { name: 'My Records' })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(mainNav(page).getByRole('link', { name: 'Account' })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(mainNav(page).getByRole('button', { name: 'Logout' })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    });
  });

  test('institution admins get Dashboard, Edit Templates, Preview Survey, Team, Activity and Logout', async ({
    page,
  }) => {
    const admin = await createAdmin();
    await signIn(page, admin);
    await page.goto('/');
    await mainNav(page).getByRole('button', { name: admin.email }).click();
    await expectMenuLinks(page, {
      Dashboard: '/dashboard/',
      'Edit Templates': '/admin/survey-templates/',
      'Preview Survey': '/survey/',
      Team: '/admin/team/',
      Activity: '/admin/activity/',
    });
    await expect(mainNav(page).getByRole('button', { name: 'Logout' })).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'New Survey' })).toHaveCount(0);

    await expectSignedInFooter(page);

    await mainNav(page).getByRole('link', { name: 'Edit Templates' }).click();
    await expect(page).toHaveURL('/admin/survey-templates/');
    await expectSignedInFooter(page);
  });

  test('a superuser sees "Logged in as Superuser" instead of an email', async ({ page }) => {
    await fakeSuperuserSession(page);
    // A page the browser draws: the server renders the public pages from its own answer.
    await page.goto(BROWSER_DRAWN_PAGE);
    const badge = mainNav(page).getByRole('button', { name: 'Logged in as Superuser' });
    await expect(badge).toBeVisible();
    await expect(mainNav(page).getByText('root@demo.edu')).toHaveCount(0);
    await badge.click();
    await expect(mainNav(page).getByRole('button', { name: 'Logout' })).toBeVisible();
    await expectSignedInFooter(page);
  });

  test('the stored display cookies decide the header until the server answers', async ({
    page,
    context,
    baseURL,
  }) => {
    // Cookies left behind by a session that has since ended on the server.
    const url = baseURL ?? '';
    await context.addCookies([
      { name: 'auth_token', value: 'stale', url },
      { name: 'user_email', value: 'former@demo.edu', url },
      { name: 'is_institution_admin', value: 'true', url },
      { name: 'is_superuser', value: 'false', url },
    ]);
    const answerUserCall = await holdUserCalls(page);

    // A page the browser draws: the server renders the public pages from its own answer.
    await page.goto(BROWSER_DRAWN_PAGE);
    await expect(mainNav(page).getByRole('button', { name: 'former@demo.edu' })).toBeVisible();

    answerUserCall();
    await expect(mainNav(page).getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(mainNav(page).getByRole('button')).toHaveCount(0);
    const names = (await context.cookies()).map((cookie) => cookie.name);
    expect(names).not.toContain('user_email');
    expect(names).not.toContain('auth_token');
  });
});

/** Each staff role's menu, as common/roles.ts gives it. */
const STAFF_MENUS: { role: StaffRole; links: string[] }[] = [
  { role: 'counsellor', links: ['Dashboard', 'Cases', 'Account'] },
  { role: 'viewer', links: ['Dashboard', 'Account'] },
];

test.describe('header at first paint', () => {
  for (const { role, links } of STAFF_MENUS) {
    test(`a ${role} gets the ${role}'s menu from the display cookies, before the server answers`, async ({
      page,
    }) => {
      const admin = await createAdmin();
      await signIn(page, admin);
      const member = await inviteStaff(page, role, DEMO_INSTITUTION.domain);
      await page.context().clearCookies();
      await joinFromInvitation(page, member);

      const answerUserCalls = await holdUserCalls(page);
      // A page the browser draws: the server renders the public pages from its own answer.
      await page.goto(BROWSER_DRAWN_PAGE);
      expect(await menuLinks(page)).toEqual(links);
      answerUserCalls();
      await expect(mainNav(page).getByRole('button', { name: member.email })).toBeVisible();
      expect(await menuLinks(page)).toEqual(links);
    });
  }
});

test.describe('logout', () => {
  test('ends the session, clears what the browser stored, and goes home', async ({ page, context }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.goto('/demo-survey/');
    await page.evaluate(() => sessionStorage.setItem('pending-survey', '{"1":"3"}'));

    await mainNav(page).getByRole('button', { name: student.email }).click();
    await mainNav(page).getByRole('button', { name: 'Logout' }).click();

    await expect(page).toHaveURL('/');
    await expect(mainNav(page).getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(footerNav(page).getByRole('link', { name: 'Login' })).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    const names = (await context.cookies()).map((cookie) => cookie.name);
    for (const name of [...DISPLAY_COOKIES, 'sessionid']) {
      expect(names).not.toContain(name);
    }
    const user = await page.request.get('/api/user/');
    expect(user.status()).toBe(401);
  });

  test('still signs out locally and goes home when the server call fails', async ({ page, context }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.goto('/demo-survey/');
    await page.evaluate(() => sessionStorage.setItem('pending-survey', '{"1":"3"}'));
    await page.route('**/api/logout/', (route) => route.abort('failed'));

    await mainNav(page).getByRole('button', { name: student.email }).click();
    await mainNav(page).getByRole('button', { name: 'Logout' }).click();

    await expect(page).toHaveURL('/');
    await expect(mainNav(page).getByRole('link', { name: 'Login' })).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    const names = (await context.cookies()).map((cookie) => cookie.name);
    for (const name of DISPLAY_COOKIES) {
      expect(names).not.toContain(name);
    }
  });
});

test.describe('logout from a screen that needs a login', () => {
  // Each of these screens sends a signed-out visitor to the login page; Logout must still go home.
  const screens = [
    { path: '/survey/', heading: 'Student Wellness Check', role: 'student' },
    { path: '/dashboard/', heading: 'Student Wellness Dashboard', role: 'admin' },
    { path: '/admin/survey-templates/', heading: 'Survey Templates', role: 'admin' },
    { path: '/schedule-survey/', heading: 'Schedule Survey', role: 'admin' },
  ] as const;

  for (const { path, heading, role } of screens) {
    for (const outcome of ['succeeds', 'fails'] as const) {
      test(`from ${path} goes to / when the logout call ${outcome}`, async ({ page }) => {
        const account = role === 'student' ? await createStudent() : await createAdmin();
        await signIn(page, account);
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        if (outcome === 'fails') await page.route('**/api/logout/', (route) => route.abort('failed'));
        const visited: string[] = [];
        page.on('framenavigated', (frame) => {
          if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
        });

        await mainNav(page).getByRole('button', { name: account.email }).click();
        await mainNav(page).getByRole('button', { name: 'Logout' }).click();

        await expect(mainNav(page).getByRole('link', { name: 'Login' })).toBeVisible();
        await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(heading);
        // Give a late redirect the chance to happen before checking where the user is.
        await page.waitForLoadState('networkidle');
        await expect(page).toHaveURL((url) => url.pathname === '/' && url.search === '');
        expect(visited.filter((visitedPath) => visitedPath.startsWith('/login'))).toEqual([]);
      });
    }
  }
});
