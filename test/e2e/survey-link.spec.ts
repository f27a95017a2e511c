import {
  createStudent,
  DEMO_INSTITUTION,
  expect,
  expectNoA11yViolations,
  mailedCode,
  test,
  uniqueId,
} from './support';
import {
  answerEverything,
  countSubmissions,
  demoLinkHash,
  MISSING_ANSWERS,
  nextSubmission,
  SUBMIT_BUTTON,
  surveyStorage,
  textAnswer,
} from './survey-helpers';

/** The survey through a shared link, /survey/link/{hashLink}/ (spec sections 2, 4, 7, 8; design section 5). */

test.describe('survey through a shared link', () => {
  test('an unknown link says it was not found or has expired', async ({ page }) => {
    await page.goto('/survey/link/no-such-link-0123456789/');
    await expect(page.getByRole('heading', { level: 1, name: 'Student Wellness Check' })).toBeVisible();
    await expect(page.getByText('Survey link not found or has expired.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Survey not available' })).toBeDisabled();
    await expect(page.getByRole('group')).toHaveCount(0);
    await expectNoA11yViolations(page, 'survey link, not found');
    // Opened directly, Back goes to the homepage.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL('/');
  });

  test('an anonymous visitor fills in name and email and submits', async ({ page }) => {
    const hash = await demoLinkHash();
    let autosaves = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/autosave/')) autosaves += 1;
    });
    await page.goto(`/survey/link/${hash}/`);
    await expect(page.getByText('Survey accessed via shared link')).toBeVisible();
    const name = page.getByLabel('Full Name');
    const email = page.getByLabel('School Email');
    await expect(name).toBeEditable();
    await expect(email).toBeEditable();
    await expect(name).toHaveValue('');
    await expectNoA11yViolations(page, 'survey link, anonymous');

    // Answers alone are not enough: the name and email are required too.
    await answerEverything(page);
    await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
    await expect(page.getByRole('alert')).toHaveText(MISSING_ANSWERS);
    await expect(name).toBeFocused();
    await expect(page.getByText('Please enter your full name.')).toBeVisible();

    const respondent = `visitor-${uniqueId()}@${DEMO_INSTITUTION.domain}`;
    await name.fill('Riley Visitor');
    await email.fill(respondent);
    // Kept in this tab, under this template's key, while the survey is being filled in.
    const stored = await surveyStorage(page);
    const draftKeys = Object.keys(stored).filter((key) => key.startsWith('wellness-survey-draft:'));
    expect(draftKeys).toHaveLength(1);
    expect(JSON.parse(stored[draftKeys[0] ?? ''] ?? '{}')).toMatchObject({
      student_name: 'Riley Visitor',
      school_email: respondent,
      lastSaved: expect.any(Number),
    });

    // A reload keeps the visitor's answers (this tab only).
    await page.reload();
    await expect(page.getByText('Your saved answers have been restored.')).toBeVisible();
    await expect(name).toHaveValue('Riley Visitor');
    await expect(textAnswer(page)).not.toHaveValue('');

    const response = nextSubmission(page);
    await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
    const submitted = await response;
    expect(new URL(submitted.url()).pathname).toBe(`/api/survey/link/${hash}/`);
    expect(submitted.request().postDataJSON()).toMatchObject({
      student_name: 'Riley Visitor',
      school_email: respondent,
      submission_id: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
    });
    expect(submitted.status()).toBe(200);
    // Stored at once; the code step proves the address, and the answers stay in the tab meanwhile.
    await expect(page.getByRole('heading', { name: `We sent a code to ${respondent}` })).toBeVisible();
    await expect(name).not.toBeEditable();
    expect(Object.keys(await surveyStorage(page))).toEqual(draftKeys);
    expect(countSubmissions(respondent)).toBe(1);
    await expectNoA11yViolations(page, 'survey link, code step');

    await page.getByLabel('Code from the mail').fill(await mailedCode(respondent));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Your email address is confirmed.')).toBeVisible();
    await expect(page.getByText('Taking you to the homepage')).toBeVisible();
    expect(await surveyStorage(page)).toEqual({});
    expect(autosaves).toBe(0);
    await expect(page).toHaveURL('/');
  });

  test("a registered student's email is answered like any other: no login is asked for", async ({ page }) => {
    // Design section 8: nothing tells a stranger whether an address has an account.
    const student = await createStudent();
    const hash = await demoLinkHash();
    await page.goto(`/survey/link/${hash}/`);
    await page.getByLabel('Full Name').fill(student.name);
    await page.getByLabel('School Email').fill(student.email);
    await answerEverything(page);
    const response = nextSubmission(page);
    await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
    const submitted = await response;
    expect(submitted.status()).toBe(200);
    expect(await submitted.json()).not.toHaveProperty('requires_auth');
    await expect(page.getByRole('heading', { name: `We sent a code to ${student.email}` })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(`/survey/link/${hash}/`);
  });
});
