import type { DashboardData } from '../../src/common/schemas/dashboard';
import { apiOf } from './admin-support';
import {
  createInstitutionWithAdmin,
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  mailedCode,
  mailsTo,
  SCREEN_WIDTHS,
  saveScreenshot,
  signIn,
  test,
  uniqueId,
} from './support';
import { answerEverything, countSubmissions, nextSubmission, SUBMIT_BUTTON } from './survey-helpers';

/** Design section 8: on a shared link, the answers count once the respondent proves the address. */

const COUNTED = ['num_responses', 'num_students', 'num_flagged_students', 'num_stable_students'] as const;

test('a link respondent proves the address with the mailed code and counts; one who never does changes no number', async ({
  page,
  browser,
}) => {
  // Two respondents, a mailed code, the crisis help and the admin's numbers: a whole journey,
  // which outgrew the default budget now that the crisis help comes before the code step.
  test.slow();
  const institution = await createInstitutionWithAdmin();
  await signIn(page, institution.admin);
  const admin = apiOf(page);
  const [template] = await admin.templates();
  if (!template) throw new Error('The new institution has no template');
  const numbers = async () => {
    const data = await admin.send<DashboardData>('get', '/api/dashboard/');
    return Object.fromEntries(COUNTED.map((key) => [key, data[key]]));
  };
  expect(await numbers()).toEqual({
    num_responses: 0,
    num_students: 0,
    num_flagged_students: 0,
    num_stable_students: 0,
  });

  // The first respondent answers, reads the code from the real mail, enters it, and counts.
  const first = await browser.newContext();
  const firstPage = await first.newPage();
  const firstEmail = `proven-${uniqueId()}@${institution.domain}`;
  await firstPage.goto(`/survey/link/${template.hash_link}/`);
  await firstPage.getByLabel('Full Name').fill('Pat Proven');
  await firstPage.getByLabel('School Email').fill(firstEmail);
  await answerEverything(firstPage);
  await firstPage.getByRole('button', { name: SUBMIT_BUTTON }).click();
  await expect(firstPage.getByRole('heading', { name: `We sent a code to ${firstEmail}` })).toBeVisible();
  await mailedCode(firstEmail);
  expect(mailsTo(firstEmail).at(-1)?.text).not.toMatch(/risk|urgent|very poor/i);
  expect(await numbers()).toMatchObject({ num_responses: 0 });
  await firstPage.getByLabel('Code from the mail').fill(await mailedCode(firstEmail));
  await firstPage.getByRole('button', { name: 'Confirm' }).click();
  await expect(firstPage.getByText('Your email address is confirmed.')).toBeVisible();
  await expect
    .poll(numbers)
    .toEqual({ num_responses: 1, num_students: 1, num_flagged_students: 0, num_stable_students: 1 });
  await first.close();
  const counted = await numbers();

  // The second answers urgently: help shows at once and the answer is stored, but she never
  // enters the code, so no number moves.
  const second = await browser.newContext();
  const secondPage = await second.newPage();
  const secondEmail = `unproven-${uniqueId()}@${institution.domain}`;
  await secondPage.goto(`/survey/link/${template.hash_link}/`);
  await secondPage.getByLabel('Full Name').fill('Uri Unproven');
  await secondPage.getByLabel('School Email').fill(secondEmail);
  await answerEverything(secondPage, { urgent: true });
  const submitted = nextSubmission(secondPage);
  await secondPage.getByRole('button', { name: SUBMIT_BUTTON }).click();
  expect(await (await submitted).json()).toMatchObject({ verification_required: true });
  await expect(
    secondPage.getByRole('heading', { name: "You don't have to go through this alone" }),
  ).toBeVisible();
  await expect(secondPage.getByRole('heading', { name: `We sent a code to ${secondEmail}` })).toBeVisible();
  await expectNoA11yViolations(secondPage, 'survey link, crisis help and code step');
  await mailedCode(secondEmail);
  expect(countSubmissions(secondEmail)).toBe(1);
  expect(await numbers()).toEqual(counted);
  // Staff still see the stored answer: apart on the dashboard, marked unverified, and in the export.
  const exported = await page.context().request.get('/api/dashboard/export.csv');
  expect(await exported.text()).toContain(secondEmail);
  await second.close();
  for (const width of Object.values(SCREEN_WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/dashboard/');
    const unverified = page.getByRole('region', { name: 'Unverified Answers Needing Attention' });
    await expect(unverified.getByRole('row', { name: /Uri Unproven/ })).toContainText('Unverified');
    await expect(page.getByRole('region', { name: 'Students Requiring Immediate Support' })).toContainText(
      'No students currently flagged for intervention.',
    );
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, 'dashboard-unverified');
  }
  await expectNoA11yViolations(page, 'dashboard with unverified answers');
});
