import {
  createInstitutionWithAdmin,
  createStudent,
  expect,
  type Page,
  SCREEN_WIDTHS,
  saveScreenshot,
  signIn,
  signInWithForm,
  test,
} from './support';
import {
  answerEverything,
  apiSession,
  countSubmissions,
  likertGroups,
  listTemplates,
  SUBMIT_BUTTON,
  safetyGroup,
  textAnswer,
} from './survey-helpers';

/**
 * The survey when the world changes under it: the session ends while it is open, the template
 * changes, or the same survey is open in two tabs.
 */

/** The next autosave answered by the server, whatever its status. */
function nextAutosave(page: Page) {
  return page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/autosave/',
  );
}

test.describe('autosave after the session has ended', () => {
  test('says saving stopped, keeps the answers here, and a new login brings them back', async ({ page }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.goto('/survey/');
    const first = likertGroups(page).first();
    const saved = nextAutosave(page);
    await first.getByRole('radio', { name: 'Neutral' }).check();
    expect((await saved).status()).toBe(200);
    await expect(page.getByText(/Last saved at/)).toBeVisible();

    // The session ends on the server's side (idle expiry, or a logout elsewhere).
    await page.context().clearCookies({ name: 'sessionid' });
    const refused = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/autosave/' && response.status() === 401,
    );
    await safetyGroup(page).getByRole('radio', { name: 'Never' }).check();
    await textAnswer(page).fill('Typed after the session ended.');
    await refused;

    const problem = page.getByRole('alert').filter({ hasText: 'Saving stopped' });
    await expect(problem).toContainText('your session has ended');
    await expect(problem).toContainText('still kept in this browser');
    await expect(page.getByText(/Last saved at/)).toHaveCount(0);

    await problem.getByRole('button', { name: 'Log in again' }).click();
    await expect(page).toHaveURL(/\/login\/\?next=\/survey\/$/);
    await signInWithForm(page, student, page.url().replace(/^https?:\/\/[^/]+/, ''));
    await expect(page).toHaveURL(/\/survey\/$/);
    await expect(likertGroups(page).first().getByRole('radio', { name: 'Neutral' })).toBeChecked();
    await expect(safetyGroup(page).getByRole('radio', { name: 'Never' })).toBeChecked();
    await expect(textAnswer(page)).toHaveValue('Typed after the session ended.');
  });

  test('a save that fails for another reason says so and tries again', async ({ page }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.goto('/survey/');
    let failing = true;
    await page.route('**/api/autosave/', (route) =>
      failing ? route.fulfill({ status: 503, json: { success: false, message: 'Busy' } }) : route.fallback(),
    );
    await likertGroups(page).first().getByRole('radio', { name: 'Neutral' }).check();
    await expect(page.getByText(/could not be saved to the server/)).toBeVisible();
    await expect(page.getByText(/still kept in this browser tab/)).toBeVisible();

    failing = false;
    await expect(page.getByText(/Last saved at/)).toBeVisible();
    await expect(page.getByText(/could not be saved/)).toHaveCount(0);
  });
});

test.describe('a survey that changed while it was open', () => {
  for (const width of Object.values(SCREEN_WIDTHS)) {
    test(`says so, shows the new question, keeps the answers, then submits (${width} px)`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const college = await createInstitutionWithAdmin();
      const student = await createStudent(college);
      const [template] = await listTemplates(college.admin);
      if (!template) throw new Error('A new institution has a default template');
      await signIn(page, student);
      await page.goto('/survey/');
      await answerEverything(page);
      const questionCount = await likertGroups(page).count();
      const total = questionCount + 1; // the likert questions and the written one
      await expect(page.getByText(`${total} of ${total} questions answered`)).toBeVisible();

      // Meanwhile an administrator adds a question to the survey.
      const { api, csrf } = await apiSession(college.admin);
      const added = await api.post(`/api/survey-templates/${template.id}/questions/`, {
        headers: { 'X-CSRFToken': await csrf() },
        data: {
          question_text: 'How connected do you feel to other students?',
          question_type: 'likert',
          question_category: 'support',
          order: total + 1,
        },
      });
      expect(added.status(), await added.text()).toBeLessThan(300);
      await api.dispose();

      await page.getByRole('button', { name: SUBMIT_BUTTON }).click();

      const alert = page.getByRole('alert').filter({ hasText: 'updated while you had it open' });
      await expect(alert).toContainText('A new question has been added');
      await expect(alert).toContainText('Your answers are kept');
      await expect(page.getByText('Please fill in all required fields')).toHaveCount(0);
      const newQuestion = page.getByRole('group', { name: /How connected do you feel to other students/ });
      await expect(newQuestion).toBeVisible();
      await expect(newQuestion).toContainText('New');
      await expect(newQuestion).toContainText('Please answer this question.');
      await expect(newQuestion.getByRole('radio').first()).toBeFocused();
      await expect(page.getByText(`${total} of ${total + 1} questions answered`)).toBeVisible();
      // Every earlier answer is still there.
      await expect(likertGroups(page).first().locator('input[value="1"]')).toBeChecked();
      await expect(textAnswer(page)).toHaveValue(/Classes are going well/);
      expect(countSubmissions(student.email)).toBe(0);
      await saveScreenshot(page, 'survey-changed');

      await newQuestion.getByRole('radio', { name: 'Good' }).check();
      await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
      await expect(page.getByRole('button', { name: 'Submitted' })).toBeVisible();
      expect(countSubmissions(student.email)).toBe(1);
    });
  }
});
