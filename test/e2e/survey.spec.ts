import {
  createAdmin,
  createInstitutionWithAdmin,
  createStudent,
  expect,
  expectNoA11yViolations,
  SCREEN_WIDTHS,
  signIn,
  stopPageClock,
  test,
} from './support';
import {
  answerEverything,
  apiSession,
  countSubmissions,
  demoLinkHash,
  instrumentItemGroups,
  likertGroups,
  likertQuestionGroups,
  listTemplates,
  MISSING_ANSWERS,
  nextSubmission,
  SUBMIT_BUTTON,
  safetyGroup,
  surveyStorage,
  textAnswer,
} from './survey-helpers';

/** The survey at /survey/ for a logged-in user (spec sections 2, 4, 5, 7, 8, 9; design section 5). */

test.describe('survey for a logged-in student', () => {
  test('shows the form with the account filled in, refuses missing answers, then submits', async ({
    page,
  }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.goto('/survey/');

    await expect(page.getByRole('heading', { level: 1, name: 'Student Wellness Check' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Back' })).toBeVisible();
    await expect(page.getByText('Survey accessed via shared link')).toHaveCount(0);
    const name = page.getByLabel('Full Name');
    const email = page.getByLabel('School Email');
    await expect(name).toHaveValue(student.name);
    await expect(name).toHaveAttribute('readonly', '');
    await expect(email).toHaveValue(student.email);
    await expect(email).toHaveAttribute('readonly', '');
    // No answers yet: nothing to start afresh.
    await expect(page.getByRole('button', { name: 'Start fresh' })).toHaveCount(0);
    await expect(
      page.getByText(/confidential and protected under FERPA.*improve student support services/),
    ).toBeVisible();

    // Likert questions: five options each with the spec's labels, in order 5 .. 1.
    const first = likertGroups(page).first();
    await expect(first.getByRole('radio')).toHaveCount(5);
    await expect(first.locator('label')).toHaveText([/Very Poor/, /Poor/, /Neutral/, /Good/, /Excellent/]);
    await expect(first.getByRole('radio', { name: 'Very Poor' })).toHaveAttribute('value', '5');
    await expect(first.getByRole('radio', { name: 'Excellent' })).toHaveAttribute('value', '1');
    // The text question: four rows and the spec's placeholder.
    await expect(textAnswer(page)).toHaveAttribute('rows', '4');
    await expectNoA11yViolations(page, 'survey, available');

    let submitted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/survey/') submitted += 1;
    });

    await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
    await expect(page.getByRole('alert')).toHaveText(MISSING_ANSWERS);
    // Focus moves to the first unanswered question, which says what it needs.
    await expect(first.getByRole('radio').first()).toBeFocused();
    await expect(first).toContainText('Please answer this question.');
    await expectNoA11yViolations(page, 'survey, missing answers');

    // All but one answered is still not enough.
    await answerEverything(page);
    await textAnswer(page).fill('   ');
    await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
    await expect(page.getByRole('alert')).toHaveText(MISSING_ANSWERS);
    await expect(textAnswer(page)).toBeFocused();
    expect(submitted).toBe(0);

    await textAnswer(page).fill('Busy term, but doing fine.');
    await expect(page.getByText(MISSING_ANSWERS)).toHaveCount(0);
    const response = nextSubmission(page);
    await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
    const body = (await (await response).json()) as {
      success: boolean;
      message: string;
      crisis_resources?: unknown;
    };
    expect(body.success).toBe(true);
    expect(body.crisis_resources).toBeUndefined();

    // Submitted: the message, a locked form, and no crisis panel.
    const result = page.getByRole('region', { name: body.message });
    await expect(result).toBeVisible();
    await expect(result).toBeFocused();
    await expect(page.getByRole('button', { name: 'Submitted' })).toBeDisabled();
    await expect(first.getByRole('radio').first()).toBeDisabled();
    await expect(textAnswer(page)).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Start fresh' })).toHaveCount(0);
    await expect(page.getByText("You don't have to go through this alone")).toHaveCount(0);
    await expectNoA11yViolations(page, 'survey, submitted');
    await expect(page).toHaveURL('/');
    expect(submitted).toBe(1);
    expect(countSubmissions(student.email)).toBe(1);
  });

  test('a non-urgent submission goes to the homepage 3 seconds after success', async ({ page }) => {
    const student = await createStudent();
    await signIn(page, student);
    // The page's own clock, moved by hand: the 3 seconds are measured exactly.
    await page.clock.install();
    await page.goto('/survey/');
    await answerEverything(page);
    // Stop the page's clock (it jumps a second ahead to do so): from here only runFor moves it,
    // so the time a busy machine takes between the steps below does not count.
    await stopPageClock(page);
    const response = nextSubmission(page);
    await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
    await response;
    await expect(page.getByText('Taking you to the homepage')).toBeVisible();
    // Focus moves to the message in the same step that starts the timer: from here, 3 seconds.
    await expect(page.getByRole('region', { name: /submitted/ })).toBeFocused();
    await page.clock.runFor(2_900);
    await expect(page).toHaveURL('/survey/');
    await page.clock.runFor(150);
    await page.waitForURL((url) => url.pathname === '/');
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Student Wellness Check');
  });

  test('an urgent submission shows crisis resources calmly and never redirects', async ({ page }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.clock.install();
    await page.goto('/survey/');
    await answerEverything(page, { urgent: true });
    const response = nextSubmission(page);
    await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
    const body = (await (await response).json()) as {
      crisis_resources?: { always_open: { name: string }[]; institution: { name: string }[] };
    };
    expect(body.crisis_resources?.always_open.length).toBeGreaterThan(0);

    const panel = page.getByRole('region', { name: "You don't have to go through this alone" });
    await expect(panel).toBeVisible();
    for (const resource of body.crisis_resources?.always_open ?? []) {
      await expect(panel.getByRole('heading', { name: resource.name })).toBeVisible();
    }
    // Default resources: tap to call or text.
    await expect(panel.getByRole('link', { name: 'Call 988' })).toHaveAttribute('href', 'tel:988');
    await expect(panel.getByRole('link', { name: 'Text 988' })).toHaveAttribute('href', 'sms:988');
    await expect(panel.getByRole('link', { name: 'Text HOME to 741741' })).toHaveAttribute(
      'href',
      'sms:741741?&body=HOME',
    );
    await expect(panel.getByRole('link', { name: 'Call 911' })).toHaveAttribute('href', 'tel:911');
    await expect(panel.getByRole('link', { name: 'Back to Homepage' })).toBeVisible();
    // Never tells the student how the answers were assessed.
    await expect(page.locator('main')).not.toContainText(/flag|risk|urgent/i);
    await expect(page.getByText('Taking you to the homepage')).toHaveCount(0);
    await expectNoA11yViolations(page, 'survey, crisis resources');

    // Well past the 3 seconds of an ordinary submission: still here.
    await page.clock.runFor(30_000);
    await expect(page).toHaveURL('/survey/');
    await expect(panel).toBeVisible();
    expect(countSubmissions(student.email)).toBe(1);
  });

  test('on a phone, an urgent result opens at its top, with the thank-you and the help in view', async ({
    page,
  }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.setViewportSize({ width: SCREEN_WIDTHS.mobile, height: 800 });
    await page.goto('/survey/');
    await answerEverything(page, { urgent: true });
    const response = nextSubmission(page);
    await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
    const { message } = (await (await response).json()) as { message: string };

    await expect(page.getByRole('region', { name: message })).toBeFocused();
    await expect(page.getByRole('heading', { name: message })).toBeInViewport({ ratio: 1 });
    await expect(
      page.getByRole('heading', { name: "You don't have to go through this alone" }),
    ).toBeInViewport({ ratio: 1 });
  });

  test('answers are autosaved and restored after a reload', async ({ page }) => {
    const student = await createStudent();
    await signIn(page, student);
    // The page's own clock, moved by hand: each 3-second autosave tick happens when the test says.
    await page.clock.install();
    await page.goto('/survey/');
    await expect(likertGroups(page).first()).toBeVisible();
    await stopPageClock(page);
    // Nothing is saved while there are no answers.
    let autosaves = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/autosave/') autosaves += 1;
    });
    await page.clock.runFor(3_500);
    expect(autosaves).toBe(0);

    const first = likertGroups(page).first();
    const autosave = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/autosave/' &&
        (response.request().postData() ?? '').includes('Half way there.'),
    );
    await first.getByRole('radio', { name: 'Neutral' }).check();
    await safetyGroup(page).getByRole('radio', { name: 'Never' }).check();
    await textAnswer(page).fill('Half way there.');
    // Sent on the next 3-second tick: the clock moves no further than that.
    await page.clock.runFor(3_000);
    const saved = (await autosave).request().postDataJSON() as {
      template_id: number;
      answers: Record<string, string>;
    };
    expect(Object.values(saved.answers).sort()).toEqual(['1', '3', 'Half way there.']);
    await expect(page.getByText(/Last saved at/)).toBeVisible();
    await page.clock.resume();

    // Drop this tab's copy, so what comes back can only come from the server.
    await page.evaluate(() => sessionStorage.clear());
    await page.reload();
    await expect(page.getByText('Your saved answers have been restored.')).toBeVisible();
    await expect(likertGroups(page).first().getByRole('radio', { name: 'Neutral' })).toBeChecked();
    await expect(safetyGroup(page).getByRole('radio', { name: 'Never' })).toBeChecked();
    await expect(textAnswer(page)).toHaveValue('Half way there.');
    await expect(page.getByRole('button', { name: 'Start fresh' })).toBeVisible();

    // Submitting clears the draft: a later visit starts empty.
    await answerEverything(page);
    const response = nextSubmission(page);
    await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
    await response;
    expect(await surveyStorage(page)).toEqual({});
    const draft = await page.request.get(`/api/autosave/load/${saved.template_id}`);
    expect(((await draft.json()) as { saved_data: unknown }).saved_data).toBeNull();
  });

  test('Start fresh asks first, then clears the answers here and on the server', async ({ page }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.goto('/survey/');
    await likertGroups(page).first().getByRole('radio', { name: 'Good' }).check();
    await textAnswer(page).fill('Some thoughts.');
    const saved = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/autosave/');
    const startFresh = page.getByRole('button', { name: 'Start fresh' });
    await expect(startFresh).toBeVisible();
    const { template_id: templateId } = (await (await saved).request().postDataJSON()) as {
      template_id: number;
    };

    // Cancel keeps everything.
    await startFresh.click();
    const dialog = page.getByRole('alertdialog', { name: 'Start fresh?' });
    await expect(dialog).toContainText(
      'Are you sure you want to start over? This will clear all your answers.',
    );
    await expectNoA11yViolations(page, 'survey, Start fresh confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(textAnswer(page)).toHaveValue('Some thoughts.');

    // Confirm: cleared on screen, in this tab and on the server (then checked once more).
    const cleared = page.waitForRequest(
      (request) =>
        request.method() === 'DELETE' &&
        new URL(request.url()).pathname === `/api/autosave/clear/${templateId}/`,
    );
    const checkedAgain = page.waitForRequest(
      (request) =>
        request.method() === 'GET' && new URL(request.url()).pathname === `/api/autosave/load/${templateId}`,
    );
    await startFresh.click();
    await dialog.getByRole('button', { name: 'Start fresh' }).click();
    await cleared;
    await checkedAgain;
    await expect(page.getByText('Your answers have been cleared.')).toBeVisible();
    await expect(likertGroups(page).first().getByRole('radio', { name: 'Good' })).not.toBeChecked();
    await expect(textAnswer(page)).toHaveValue('');
    await expect(startFresh).toHaveCount(0);
    // Focus lands on the first question, not on the page's top.
    await expect(likertGroups(page).first().getByRole('radio').first()).toBeFocused();
    expect(await surveyStorage(page)).toEqual({});
    const draft = await page.request.get(`/api/autosave/load/${templateId}`);
    expect(((await draft.json()) as { saved_data: unknown }).saved_data).toBeNull();

    await page.reload();
    await expect(likertGroups(page).first()).toBeVisible();
    await expect(page.getByText('Your saved answers have been restored.')).toHaveCount(0);
    await expect(textAnswer(page)).toHaveValue('');
  });

  test('a double click and a retried request store one submission', async ({ page }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.goto('/survey/');
    await answerEverything(page);

    // The first attempt reaches the server, but its answer is lost on the way back.
    const sentIds: string[] = [];
    await page.route('**/api/survey/', async (route) => {
      sentIds.push((route.request().postDataJSON() as { submission_id: string }).submission_id);
      await route.fetch();
      await route.abort('connectionreset');
    });
    await page.getByRole('button', { name: SUBMIT_BUTTON }).dblclick();
    await expect(page.getByRole('alert')).toHaveText('Survey submission failed');
    expect(sentIds).toHaveLength(1);
    expect(countSubmissions(student.email)).toBe(1);

    // The student tries again (double-clicking once more): the same id, and still one submission.
    await page.unroute('**/api/survey/');
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/survey/') {
        requests.push((request.postDataJSON() as { submission_id: string }).submission_id);
      }
    });
    await page.getByRole('button', { name: SUBMIT_BUTTON }).dblclick();
    await expect(page.getByRole('button', { name: 'Submitted' })).toBeVisible();
    expect(requests).toEqual(sentIds);
    expect(sentIds[0]).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(countSubmissions(student.email)).toBe(1);
  });

  test('shows the server message when a submit is refused', async ({ page }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.goto('/survey/');
    await answerEverything(page);
    await page.route('**/api/survey/', (route) =>
      route.fulfill({
        status: 409,
        json: { success: false, code: 'CONFLICT', message: 'This survey has changed; please reload it.' },
      }),
    );
    await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
    await expect(page.getByRole('alert')).toHaveText('This survey has changed; please reload it.');
    // Nothing is lost: the answers stay and the button works again.
    await expect(textAnswer(page)).not.toHaveValue('');
    await expect(page.getByRole('button', { name: SUBMIT_BUTTON })).toBeEnabled();
  });

  test('can be completed with the keyboard alone', async ({ page }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.goto('/survey/');
    const groups = likertQuestionGroups(page);
    await expect(groups.first()).toBeVisible();
    const groupCount = await groups.count();

    // From the top of the page, Tab until the first answer option has focus.
    const firstOption = groups.first().getByRole('radio').first();
    for (let presses = 0; presses < 30; presses += 1) {
      await page.keyboard.press('Tab');
      if (await firstOption.evaluate((element) => element === document.activeElement)) break;
    }
    await expect(firstOption).toBeFocused();

    for (let index = 0; index < groupCount; index += 1) {
      const group = groups.nth(index);
      await expect(group.getByRole('radio').first()).toBeFocused();
      // Up from the first option wraps to the last: value 1 ("Excellent", or the question's own label).
      await page.keyboard.press('ArrowUp');
      await expect(group.locator('input[value="1"]')).toBeChecked();
      await expect(group.locator('input[value="1"]')).toBeFocused();
      await page.keyboard.press('Tab');
    }
    await expect(textAnswer(page)).toBeFocused();
    await page.keyboard.type('All good, thank you.');
    // The demo's instruments follow: Tab reaches each item's first choice, Space answers "Not at all".
    const items = instrumentItemGroups(page);
    const itemCount = await items.count();
    for (let index = 0; index < itemCount; index += 1) {
      await page.keyboard.press('Tab');
      await expect(items.nth(index).getByRole('radio').first()).toBeFocused();
      await page.keyboard.press('Space');
    }
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: SUBMIT_BUTTON })).toBeFocused();
    const response = nextSubmission(page);
    await page.keyboard.press('Enter');
    expect((await response).status()).toBe(200);
    await expect(page.getByRole('region', { name: /./ }).first()).toBeFocused();
    expect(countSubmissions(student.email)).toBe(1);
  });

  test('shows a loading state while the questions arrive', async ({ page }) => {
    const student = await createStudent();
    await signIn(page, student);
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/get-user-survey-questions/', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/survey/');
    await expect(page.getByRole('status').filter({ hasText: 'Loading survey...' })).toBeVisible();
    await expectNoA11yViolations(page, 'survey, loading');
    release();
    await expect(likertGroups(page).first()).toBeVisible();
  });

  test('sends a visitor who is not logged in to the login page first', async ({ page }) => {
    await page.goto('/survey/');
    await expect(page).toHaveURL('/login/?next=/survey/');
  });
});

