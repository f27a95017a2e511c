import {
  createStudent,
  DEMO_INSTITUTION,
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  SCREEN_WIDTHS,
  saveScreenshot,
  signIn,
  TEST_PASSWORD,
  test,
  uniqueId,
} from './support';
import {
  answerEverything,
  demoLinkHash,
  likertGroups,
  nextSubmission,
  SUBMIT_BUTTON,
} from './survey-helpers';

/**
 * The survey's available, submitted and crisis states at desktop and phone widths, saved under
 * test-results/screenshots/ for review, with axe and overflow checks at each width.
 */

for (const [device, width] of Object.entries(SCREEN_WIDTHS)) {
  test.describe(`survey screenshots, ${device}`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('available and submitted', async ({ page }) => {
      const student = await createStudent();
      await signIn(page, student);
      await page.goto('/survey/');
      await expect(likertGroups(page).first()).toBeVisible();
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, 'survey-available');

      await answerEverything(page);
      const response = nextSubmission(page);
      await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
      await response;
      await expect(page.getByText('Taking you to the homepage')).toBeVisible();
      await saveScreenshot(page, 'survey-submitted');
      await expectNoHorizontalOverflow(page);
      await expectNoA11yViolations(page, `survey submitted at ${width}px`);
    });

    test('crisis resources', async ({ page }) => {
      const student = await createStudent();
      await signIn(page, student);
      await page.goto('/survey/');
      await answerEverything(page, { urgent: true });
      const response = nextSubmission(page);
      await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
      await response;
      await expect(
        page.getByRole('region', { name: "You don't have to go through this alone" }),
      ).toBeVisible();
      await saveScreenshot(page, 'survey-crisis');
      await expectNoHorizontalOverflow(page);
      await expectNoA11yViolations(page, `survey crisis at ${width}px`);
      // Options on phones are large enough to tap: at least 44 px tall.
      const option = page
        .locator('form label')
        .filter({ has: page.locator('input[type="radio"]') })
        .first();
      const box = await option.boundingBox();
      expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    });

    test('shared link: crisis help at once, then the code step', async ({ page }) => {
      const hash = await demoLinkHash();
      // Longer than a phone's line: the code step's heading names it, and must wrap it.
      const email = `casey.screens.${uniqueId()}.second-year-residence@${DEMO_INSTITUTION.domain}`;
      await page.goto(`/survey/link/${hash}/`);
      await page.getByLabel('Full Name').fill('Casey Screens');
      await page.getByLabel('School Email').fill(email);
      await answerEverything(page, { urgent: true });
      await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
      await expect(page.getByRole('heading', { name: `We sent a code to ${email}` })).toBeVisible();
      await saveScreenshot(page, 'survey-link-code-step');
      await expectNoHorizontalOverflow(page);
      await expectNoA11yViolations(page, `survey link code step at ${width}px`);
    });

    test('registration: the code step', async ({ page }) => {
      const email = `screens-${uniqueId()}@${DEMO_INSTITUTION.domain}`;
      await page.goto('/register/');
      await page.getByLabel('Institution').selectOption(DEMO_INSTITUTION.name);
      await page.getByLabel('Full Name').fill('Casey Screens');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
      await page.getByLabel('Confirm Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Submit' }).click();
      await expect(page.getByRole('heading', { name: `We sent a code to ${email}` })).toBeVisible();
      await page.getByRole('button', { name: 'Confirm' }).click();
      await expect(page.getByText('Enter the 6 digits from the mail.')).toBeVisible();
      await saveScreenshot(page, 'register-code-step');
      await expectNoHorizontalOverflow(page);
      await expectNoA11yViolations(page, `register code step at ${width}px`);
    });
  });
}
