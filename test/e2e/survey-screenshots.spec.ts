import {
  createStudent,
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  SCREEN_WIDTHS,
  saveScreenshot,
  signIn,
  test,
} from './support';
import { answerEverything, likertGroups, nextSubmission, SUBMIT_BUTTON } from './survey-helpers';

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
  });
}
