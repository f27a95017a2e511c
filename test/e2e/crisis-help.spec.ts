import { ALWAYS_OPEN_CRISIS_LINES } from '../../src/common/risk/crisis-lines';
import { apiOf } from './admin-support';
import {
  createInstitutionWithAdmin,
  createStudent,
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  type Page,
  SCREEN_WIDTHS,
  saveScreenshot,
  signIn,
  type TestInstitution,
  test,
  uniqueId,
} from './support';
import { answerEverything, SUBMIT_BUTTON, safetyGroup } from './survey-helpers';

/** Design section 5, crisis response: what a student in crisis reads, and in what order. */

const PANEL = "You don't have to go through this alone";
const ANY_TIME = 'These services are free, confidential and there for you at any time, day or night.';
const HARBOR = {
  name: 'Harbor College Counselling Centre',
  description: 'Same-day appointments.',
  hours: 'weekdays 8am-6pm',
  phone: '(617) 555-0100',
};

async function activeLink(page: Page): Promise<string> {
  const [template] = (await apiOf(page).templates()).filter((candidate) => candidate.used);
  if (!template) throw new Error('The institution has an active template');
  return template.hash_link;
}

/** A student on the shared link, on a phone, answering "Sometimes" to the self-harm question. */
async function answerInCrisis(page: Page, institution: TestInstitution, hashLink: string) {
  await page.setViewportSize({ width: SCREEN_WIDTHS.mobile, height: 800 });
  await page.goto(`/survey/link/${hashLink}/`);
  await page.getByLabel('Full Name').fill('Robin Harbor');
  const email = `robin-${uniqueId()}@${institution.domain}`;
  await page.getByLabel('School Email').fill(email);
  await answerEverything(page);
  await safetyGroup(page).getByRole('radio', { name: 'Sometimes' }).check();
  await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
  await expect(page.getByRole('region', { name: PANEL })).toBeVisible();
  return email;
}

test("an institution's own service is added to 988, the Crisis Text Line and 911, with its hours, as the settings preview shows", async ({
  page,
  browser,
}) => {
  const institution = await createInstitutionWithAdmin();
  await page.setViewportSize({ width: SCREEN_WIDTHS.desktop, height: 900 });
  await signIn(page, institution.admin);
  const hashLink = await activeLink(page);
  await page.goto('/admin/settings/');
  const preview = page.getByRole('figure', { name: /Preview/ });
  const previewPanel = preview.getByRole('region', { name: PANEL });
  for (const line of ALWAYS_OPEN_CRISIS_LINES) {
    await expect(previewPanel.getByRole('heading', { name: line.name })).toBeVisible();
  }

  await page.getByRole('button', { name: 'Add a crisis resource' }).click();
  await page.getByLabel('Name', { exact: true }).fill(HARBOR.name);
  await page.getByLabel('Description', { exact: true }).fill(HARBOR.description);
  await page.getByLabel('Hours', { exact: true }).fill(HARBOR.hours);
  await page.getByLabel('Phone', { exact: true }).fill(HARBOR.phone);
  await page.getByLabel('List our own services before the national lines').check();
  // The preview follows the form as it is typed: the institution's group first, with its hours,
  // and the "any time" promise only over the always-open lines.
  const ownGroup = previewPanel.getByRole('region', { name: 'At your institution' });
  const alwaysOpenGroup = previewPanel.getByRole('region', { name: 'Any time, day or night' });
  await expect(ownGroup.getByRole('heading', { name: HARBOR.name })).toBeVisible();
  await expect(ownGroup).toContainText(`Open ${HARBOR.hours}`);
  await expect(ownGroup.getByRole('link', { name: `Call ${HARBOR.phone}` })).toHaveAttribute(
    'href',
    'tel:6175550100',
  );
  await expect(ownGroup).not.toContainText('any time, day or night');
  await expect(alwaysOpenGroup).toContainText(ANY_TIME);
  await expect(previewPanel.getByRole('region')).toHaveText([
    /At your institution/,
    /Any time, day or night/,
  ]);
  await expectNoHorizontalOverflow(page);
  await expectNoA11yViolations(page, 'settings with the crisis preview');
  await saveScreenshot(page, 'crisis-settings-preview');
  const previewText = await previewPanel.innerText();

  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();

  // The student reads what the preview showed, on a phone.
  const context = await browser.newContext();
  const student = await context.newPage();
  await answerInCrisis(student, institution, hashLink);
  const panel = student.getByRole('region', { name: PANEL });
  expect(await panel.innerText()).toBe(previewText);
  for (const line of ALWAYS_OPEN_CRISIS_LINES) {
    await expect(panel.getByRole('region', { name: 'Any time, day or night' })).toContainText(line.name);
  }
  await expect(panel.getByRole('link', { name: 'Call 988' })).toHaveAttribute('href', 'tel:988');
  await expect(panel.getByRole('link', { name: 'Call 911' })).toHaveAttribute('href', 'tel:911');
  await expect(panel.getByRole('link', { name: `Call ${HARBOR.phone}` })).toHaveAttribute(
    'href',
    'tel:6175550100',
  );
  await expectNoHorizontalOverflow(student);
  await expectNoA11yViolations(student, 'crisis panel with an institution resource');
  await saveScreenshot(student, 'crisis-panel-with-institution-resource');
  await context.close();
});