test.describe('survey for staff and other institutions', () => {
  test('an admin previews the survey but cannot submit it', async ({ page }) => {
    const admin = await createAdmin();
    await signIn(page, admin);
    await page.goto('/survey/');
    await expect(likertGroups(page).first()).toBeVisible();
    await expect(page.getByLabel('School Email')).toHaveValue(admin.email);
    await expect(page.getByRole('button', { name: 'Admins cannot submit surveys' })).toBeDisabled();
    await expect(page.getByRole('button', { name: SUBMIT_BUTTON, exact: true })).toHaveCount(0);
    await expectNoA11yViolations(page, 'survey, admin');
  });

  test('custom answer choices replace the labels and keep the emoji', async ({ page }) => {
    const college = await createInstitutionWithAdmin();
    const [template] = await listTemplates(college.admin);
    if (!template) throw new Error('A new institution has a default template');
    const { api, csrf } = await apiSession(college.admin);
    const added = await api.post(`/api/survey-templates/${template.id}/questions/`, {
      headers: { 'X-CSRFToken': await csrf() },
      data: {
        question_text: 'How manageable does your workload feel?',
        question_type: 'likert',
        question_category: 'stress',
        order: 1,
        answer_choices: { '1': 'Very manageable', '5': 'Overwhelming' },
      },
    });
    expect(added.status(), await added.text()).toBeLessThan(300);
    await api.dispose();

    await page.goto(`/survey/link/${template.hash_link}/`);
    const group = page.getByRole('group', { name: /How manageable does your workload feel/ });
    await expect(group.locator('label')).toHaveText([
      /😞\s*Overwhelming/,
      /😟\s*Poor/,
      /😐\s*Neutral/,
      /😊\s*Good/,
      /😄\s*Very manageable/,
    ]);
    await expect(group.getByRole('radio', { name: 'Overwhelming' })).toHaveAttribute('value', '5');
    await expect(group.getByRole('radio', { name: 'Very manageable' })).toHaveAttribute('value', '1');
    // The default template's safety question has its own frequency labels.
    await expect(safetyGroup(page).locator('label')).toHaveText([
      /Almost always/,
      /Often/,
      /Sometimes/,
      /Rarely/,
      /Never/,
    ]);
    await expectNoA11yViolations(page, 'survey, custom answer choices');
  });

  test('the safety question shows its labels without mood emojis; the others keep theirs', async ({
    page,
  }) => {
    await page.goto(`/survey/link/${await demoLinkHash()}/`);
    const safety = safetyGroup(page);
    await expect(safety.locator('label')).toHaveText([
      'Almost always',
      'Often',
      'Sometimes',
      'Rarely',
      'Never',
    ]);
    await expect(safety.getByText(/\p{Extended_Pictographic}/u)).toHaveCount(0);
    await expect(likertGroups(page).first().locator('label')).toHaveText([
      /😞\s*Very Poor/,
      /😟\s*Poor/,
      /😐\s*Neutral/,
      /😊\s*Good/,
      /😄\s*Excellent/,
    ]);
  });

  test('an institution without survey questions shows the unavailable state', async ({ page }) => {
    const college = await createInstitutionWithAdmin();
    const [defaultTemplate] = await listTemplates(college.admin);
    if (!defaultTemplate) throw new Error('A new institution has a default template');
    const { api, csrf } = await apiSession(college.admin);
    const created = await api.post('/api/survey-templates/', { headers: { 'X-CSRFToken': await csrf() } });
    expect(created.status(), await created.text()).toBe(201);
    const emptyTemplate = ((await created.json()) as { template: { hash_link: string } }).template;
    const deleted = await api.delete('/api/survey-templates/', {
      headers: { 'X-CSRFToken': await csrf() },
      data: { template_id: defaultTemplate.id },
    });
    expect(deleted.status(), await deleted.text()).toBe(200);
    await api.dispose();

    const student = await createStudent(college);
    await signIn(page, student);
    await page.goto('/survey/');
    await expect(
      page.getByText(
        'No survey questions are currently available for your institution. Please contact your administrator.',
      ),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Survey not available' })).toBeDisabled();
    await expect(page.getByRole('button', { name: SUBMIT_BUTTON, exact: true })).toHaveCount(0);
    await expectNoA11yViolations(page, 'survey, unavailable');

    // The link of a template without questions says so in the words of a link.
    await page.goto(`/survey/link/${emptyTemplate.hash_link}/`);
    await expect(page.getByText('This survey is not available or may have expired.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Survey not available' })).toBeDisabled();
    await expect(page.getByText('Survey accessed via shared link')).toBeVisible();
    await expectNoA11yViolations(page, 'survey link, unavailable');
  });
});
