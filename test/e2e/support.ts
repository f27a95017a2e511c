import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import {
  type APIRequestContext,
  test as base,
  expect,
  type Page,
  request,
  type TestInfo,
} from '@playwright/test';
import { generate } from 'otplib';
import { SIGN_IN_CHANGE_SUBJECT } from '../../src/common/schemas/second-factor';
import { findTestBrowser, missingChromiumMessage } from './chromium';
import { E2E_DEMO_PASSWORD } from './demo-password';
import { insertInstitution, insertStaffAccount, openSessionFor } from './run-database';

/**
 * Shared helpers for the browser specs: every spec imports `test` and `expect` from here.
 * Accounts a test changes are created fresh for that test, so specs run in parallel safely.
 */

export { expect };

export interface Account {
  email: string;
  password: string;
  name: string;
}

export const DEMO_INSTITUTION = { name: 'Demo University', domain: 'demo.edu' } as const;
export const DEMO_STUDENT: Account = {
  email: 'student@demo.edu',
  password: E2E_DEMO_PASSWORD,
  name: 'Demo Student',
};

/** Password for accounts the specs create: long and uncommon, so the server's rules accept it. */
export const TEST_PASSWORD = 'Calm-Harbor-Lantern-42';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results', 'screenshots');

export function baseUrl(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: run the specs through `npx playwright test`.');
  return url;
}

/**
 * A made-up client address per test. The server (started with TRUST_PROXY) reads it from
 * X-Forwarded-For, so per-IP rate limits count each test on its own.
 */
export function clientAddressFor(seed: string): string {
  const bytes = crypto.createHash('sha256').update(seed).digest();
  return `10.${bytes[0]}.${bytes[1]}.${Math.max(1, bytes[2] ?? 1)}`;
}

export const test = base.extend<{ skipWithoutChromium: undefined }>({
  skipWithoutChromium: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures must destructure their dependencies.
    async ({}, use, testInfo) => {
      testInfo.skip(!findTestBrowser(), missingChromiumMessage());
      await use(undefined);
    },
    { auto: true },
  ],
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    await use({
      ...extraHTTPHeaders,
      'X-Forwarded-For': clientAddressFor(`${testInfo.testId}:${testInfo.retry}`),
    });
  },
});

let uniqueCounter = 0;

/** A short id unique across workers and runs, for emails and names. */
export function uniqueId(): string {
  uniqueCounter += 1;
  return `${process.pid.toString(36)}${Date.now().toString(36)}${uniqueCounter}`;
}

// ---------------------------------------------------------------------------------------------
// Fixtures through the real server's code: its service functions for staff accounts (what the
// operator commands run, see run-database.ts), the API for students.

export async function createInstitution(name: string, domains: string[]): Promise<void> {
  await insertInstitution(name, domains);
}

/** A new account's details: `<prefix>-<id>@<domain>`, named "<label> <id>", with TEST_PASSWORD. */
function newAccount(prefix: string, label: string, domain: string): Account {
  const id = uniqueId();
  return { email: `${prefix}-${id}@${domain}`, password: TEST_PASSWORD, name: `${label} ${id}` };
}

export async function createAdmin(
  institution: string = DEMO_INSTITUTION.name,
  domain: string = DEMO_INSTITUTION.domain,
): Promise<Account> {
  const account = newAccount('admin', 'Admin', domain);
  await insertStaffAccount({ role: 'institution_admin', institutionName: institution, ...account });
  return account;
}

export async function createSuperuser(): Promise<Account> {
  const account = newAccount('root', 'Root', DEMO_INSTITUTION.domain);
  await insertStaffAccount({ role: 'superuser', ...account });
  return account;
}

export interface TestInstitution {
  name: string;
  domain: string;
  admin: Account;
}

/**
 * A new institution (which starts with the default template, active) and its administrator.
 * Tests that change templates or submissions use one, so they never see each other's data.
 */