test('on a shared link, a student in crisis reads the help before the request for the email code', async ({
  page,
}) => {
  const institution = await createInstitutionWithAdmin();
  await signIn(page, institution.admin);
  const hashLink = await activeLink(page);
  await page.context().clearCookies();
  const email = await answerInCrisis(page, institution, hashLink);

  const panelHeading = page.getByRole('heading', { name: PANEL });
  const codeHeading = page.getByRole('heading', { name: `We sent a code to ${email}` });
  await expect(codeHeading).toBeVisible();
  // The result opens at its top with the help in view; nothing above the help mentions a code.
  await expect(panelHeading).toBeInViewport();
  const text = await page.locator('main').innerText();
  const helpAt = text.indexOf(PANEL);
  expect(helpAt).toBeGreaterThan(-1);
  expect(text.slice(0, helpAt)).not.toMatch(/code|confirm/i);
  const panelBox = await page.getByRole('region', { name: PANEL }).boundingBox();
  const codeBox = await codeHeading.boundingBox();
  expect(codeBox?.y ?? 0).toBeGreaterThan((panelBox?.y ?? 0) + (panelBox?.height ?? 0) - 1);
  // No resources of the institution's own: the always-open lines alone.
  await expect(page.getByRole('region', { name: 'At your institution' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Any time, day or night' })).toContainText(ANY_TIME);
  await expectNoHorizontalOverflow(page);
  await expectNoA11yViolations(page, 'crisis panel, then the code step');
  await saveScreenshot(page, 'crisis-panel-always-open-then-code');
});

test('the privacy note says the survey is not anonymous and that a counsellor may reach out', async ({
  page,
  browser,
}) => {
  const institution = await createInstitutionWithAdmin();
  await signIn(page, institution.admin);
  const hashLink = await activeLink(page);
  const spec =
    'Your responses are confidential and protected under FERPA. They are used only to improve student support services.';
  const outreach = /a counsellor may reach out to you/;

  // A shared link: the name and email typed on the form.
  const context = await browser.newContext({ viewport: { width: SCREEN_WIDTHS.mobile, height: 800 } });
  const visitor = await context.newPage();
  await visitor.goto(`/survey/link/${hashLink}/`);
  const linkNote = visitor.getByText(spec).locator('..');
  await expect(linkNote).toContainText(spec);
  await expect(linkNote).toContainText(
    'This survey is not anonymous: your answers are kept with the name and school email you give above.',
  );
  await expect(linkNote).toContainText(outreach);
  await expectNoHorizontalOverflow(visitor);
  await expectNoA11yViolations(visitor, 'survey link privacy note');
  await saveScreenshot(visitor, 'survey-privacy-note-link');
  await context.close();

  // Signed in: the account's name and email.
  const student = await createStudent(institution);
  await page.context().clearCookies();
  await page.setViewportSize({ width: SCREEN_WIDTHS.mobile, height: 800 });
  await signIn(page, student);
  await page.goto('/survey/');
  const accountNote = page.getByText(spec).locator('..');
  await expect(accountNote).toContainText(
    'This survey is not anonymous: your answers are kept with the name and school email of your account.',
  );
  await expect(accountNote).toContainText(outreach);
  await expectNoA11yViolations(page, 'signed-in survey privacy note');
});
