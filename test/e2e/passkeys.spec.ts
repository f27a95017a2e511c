import type { CDPSession } from '@playwright/test';
import { generate } from 'otplib';
import { SIGN_IN_CHANGE_SUBJECT } from '../../src/common/schemas/second-factor';
import {
  allMailsTo,
  baseUrl,
  createAdmin,
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  type Page,
  reviewScreen,
  SCREEN_WIDTHS,
  saveScreenshot,
  signInWithForm,
  test,
} from './support';

/**
 * Passkeys for staff (design section 11), with Chromium's virtual authenticator (the CDP WebAuthn
 * domain): a passkey as the first second factor, as the second factor after a password, and as a
 * sign-in of its own. WebAuthn does not accept an IP address as the site, so these tests use the
 * server by the name localhost.
 */

function siteUrl(path: string): string {
  return new URL(path, baseUrl().replace('127.0.0.1', 'localhost')).href;
}

/** A platform authenticator that holds discoverable passkeys and verifies its user. */
async function addAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function signOut(page: Page) {
  await page.context().clearCookies();
}

test.describe('passkeys for staff', () => {
  test('a passkey is the first second factor, then the second factor after a password, then a sign-in alone', async ({
    page,
  }) => {
    const admin = await createAdmin();
    await page.goto(siteUrl('/login/'));
    const { cdp, authenticatorId } = await addAuthenticator(page);

    await signInWithForm(page, admin, siteUrl('/login/'));
    await expect(
      page.getByRole('heading', { level: 1, name: 'Set up your authenticator app' }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    // A first passkey brings recovery codes, shown once, as a first app does.
    await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
    await page.getByRole('button', { name: 'I saved them, continue' }).click();
    await expect(page).toHaveURL(siteUrl('/dashboard/'));
    await expect(page.getByRole('heading', { level: 1, name: 'Student Wellness Dashboard' })).toBeVisible();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);

    // A password, then the passkey.
    await signOut(page);
    await signInWithForm(page, admin, siteUrl('/login/'));
    await expect(page.getByRole('heading', { level: 1, name: "Confirm it's you" })).toBeVisible();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    // The whole address: the second factor's own (`/sign-in/second-factor/?next=/dashboard/`)
    // ends the same way, and signing out before the sign-in's answer arrives would let it land after.
    await expect(page).toHaveURL(siteUrl('/dashboard/'));
    await expect(page.getByRole('heading', { level: 1, name: 'Student Wellness Dashboard' })).toBeVisible();

    // The passkey alone, but only when the authenticator verifies its user.
    await signOut(page);
    await page.goto(siteUrl('/login/'));
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(page.getByRole('alertdialog')).toContainText('Sign in failed');
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(page).toHaveURL(siteUrl('/login/'));

    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: true });
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(page).toHaveURL(siteUrl('/dashboard/'));
    await expect(page.getByRole('heading', { level: 1, name: 'Student Wellness Dashboard' })).toBeVisible();
    const user = await page.context().request.get(siteUrl('/api/user/'));
    expect(await user.json()).toMatchObject({ email: admin.email, is_institution_admin: true });
    expect(await user.json()).not.toHaveProperty('second_factor');
  });

  test('the Security screen lists, removes and names passkeys, asking for the second factor again first', async ({
    page,
  }) => {
    const admin = await createAdmin();
    await page.goto(siteUrl('/login/'));
    const { cdp, authenticatorId } = await addAuthenticator(page);
    await signInWithForm(page, admin, siteUrl('/login/'));
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    // A first passkey brings recovery codes, shown once, as a first app does.
    await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
    await page.getByRole('button', { name: 'I saved them, continue' }).click();
    await expect(page).toHaveURL(siteUrl('/dashboard/'));

    await page.goto(siteUrl('/account/security/'));
    await expect(page.getByRole('heading', { level: 1, name: 'Security' })).toBeVisible();
    const passkeys = page.getByRole('list', { name: 'Passkeys' });
    await expect(passkeys.getByRole('listitem')).toHaveCount(1);
    await expect(passkeys).toContainText('Passkey');
    await expectNoA11yViolations(page, 'security');

    // The sign-in is fresh here; the server's refusal of a stale one is answered the same way:
    // this once, the removal is refused as after five minutes, and the screen asks again.
    let refusedOnce = false;
    await page.route('**/api/passkeys/*/', async (route) => {
      if (route.request().method() !== 'DELETE' || refusedOnce) return route.fallback();
      refusedOnce = true;
      await route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({
          success: false,
          code: 'STEP_UP_REQUIRED',
          message: 'Confirm it is you first.',
        }),
      });
    });
    await passkeys.getByRole('button', { name: 'Remove passkey Passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Code from your authenticator app, or a recovery code')).toBeVisible();
    await dialog.getByRole('button', { name: 'Use a passkey instead' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('You have no passkey.')).toBeVisible();
    expect(refusedOnce).toBe(true);

    await page.getByLabel('Name of the new passkey').fill('Work laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(passkeys.getByRole('listitem')).toHaveCount(1);
    await expect(passkeys).toContainText('Work laptop');
    expect(
      (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length,
    ).toBeGreaterThan(0);
  });

  test('a passkey that is not registered here signs no one in', async ({ page }) => {
    await page.goto(siteUrl('/login/'));
    const { cdp, authenticatorId } = await addAuthenticator(page);
    // A discoverable passkey for this site that the server never registered.
    const created = await page.evaluate(async () => {
      const credential = await navigator.credentials.create({
        publicKey: {
          challenge: crypto.getRandomValues(new Uint8Array(32)),
          rp: { id: 'localhost', name: 'Stranger' },
          user: { id: crypto.getRandomValues(new Uint8Array(16)), name: 'stranger', displayName: 'Stranger' },
          pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
          authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        },
      });
      return credential !== null;
    });
    expect(created).toBe(true);
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(page.getByRole('alertdialog')).toContainText('This passkey could not be checked');
    expect(await (await page.context().request.get(siteUrl('/api/user/'))).status()).toBe(401);
  });

  for (const [device, width] of Object.entries(SCREEN_WIDTHS)) {
    test(`login with the passkey button: no serious axe violations; screenshot at ${width} px (${device})`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(siteUrl('/login/'));
      await expect(page.getByRole('button', { name: 'Use a passkey' })).toBeVisible();
      await expectNoA11yViolations(page, 'login with passkeys');
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, 'login-passkey');
    });
  }

  test('a staff member with a passkey alone adds an authenticator app on the account page, confirming it is them first', async ({
    page,
  }) => {
    // Two screens checked at two widths, after a sign-in that sets up a passkey.
    test.slow();
    const admin = await createAdmin();
    await page.goto(siteUrl('/login/'));
    await addAuthenticator(page);
    await signInWithForm(page, admin, siteUrl('/login/'));
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
    await page.getByRole('button', { name: 'I saved them, continue' }).click();
    await expect(page).toHaveURL(siteUrl('/dashboard/'));
    const appMails = () =>
      allMailsTo(admin.email).filter(
        (mail) =>
          mail.subject === SIGN_IN_CHANGE_SUBJECT &&
          mail.text.includes('An authenticator app was set up for your staff account'),
      );
    expect(appMails()).toHaveLength(0);

    await page.goto(siteUrl('/account/'));
    const section = page.getByRole('region', { name: 'Authenticator app' });
    await expect(section).toContainText('You have no authenticator app.');
    await section.getByRole('button', { name: 'Add an authenticator app' }).click();
    await expect(
      section.getByRole('img', { name: 'QR code to scan with your authenticator app' }),
    ).toBeVisible();
    await reviewScreen(page, 'account-add-app', 'Your account');
    const key = (await section.locator('code').textContent())?.replace(/\s/g, '') ?? '';

    // The sign-in is fresh here; the server's refusal of a stale one is answered the same way:
    // this once, the confirmation is refused as after five minutes, and the screen asks again.
    let refusedOnce = false;
    await page.route('**/api/second-factor/totp/confirm/', async (route) => {
      if (refusedOnce) return route.fallback();
      refusedOnce = true;
      await route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({
          success: false,
          code: 'STEP_UP_REQUIRED',
          message: 'Confirm it is you first.',
        }),
      });
    });
    await section.getByLabel('6-digit code').fill(await generate({ secret: key }));
    await section.getByRole('button', { name: 'Confirm' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Use a passkey instead' }).click();
    await expect(dialog).toBeHidden();
    expect(refusedOnce).toBe(true);

    await expect(page.getByText('Your authenticator app is set up.').first()).toBeVisible();
    await expect(section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
    await expect(section).toContainText('An authenticator app is set up for your account.');
    await expect(section.getByRole('button', { name: 'Add an authenticator app' })).toHaveCount(0);
    await reviewScreen(page, 'account-app-added', 'Your account');

    // The owner is told by mail, and the change is in the activity log.
    await expect.poll(() => appMails().length, { timeout: 20_000 }).toBe(1);
    const audit = await page.context().request.get(siteUrl('/api/audit/?action=staff.app_enrol'));
    // Other tests' admins of the demo institution enrol apps too: this admin's own entry, once.
    const entries = ((await audit.json()) as { entries: { actor_email: string }[] }).entries;
    expect(entries.filter((entry) => entry.actor_email === admin.email)).toHaveLength(1);
  });
});