export async function createInstitutionWithAdmin(): Promise<TestInstitution> {
  const id = uniqueId();
  const name = `Test College ${id}`;
  const domain = `college-${id}.edu`;
  await insertInstitution(name, [domain]);
  return { name, domain, admin: await createAdmin(name, domain) };
}

/** Registers a new student of `institution` (Demo University unless given) through the public API. */
export async function createStudent(
  institution: { name: string; domain: string } = DEMO_INSTITUTION,
): Promise<Account> {
  const account = newAccount('student', 'Student', institution.domain);
  const api = await request.newContext({
    baseURL: baseUrl(),
    extraHTTPHeaders: { 'X-Forwarded-For': clientAddressFor(`register:${account.email}`) },
  });
  try {
    const csrf = await api.get('/api/csrf/');
    const { csrftoken } = (await csrf.json()) as { csrftoken: string };
    const response = await api.post('/api/register/', {
      headers: { 'X-CSRFToken': csrftoken },
      data: {
        institution_name: institution.name,
        name: account.name,
        email: account.email,
        password: account.password,
        confirm_password: account.password,
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    // The account signs in once its address is proven with the mailed code, from the same browser.
    const check = await api.post('/api/verify/check/', {
      headers: { 'X-CSRFToken': csrftoken },
      data: { email: account.email, code: await mailedCode(account.email) },
    });
    expect(check.status(), await check.text()).toBe(200);
  } finally {
    await api.dispose();
  }
  return account;
}

// ---------------------------------------------------------------------------------------------
// Signing in.

async function csrfCookie(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((candidate) => candidate.name === 'csrftoken');
  if (!cookie) throw new Error('No csrftoken cookie');
  return cookie.value;
}

/**
 * Recovery codes of the staff accounts this worker set up a second factor for. Staff accounts
 * are made per test (createAdmin), so no other worker ever signs one in.
 */
const recoveryCodesOf = new Map<string, string[]>();

/** Remembers the recovery codes of a staff account set up on screen. */
export function rememberRecoveryCodes(email: string, codes: string[]) {
  recoveryCodesOf.set(email.toLowerCase(), codes);
}

/**
 * Completes a staff sign-in that asks for a second factor (design section 11), through the API:
 * the first time, sets up an authenticator app; later, spends a recovery code (an app code works
 * once per 30 seconds, and tests sign in more often than that).
 */
export async function completeSecondFactor(
  api: APIRequestContext,
  account: Account,
  step: string | undefined,
  csrf: () => Promise<string>,
): Promise<void> {
  if (step === 'enrol') {
    const setup = await api.post('/api/second-factor/totp/setup/', {
      headers: { 'X-CSRFToken': await csrf() },
    });
    expect(setup.status(), await setup.text()).toBe(200);
    const { secret } = (await setup.json()) as { secret: string };
    const confirm = await api.post('/api/second-factor/totp/confirm/', {
      headers: { 'X-CSRFToken': await csrf() },
      data: { code: await generate({ secret }) },
    });
    expect(confirm.status(), await confirm.text()).toBe(200);
    rememberRecoveryCodes(
      account.email,
      ((await confirm.json()) as { recovery_codes: string[] }).recovery_codes,
    );
  } else if (step === 'verify') {
    const code = recoveryCodesOf.get(account.email.toLowerCase())?.shift();
    if (!code) throw new Error(`${account.email} has a second factor this worker did not set up`);
    const verify = await api.post('/api/second-factor/verify/', {
      headers: { 'X-CSRFToken': await csrf() },
      data: { code },
    });
    expect(verify.status(), await verify.text()).toBe(200);
  }
}

/**
 * Signs in without going through sign-in at all: a session opened with the server's own session
 * function, its cookies put in the page's browser, as set-up for screens behind login. Staff need
 * no second factor set up for it. The specs whose subject is signing in use signInThroughApi or
 * the form.
 */
export async function signIn(page: Page, account: Account): Promise<void> {
  const context = page.context();
  const url = baseUrl();
  await context.addCookies(
    (await openSessionFor(account.email)).map((cookie) => ({ ...cookie, url, sameSite: 'Lax' as const })),
  );
  // A token from before the session is not bound to it: the server issues one that is.
  await context.clearCookies({ name: 'csrftoken' });
  const csrf = await context.request.get('/api/csrf/');
  expect(csrf.status(), await csrf.text()).toBe(200);
}

/** Signs in through the API with the page's own cookie jar, the second factor included. */
export async function signInThroughApi(page: Page, account: Account): Promise<void> {
  const api = page.context().request;
  await api.get('/api/csrf/');
  const response = await api.post('/api/login/', {
    headers: { 'X-CSRFToken': await csrfCookie(page) },
    data: { email: account.email, password: account.password },
  });
  expect(response.status(), await response.text()).toBe(200);
  const { user } = (await response.json()) as { user: { second_factor?: string } };
  await completeSecondFactor(api, account, user.second_factor, () => csrfCookie(page));
}

/**
 * Completes the second-factor screen as a person does after the login form: the first time,
 * types the key shown into an "app" and saves the recovery codes; later, types a recovery code.
 */
export async function completeSecondFactorOnScreen(page: Page, account: Account): Promise<void> {
  await expect(page).toHaveURL(/\/sign-in\/second-factor\//);
  const setUp = page.getByRole('heading', { level: 1, name: 'Set up your authenticator app' });
  const prompt = page.getByRole('heading', { level: 1, name: "Confirm it's you" });
  await expect(setUp.or(prompt)).toBeVisible();
  if (await setUp.isVisible()) {
    const key = (await page.locator('code').textContent())?.replace(/\s/g, '') ?? '';
    await page.getByLabel('6-digit code').fill(await generate({ secret: key }));
    await page.getByRole('button', { name: 'Confirm' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    rememberRecoveryCodes(account.email, await codes.allTextContents());
    await page.getByRole('button', { name: 'I saved them, continue' }).click();
  } else {
    const code = recoveryCodesOf.get(account.email.toLowerCase())?.shift();
    if (!code) throw new Error(`${account.email} has a second factor this worker did not set up`);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
  }
}

/** Signs in the way a person does: the login form, then the redirect. */
export async function signInWithForm(page: Page, account: Account, loginPath = '/login/'): Promise<void> {
  await page.goto(loginPath);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Signs in as `account` and opens the screen at `path`, waiting for its level-one heading. */
export async function openAs(page: Page, account: Account, path: string, heading: string): Promise<void> {
  await signIn(page, account);
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

/** An administrator screen sends anonymous visitors to the login page. */
export async function expectLoginRequired(page: Page, path: string): Promise<void> {
  await page.goto(path);
  // The login page is told where to bring them back.
  await expect(page).toHaveURL(`/login/?next=${path}`);
}

/** A staff screen tells a signed-in student "Admin access required" (or "Staff access required"). */
export async function expectStudentRefused(
  page: Page,
  path: string,
  message = 'Admin access required',
): Promise<void> {
  await signIn(page, await createStudent());
  await page.goto(path);
  await expect(page.getByRole('alert')).toContainText(message);
}

/** Pretends the server sees a signed-in superuser (the server never lets one log in to the app). */
export async function fakeSuperuserSession(page: Page): Promise<void> {
  await page.route('**/api/user/', (route) =>
    route.fulfill({
      json: {
        is_authenticated: true,
        is_superuser: true,
        is_institution_admin: false,
        email: 'root@demo.edu',
        name: 'Root',
        institution_name: null,
        time_zone: null,
        role: 'superuser',
      },
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Checks.

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Runs axe on the page as it is now: no serious or critical WCAG 2.1 A/AA violation allowed. */
export async function expectNoA11yViolations(page: Page, where = page.url()): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const blocking = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
  expect(blocking, `accessibility violations on ${where}`).toEqual([]);
}

export const SCREEN_WIDTHS = { desktop: 1280, mobile: 375 } as const;

/** Saves a full-page screenshot as test-results/screenshots/<name>-<width>.png for review. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true });
}

/**
 * The page never scrolls sideways: nothing is wider than the viewport. Polled, because a screen
 * just resized lays some parts out again a frame later (charts redraw on their resize observer);
 * an overflow that stays still fails.
 */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  try {
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
        message: 'horizontal overflow in px',
      })
      .toBeLessThanOrEqual(0);
  } catch (error) {
    // Names what sticks out, so a failure says where to look without a rerun.
    const sticking = await page.evaluate(() =>
      Array.from(document.querySelectorAll('body *'))
        .map((element) => ({ element, right: element.getBoundingClientRect().right }))
        .filter(({ right }) => right > document.documentElement.clientWidth)
        .slice(0, 10)
        .map(
          ({ element, right }) =>
            `<${element.tagName.toLowerCase()} class="${element.className}"> to ${right} px`,
        ),
    );
    throw new Error(`${(error as Error).message}\nWider than the viewport:\n${sticking.join('\n')}`);
  }
}

export type { Page, TestInfo };

// ---------------------------------------------------------------------------------------------
// Mail: the server sends real mail over SMTP to the run's listener, which files each one.

interface FiledMail {
  to: string[];
  subject: string;
  text: string;
}

/**
 * Every mail the run's SMTP listener has received for the address, oldest first; the mails
 * telling staff of changes to how they sign in (their own set-up, in most specs) are left out.
 */
export function mailsTo(email: string): FiledMail[] {
  return allMailsTo(email).filter((mail) => mail.subject !== SIGN_IN_CHANGE_SUBJECT);
}

/** Every mail for the address, those about sign-in changes included, oldest first. */
export function allMailsTo(email: string): FiledMail[] {
  const mailDir = process.env.E2E_MAIL_DIR;
  if (!mailDir) throw new Error('E2E_MAIL_DIR is not set: run the specs through `npx playwright test`.');
  return fs
    .readdirSync(mailDir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => filedMail(path.join(mailDir, file)))
    .filter((mail) => mail.to.includes(email.toLowerCase()));
}

/** A filed mail never changes (it appears whole, by rename), so each is read once per worker. */
const filedMails = new Map<string, FiledMail>();

function filedMail(file: string): FiledMail {
  let mail = filedMails.get(file);
  if (!mail) {
    mail = JSON.parse(fs.readFileSync(file, 'utf8')) as FiledMail;
    filedMails.set(file, mail);
  }
  return mail;
}

/**
 * How often a wait for mail looks again: reading the folder is cheap, and the default back-off
 * (up to a second between looks) adds most of a second to every wait on a loaded machine.
 */
const MAIL_POLL_INTERVALS = [100, 250];

/** What the server logged about mail (delivery failures are warnings), to explain a missing mail. */
function serverMailLog(): string {
  const logFile = path.join(process.cwd(), 'test-results', 'e2e-server.log');
  if (!fs.existsSync(logFile)) return '(no server log)';
  const lines = fs
    .readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => /mail/i.test(line));
  return lines.slice(-20).join('\n') || '(nothing about mail)';
}

/** Waits until `count` mails have reached the address; a timeout says what the server logged about mail. */
export async function waitForMails(email: string, count: number): Promise<void> {
  try {
    await expect
      .poll(() => mailsTo(email).length, { intervals: MAIL_POLL_INTERVALS })
      .toBeGreaterThanOrEqual(count);
  } catch (error) {
    throw new Error(
      `${count} mail(s) to ${email} did not arrive within 20 s. The server's log about mail:\n${serverMailLog()}`,
      { cause: error },
    );
  }
}

/** The code of the newest mail to the address, once `count` mails have reached it. */
export async function mailedCode(email: string, count = 1): Promise<string> {
  await waitForMails(email, count);
  const code = /\b(\d{6})\b/.exec(mailsTo(email).at(-1)?.text ?? '')?.[1];
  if (!code) throw new Error(`The newest mail to ${email} carries no code`);
  return code;
}

// ---------------------------------------------------------------------------------------------
// The team: invitations by mail, and what a staff member's screens offer.

export type StaffRole = 'admin' | 'counsellor' | 'viewer';

/** The invitation link of the newest mail to the address, once it has arrived. */
export async function invitationPath(email: string): Promise<string> {
  await waitForMails(email, 1);
  const mail = mailsTo(email).at(-1);
  const path = /(\/staff\/invite\/[A-Za-z0-9_-]+\/)/.exec(mail?.text ?? '')?.[1];
  if (!path) throw new Error(`No invitation link in the mail to ${email}: ${mail?.text}`);
  return path;
}

/** Invites a new staff member through the API, as the admin signed in on `page`. */
export async function inviteStaff(page: Page, role: StaffRole, domain: string): Promise<Account> {
  const id = uniqueId();
  const account: Account = { name: `Staff ${id}`, email: `staff-${id}@${domain}`, password: TEST_PASSWORD };
  const invited = await page.context().request.post('/api/staff/', {
    headers: { 'X-CSRFToken': await csrfCookie(page) },
    data: { email: account.email, name: account.name, role },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  return account;
}

/**
 * Joins from the mailed invitation in `page`'s browser, as the invited person does: sets the
 * password, sets up the second factor, and lands on the dashboard.
 */
export async function joinFromInvitation(page: Page, account: Account): Promise<void> {
  await page.goto(await invitationPath(account.email));
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password').fill(account.password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await completeSecondFactorOnScreen(page, account);
  await expect(page).toHaveURL('/dashboard/');
}

/** The links of the header's main menu, in order. */
export async function menuLinks(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button').first().click();
  const links = await nav.getByRole('list').last().getByRole('link').allTextContents();
  await page.keyboard.press('Escape');
  return links;
}

/**
 * Looks at a screen at both widths: its level-one heading when given, axe, no sideways scroll,
 * and a screenshot to review.
 */
export async function reviewScreen(page: Page, name: string, heading?: RegExp | string): Promise<void> {
  for (const width of [SCREEN_WIDTHS.desktop, SCREEN_WIDTHS.mobile]) {
    await page.setViewportSize({ width, height: 900 });
    if (heading) await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectNoA11yViolations(page, `${name} at ${width}px`);
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, name);
  }
  await page.setViewportSize({ width: SCREEN_WIDTHS.desktop, height: 900 });
}

/**
 * A viewer's screen shows numbers only (design section 9): the note that says so, and nowhere on
 * the page the student's name or email.
 */
export async function expectNoStudentIdentity(page: Page, student: { name: string; email: string }) {
  await expect(
    page.getByText('Names and email addresses are shown to counsellors and administrators only.'),
  ).toBeVisible();
  const text = await page.locator('body').innerText();
  expect(text).not.toContain(student.name);
  expect(text).not.toContain(student.email);
}

/**
 * Opens `path` as a screen the browser draws: a page the server does not render first, then a
 * client-side navigation. A server-rendered page already carries who is signed in, so what the
 * login screen does while the browser asks, or for a session the server never grants, shows only here.
 */
export async function openInBrowser(page: Page, path: string): Promise<void> {
  await page.goto('/no-such-page/');
  await page.evaluate((target) => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL(path);
}

/**
 * Stops the page's clock (installed with page.clock.install()) a second ahead of where the page's
 * own clock stands: from then on only runFor moves it, so a busy machine's slowness between steps
 * never counts. The page's clock, not this runner's, is read: they differ by however long the
 * steps since the install took, and a stop at a time the page has passed is refused. Should the
 * page's clock pass the mark between reading and stopping (a very slow machine), it is read again.
 */
export async function stopPageClock(page: Page): Promise<void> {
  for (;;) {
    const pageNow = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(pageNow + 1_000);
      return;
    } catch (error) {
      if (!String(error).includes('fast-forward to the past')) throw error;
    }
  }
}
