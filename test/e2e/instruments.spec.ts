import type { Locator } from '@playwright/test';
import { INSTRUMENTS } from '../../src/common/instruments';
import {
  createInstitutionWithAdmin,
  createStudent,
  expect,
  expectNoA11yViolations,
  SCREEN_WIDTHS,
  signIn,
  test,
} from './support';
import { answerEverything, apiSession, listTemplates, SUBMIT_BUTTON } from './survey-helpers';

/**
 * Validated instruments on the survey screen (design section 13): a student on a phone, with the
 * keyboard only, answers a PHQ-2 that grows into the PHQ-9 and an ASQ that asks question 5, and
 * never sees a score.
 */

const PHQ_STEM = INSTRUMENTS.phq9.instructions ?? '';

/** Items of a block, each a radio group named by its item. */
const items = (block: Locator) => block.getByRole('group');

/** Moves the keyboard into a group at its checked (or first) radio, as Tab does. */
async function focusGroup(group: Locator) {
  const checked = group.locator('input[type="radio"]:checked');
  await ((await checked.count()) > 0 ? checked : group.getByRole('radio').first()).focus();
}

async function addBlocks(admin: Parameters<typeof apiSession>[0], templateId: number) {
  const { api, csrf } = await apiSession(admin);
  try {
    for (const [instrumentId, order] of [
      ['phq2', 20],
      ['asq', 21],
    ] as const) {
      const added = await api.post(`/api/survey-templates/${templateId}/instruments/`, {
        headers: { 'X-CSRFToken': await csrf() },
        data: { instrument_id: instrumentId, order },
      });
      expect(added.status(), await added.text()).toBe(201);
    }
  } finally {
    await api.dispose();
  }
}

test('a student answers a PHQ-2 that becomes a PHQ-9 and an ASQ that asks question 5, by keyboard at 375 px', async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize({ width: SCREEN_WIDTHS.mobile, height: 900 });
  const college = await createInstitutionWithAdmin();
  const [template] = await listTemplates(college.admin);
  if (!template) throw new Error('A new institution has a default template');
  await addBlocks(college.admin, template.id);
  const student = await createStudent(college);
  await signIn(page, student);
  await page.goto('/survey/');

  const phq = page.getByRole('region', { name: new RegExp(PHQ_STEM.slice(0, 30)) });
  const asq = page.getByRole('region', { name: /Question 9 of 9/ });
  await expect(items(phq)).toHaveCount(2);
  await expect(items(asq)).toHaveCount(4);
  await expect(phq.getByText(INSTRUMENTS.phq9.licence ?? '')).toBeVisible();
  // Refusal is offered only where the instrument allows it.
  await expect(phq.getByRole('radio', { name: 'Prefer not to answer' })).toHaveCount(0);
  await expect(items(asq).first().getByRole('radio', { name: 'Prefer not to answer' })).toHaveCount(1);

  await answerEverything(page);

  // PHQ-2 of 3: "More than half the days" then "Several days", by arrow keys.
  await focusGroup(items(phq).nth(0));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowRight');
  await expect(items(phq).nth(0).getByRole('radio', { name: 'More than half the days' })).toBeChecked();
  await expect(items(phq).nth(1).getByRole('radio', { name: 'Several days' })).toBeChecked();
  // The rest of the PHQ-9 appears in the same sitting; each is answered with Tab and Space.
  await expect(items(phq)).toHaveCount(9);
  for (let index = 2; index < 9; index += 1) {
    await page.keyboard.press('Tab');
    await expect(items(phq).nth(index).getByRole('radio').first()).toBeFocused();
    await page.keyboard.press('Space');
    await expect(items(phq).nth(index).getByRole('radio', { name: 'Not at all' })).toBeChecked();
  }

  // Below the cut point again the extra items go, and their answers with them.
  await focusGroup(items(phq).nth(0));
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(items(phq)).toHaveCount(2);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(items(phq)).toHaveCount(9);
  await expect(items(phq).nth(2).getByRole('radio', { checked: true })).toHaveCount(0);
  for (let index = 2; index < 9; index += 1) {
    await focusGroup(items(phq).nth(index));
    await page.keyboard.press('Space');
  }

  // ASQ: a "Yes" to question 1 asks question 5, answered "No".
  await focusGroup(items(asq).nth(0));
  await page.keyboard.press('ArrowLeft');
  await expect(items(asq).nth(0).getByRole('radio', { name: 'Yes', exact: true })).toBeChecked();
  await expect(items(asq)).toHaveCount(5);
  await focusGroup(items(asq).nth(4));
  await page.keyboard.press('ArrowRight');
  await expect(items(asq).nth(4).getByRole('radio', { name: 'No', exact: true })).toBeChecked();

  await expectNoA11yViolations(page);
  await expect(page.getByText('9 of 9 questions answered')).toBeVisible();
  await page.getByRole('button', { name: SUBMIT_BUTTON }).focus();
  await page.keyboard.press('Enter');
  // A positive ASQ is urgent: the student is shown where to get help, never a score or band.
  await expect(page.getByRole('region', { name: "You don't have to go through this alone" })).toBeVisible();
  await expect(page.getByText(/total|depression|positive screen/i)).toHaveCount(0);
});
