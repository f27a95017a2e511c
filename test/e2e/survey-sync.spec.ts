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
    await expect(page).toHaveURL('/login/?next=/survey/');
    await signInWithForm(page, student, page.url().replace(/^https?:\/\/[^/]+/, ''));
    await expect(page).toHaveURL('/survey/');
    await expect(likertGroups(page).first().getByRole('radio', { name: 'Neutral' })).toBeChecked();
    await expect(safetyGroup(page).getByRole('radio', { name: 'Never' })).toBeChecked();
    await expect(textAnswer(page)).toHaveValue('Typed after the session ended.');
  });

  test('a session that ends between a refused save and the reload says saving stopped, never "Last saved at"', async ({
    page,
  }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.goto('/survey/');
    const saved = nextAutosave(page);
    await likertGroups(page).first().getByRole('radio', { name: 'Neutral' }).check();
    expect((await saved).status()).toBe(200);
    await expect(page.getByText(/Last saved at/)).toBeVisible();

    // Another window saved meanwhile (the save is refused as stale), and by the time this one
    // reads that draft the session has ended.
    await page.route('**/api/autosave/', (route) =>
      route.fulfill({ status: 409, json: { success: false, code: 'CONFLICT', message: 'Saved elsewhere' } }),
    );
    await page.route('**/api/autosave/load/**', (route) =>
      route.fulfill({
        status: 401,
        json: { success: false, code: 'UNAUTHENTICATED', message: 'Authentication required' },
      }),
    );
    await safetyGroup(page).getByRole('radio', { name: 'Never' }).check();
    const problem = page.getByRole('alert').filter({ hasText: 'Saving stopped' });
    await expect(problem).toContainText('your session has ended');
    await expect(problem.getByRole('button', { name: 'Log in again' })).toBeVisible();
    await expect(page.getByText(/last saved at/i)).toHaveCount(0);
  });

  test('a save that fails for another reason says so and tries again', async ({ page }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.goto('/survey/');
    let failing = true;
    await page.route('**/api/autosave/', (route) =>
      failing
        ? route.fulfill({
            status: 503,
            json: { success: false, code: 'DATABASE_UNAVAILABLE', message: 'Busy' },
          })
        : route.fallback(),
    );
    await likertGroups(page).first().getByRole('radio', { name: 'Neutral' }).check();
    const problem = page.getByRole('alert').filter({ hasText: 'Saving failed' });
    await expect(problem).toContainText('could not be saved to the server');
    await expect(problem).toContainText('still kept in this browser tab');
    await expect(page.getByText(/last saved at/i)).toHaveCount(0);

    failing = false;
    await expect(page.getByText(/Last saved at/)).toBeVisible();
    await expect(page.getByText(/could not be saved/)).toHaveCount(0);
  });
});

test.describe('a survey that changed while it was open', () => {
  // A new institution, a student and an administrator's session: a lot of set-up per test.
  test.slow();
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

test.describe('the same survey in two windows', () => {
  /** The student's draft as the server holds it now. */
  async function storedAnswers(page: Page, templateId: number) {
    const response = await page.request.get(`/api/autosave/load/${templateId}`);
    const body = (await response.json()) as { saved_data: { answers: Record<string, string> } | null };
    return body.saved_data?.answers ?? null;
  }

  /** Waits for the next autosave of `page` that the server accepted; returns its template id. */
  async function acceptedSave(page: Page): Promise<number> {
    const response = await page.waitForResponse(
      (candidate) => new URL(candidate.url()).pathname === '/api/autosave/' && candidate.status() === 200,
    );
    return (response.request().postDataJSON() as { template_id: number }).template_id;
  }

  test("neither window's answers are lost: each saves on top of the other's", async ({ context }) => {
    const student = await createStudent();
    const windowA = await context.newPage();
    await signIn(windowA, student);
    await windowA.goto('/survey/');
    const windowB = await context.newPage();
    await windowB.goto('/survey/');
    await expect(likertGroups(windowB).first()).toBeVisible();

    let saved = acceptedSave(windowA);
    await likertGroups(windowA).first().getByRole('radio', { name: 'Neutral' }).check();
    const templateId = await saved;

    // Window B never saw that answer; its own save must not wipe it out.
    saved = acceptedSave(windowB);
    await safetyGroup(windowB).getByRole('radio', { name: 'Never' }).check();
    await expect(windowB.getByText('Answers saved in another window have been added here.')).toBeVisible();
    await expect(likertGroups(windowB).first().getByRole('radio', { name: 'Neutral' })).toBeChecked();
    await saved;
    expect(Object.values((await storedAnswers(windowA, templateId)) ?? {}).sort()).toEqual(['1', '3']);

    // And window A, now behind, takes in B's answer when it saves again.
    saved = acceptedSave(windowA);
    await textAnswer(windowA).fill('Written in window A.');
    await saved;
    await expect(safetyGroup(windowA).getByRole('radio', { name: 'Never' })).toBeChecked();
    expect(Object.values((await storedAnswers(windowA, templateId)) ?? {}).sort()).toEqual([
      '1',
      '3',
      'Written in window A.',
    ]);
  });

  test('after submitting in one window, the other learns it is stale and the draft stays gone', async ({
    context,
  }) => {
    const student = await createStudent();
    // Both windows run on a clock the test can stop, to let an autosave tick pass on demand.
    await context.clock.install();
    const windowA = await context.newPage();
    await signIn(windowA, student);
    await windowA.goto('/survey/');
    const windowB = await context.newPage();
    await windowB.goto('/survey/');
    await expect(likertGroups(windowB).first()).toBeVisible();

    const saved = acceptedSave(windowB);
    await likertGroups(windowB).first().getByRole('radio', { name: 'Poor', exact: true }).check();
    const templateId = await saved;

    await answerEverything(windowA);
    await windowA.getByRole('button', { name: SUBMIT_BUTTON }).click();
    await expect(windowA.getByRole('button', { name: 'Submitted' })).toBeVisible();
    expect(await storedAnswers(windowA, templateId)).toBeNull();

    // Window B still has the survey open and changes an answer.
    await safetyGroup(windowB).getByRole('radio', { name: 'Never' }).check();
    const notice = windowB.getByRole('alert').filter({ hasText: 'Saving stopped' });
    await expect(notice).toContainText('submitted or started afresh in another window');
    // A whole autosave tick passes in window B: still nothing is stored. runFor fires every timer
    // due in the page's next 3.5 s before it returns; pausing at a moment read from this process's
    // clock raced the page's own, which may already be past it on a loaded machine.
    await windowB.clock.runFor(3_500);
    expect(await storedAnswers(windowB, templateId)).toBeNull();

    await notice.getByRole('button', { name: 'Reload the survey' }).click();
    await expect(likertGroups(windowB).first()).toBeVisible();
    await expect(windowB.getByText('Your saved answers have been restored.')).toHaveCount(0);
    await expect(windowB.locator('form input[type="radio"]:checked')).toHaveCount(0);
  });
});
