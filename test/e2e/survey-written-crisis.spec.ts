import { createStudent, expect, expectNoA11yViolations, SCREEN_WIDTHS, signIn, test } from './support';
import { answerEverything, nextSubmission, SUBMIT_BUTTON, textAnswer } from './survey-helpers';

/**
 * A passive wish to die, written in the student's own words, is a positive suicide screen (ASQ
 * question 1, PHQ-9 item 9): the crisis help appears at once, as for any urgent answer.
 */
const PASSIVE_DEATH_WISHES = [
  'I wish I could just disappear forever and never wake up',
  'Everyone would be better off without me',
];

for (const written of PASSIVE_DEATH_WISHES) {
  test(`on a phone, "${written}" brings the crisis help at once`, async ({ page }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.setViewportSize({ width: SCREEN_WIDTHS.mobile, height: 800 });
    await page.goto('/survey/');
    await answerEverything(page);
    await textAnswer(page).fill(written);
    const response = nextSubmission(page);
    await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
    const body = (await (await response).json()) as {
      crisis_resources?: { always_open: { name: string }[] };
    };
    expect(body.crisis_resources?.always_open.length).toBeGreaterThan(0);

    const panel = page.getByRole('region', { name: "You don't have to go through this alone" });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('link', { name: 'Call 988' })).toHaveAttribute('href', 'tel:988');
    await expect(page.locator('main')).not.toContainText(/flag|risk|urgent/i);
    await expectNoA11yViolations(
      page,
      `survey, crisis help for a written answer at ${SCREEN_WIDTHS.mobile}px`,
    );
  });
}
