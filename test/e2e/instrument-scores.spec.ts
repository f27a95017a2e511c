import type { Locator } from '@playwright/test';
import { INSTRUMENTS, type InstrumentAnswers, SCREENING_DISCLAIMER } from '../../src/common/instruments';
import { answersSumming } from '../../src/common/instruments/test-answers';
import { answerSharedLink, createCounsellor, STABLE } from './admin-support';
import { createInstitutionWithAdmin, expect, reviewScreen, signIn, test, uniqueId } from './support';
import { apiSession, listTemplates } from './survey-helpers';

/**
 * A counsellor reads a student's validated instruments on the case (design section 13): each
 * total and band, every item as answered, the reason in words, the change from the student's
 * previous total (a PHQ-9 change of 5 or more called clinically significant), always marked as a
 * screening result rather than a diagnosis.
 */

const PHQ9 = INSTRUMENTS.phq9;
const GAD7 = INSTRUMENTS.gad7;

/** An earlier check-in: PHQ-9 total 10 (moderate), GAD-7 total 6 (mild). */
const EARLIER: Record<string, InstrumentAnswers> = {
  phq9: answersSumming(PHQ9.items, PHQ9.scale, 10),
  gad7: answersSumming(GAD7.items, GAD7.scale, 6),
};

/**
 * The latest: PHQ-9 total 17 (moderately severe) with item 9 at "Several days", which is urgent
 * whatever the total; GAD-7 total 12 (moderate).
 */
const LATEST: Record<string, InstrumentAnswers> = {
  phq9: {
    phq9_1: 3,
    phq9_2: 3,
    phq9_3: 3,
    phq9_4: 3,
    phq9_5: 3,
    phq9_6: 1,
    phq9_7: 0,
    phq9_8: 0,
    phq9_9: 1,
  },
  gad7: answersSumming(GAD7.items, GAD7.scale, 12),
};

async function addPhq9AndGad7(admin: Parameters<typeof apiSession>[0], templateId: number) {
  const { api, csrf } = await apiSession(admin);
  try {
    for (const [instrumentId, order] of [
      ['phq9', 20],
      ['gad7', 21],
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

/** The item rows of an instrument's section: "N. text" and the answer's label with its value. */
function itemRows(section: Locator) {
  return section.locator('dl > div');
}

test('a counsellor reads PHQ-9 and GAD-7 scores on the case: totals, bands, items, reason, change and the screening mark', async ({
  page,
}) => {
  test.slow();
  const institution = await createInstitutionWithAdmin();
  const [template] = (await listTemplates(institution.admin)).filter((candidate) => candidate.used);
  if (!template) throw new Error('The institution has an active template');
  await addPhq9AndGad7(institution.admin, template.id);
  const counsellor = await createCounsellor(institution);

  const student = { name: `Robin ${uniqueId()}`, email: `robin-${uniqueId()}@${institution.domain}` };
  await answerSharedLink(template.hash_link, student, { ...STABLE, instruments: EARLIER });
  await answerSharedLink(template.hash_link, student, { ...STABLE, instruments: LATEST });

  await signIn(page, counsellor);
  await page.goto('/cases/');
  await page.getByRole('link', { name: student.name }).click();
  const caseHeading = new RegExp(`^Case \\d+: ${student.name}$`);
  await expect(page.getByRole('heading', { level: 1, name: caseHeading })).toBeVisible();

  const checkIns = page.getByRole('article', { name: /^Check-in of / });
  await expect(checkIns).toHaveCount(2);
  const latest = checkIns.first();
  const phq = latest.getByRole('region', { name: PHQ9.name });
  const gad = latest.getByRole('region', { name: GAD7.name });

  // Totals and bands, each marked as a screening result.
  await expect(phq).toContainText('total 17 (moderately severe depression)');
  await expect(gad).toContainText('total 12 (moderate anxiety)');
  await expect(phq.getByText(SCREENING_DISCLAIMER)).toBeVisible();
  await expect(gad.getByText(SCREENING_DISCLAIMER)).toBeVisible();

  // The tier and the reason behind it in words; item 9 asks for a safety assessment.
  await expect(
    phq.getByText("Urgent: PHQ-9 total 17 (moderately severe depression); item 9 answered 'Several days'"),
  ).toBeVisible();
  await expect(phq.getByText('A brief safety assessment is asked for.')).toBeVisible();
  await expect(gad.getByText('Elevated: GAD-7 total 12 (moderate anxiety)')).toBeVisible();

  // The check-in's tier is explained by the instruments beside any other rule.
  await expect(latest.getByRole('list', { name: 'What raised its tier' }).getByRole('listitem')).toHaveText([
    "Urgent: PHQ-9 total 17 (moderately severe depression); item 9 answered 'Several days'",
    'Elevated: GAD-7 total 12 (moderate anxiety)',
  ]);

  // The change from the previous check-in: 7 points on the PHQ-9 is clinically significant.
  await expect(
    phq.getByText('PHQ-9 rose by 7, from 10 to 17: a clinically significant change'),
  ).toBeVisible();
  await expect(gad.getByText('GAD-7 rose by 6, from 6 to 12', { exact: true })).toBeVisible();

  // Every item as the publisher words it, with the answer's label and value.
  await expect(itemRows(phq).getByRole('term')).toHaveText(
    PHQ9.items.map((item) => `${item.number}. ${item.text}`),
  );
  await expect(itemRows(phq).getByRole('definition')).toHaveText([
    'Nearly every day (3)',
    'Nearly every day (3)',
    'Nearly every day (3)',
    'Nearly every day (3)',
    'Nearly every day (3)',
    'Several days (1)',
    'Not at all (0)',
    'Not at all (0)',
    'Several days (1)',
  ]);
  await expect(itemRows(gad).getByRole('term')).toHaveText(
    GAD7.items.map((item) => `${item.number}. ${item.text}`),
  );
  await expect(itemRows(gad).getByRole('definition')).toHaveText([
    'Nearly every day (3)',
    'Nearly every day (3)',
    'Nearly every day (3)',
    'Nearly every day (3)',
    'Not at all (0)',
    'Not at all (0)',
    'Not at all (0)',
  ]);

  // The earlier check-in has nothing to compare with.
  const earlier = checkIns.last().getByRole('region', { name: PHQ9.name });
  await expect(earlier).toContainText('total 10 (moderate depression)');
  await expect(earlier.getByText(/rose by|fell by|unchanged/)).toHaveCount(0);

  await reviewScreen(page, 'case-instruments', caseHeading);
});
