import { allowClipboard, apiOf, readClipboard, refuseClipboard } from './admin-support';
import {
  baseUrl,
  completeSecondFactorOnScreen,
  createInstitutionWithAdmin,
  expect,
  expectLoginRequired,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  expectStudentRefused,
  openAs,
  type Page,
  SCREEN_WIDTHS,
  saveScreenshot,
  signIn,
  signInWithForm,
  stopPageClock,
  type TestInstitution,
  test,
} from './support';

const PATH = '/admin/survey-templates/';
const USE_CONFIRMATION =
  'Are you sure you want to use this template? This will deactivate any currently active template.';
const DELETE_CONFIRMATION =
  'Are you sure you want to delete this template? This will also delete all questions in this template.';
const DELETE_QUESTION_CONFIRMATION = 'Are you sure you want to delete this question?';

const templateItem = (page: Page, id: number) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: `Template #${id}`, exact: true }) });
const banner = (page: Page) => page.getByRole('status').filter({ hasText: /\S/ }).first();
const dialog = (page: Page) => page.getByRole('alertdialog');
const editor = (page: Page) => page.getByRole('region', { name: /^Questions of Template #\d+/ });

async function openAsNewAdmin(page: Page): Promise<TestInstitution> {
  const institution = await createInstitutionWithAdmin();
  await openAs(page, institution.admin, PATH, 'Survey Templates');
  return institution;
}

test.describe('template management: access', () => {
  test('anonymous visitors are sent to the login page, which brings them back', async ({ page }) => {
    await expectLoginRequired(page, PATH);
    const institution = await createInstitutionWithAdmin();
    await signInWithForm(page, institution.admin, page.url());
    await completeSecondFactorOnScreen(page, institution.admin);
    await expect(page).toHaveURL(PATH);
    await expect(page.getByRole('heading', { level: 1, name: 'Survey Templates' })).toBeVisible();
  });

  test('students read "Admin access required" and no template', async ({ page }) => {
    await expectStudentRefused(page, PATH);
    await expect(page.getByRole('button', { name: 'Create New Template' })).toHaveCount(0);
  });
});

test.describe('template management', () => {
  test('lists templates with id, "Currently Used" badge and the actions each may take', async ({ page }) => {
    await openAsNewAdmin(page);
    const [defaultTemplate] = await apiOf(page).templates();
    if (!defaultTemplate) throw new Error('A new institution starts with a template');

    const item = templateItem(page, defaultTemplate.id);
    await expect(item).toContainText(`ID ${defaultTemplate.id}`);
    await expect(item.getByText('Currently Used', { exact: true })).toBeVisible();
    await expect(item.getByRole('button', { name: /^Edit Questions/ })).toBeVisible();
    await expect(item.getByRole('button', { name: /^Delete/ })).toBeVisible();
    // Use Template is offered only for a template that is not in use.
    await expect(item.getByRole('button', { name: /^Use Template/ })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Back to Homepage' })).toHaveAttribute('href', '/');
  });

  test('Create New Template adds an unused template and says "Template created!" for 2.5 seconds', async ({
    page,
  }) => {
    // The page's clock, stopped before the click: only runFor moves it, so the banner's 2.5
    // seconds are measured exactly, however slowly the machine runs the steps in between.
    await page.clock.install();
    await openAsNewAdmin(page);
    await stopPageClock(page);
    await page.getByRole('button', { name: 'Create New Template' }).click();
    await expect(banner(page)).toHaveText('Template created!');
    await page.clock.runFor(2_450);
    await expect(banner(page)).toHaveText('Template created!');

    const templates = await apiOf(page).templates();
    expect(templates).toHaveLength(2);
    const created = templates.find((template) => !template.used);
    if (!created) throw new Error('The new template is not in use');
    const item = templateItem(page, created.id);
    await expect(item).toBeVisible();
    await expect(item.getByText('Currently Used')).toHaveCount(0);
    await expect(item.getByRole('button', { name: /^Use Template/ })).toBeVisible();

    // Spec section 9: banners go away by themselves after 2.5 seconds.
    await page.clock.runFor(100);
    await expect(page.getByText('Template created!')).toHaveCount(0);
    await page.clock.resume();
  });

  test('Use Template asks first, then activates the template and deactivates the other', async ({ page }) => {
    await openAsNewAdmin(page);
    const api = apiOf(page);
    const created = await api.createTemplate();
    const [first] = (await api.templates()).filter((template) => template.used);
    if (!first) throw new Error('The default template is active');
    await page.reload();

    const item = templateItem(page, created.id);
    await item.getByRole('button', { name: /^Use Template/ }).click();
    await expect(dialog(page)).toContainText(USE_CONFIRMATION);
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog(page)).toBeHidden();
    expect((await api.templates()).find((template) => template.id === created.id)?.used).toBe(false);

    await item.getByRole('button', { name: /^Use Template/ }).click();
    await dialog(page).getByRole('button', { name: 'Use Template' }).click();
    await expect(banner(page)).toHaveText('Template activated successfully!');
    await expect(item.getByText('Currently Used')).toBeVisible();
    await expect(item.getByRole('button', { name: /^Use Template/ })).toHaveCount(0);
    const previous = templateItem(page, first.id);
    await expect(previous.getByText('Currently Used')).toHaveCount(0);
    await expect(previous.getByRole('button', { name: /^Use Template/ })).toBeVisible();
    const states = await api.templates();
    expect(states.filter((template) => template.used).map((template) => template.id)).toEqual([created.id]);
  });

  test('Delete asks first, then removes the template and its questions', async ({ page }) => {
    await openAsNewAdmin(page);
    const api = apiOf(page);
    const created = await api.createTemplate();
    await page.reload();

    const item = templateItem(page, created.id);
    await item.getByRole('button', { name: /^Delete/ }).click();
    await expect(dialog(page)).toContainText(DELETE_CONFIRMATION);
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(item).toBeVisible();

    await item.getByRole('button', { name: /^Delete/ }).click();
    await dialog(page).getByRole('button', { name: 'Delete Template' }).click();
    await expect(banner(page)).toHaveText('Template deleted!');
    await expect(item).toHaveCount(0);
    expect((await api.templates()).map((template) => template.id)).not.toContain(created.id);
  });

  test('Show/Hide Survey Links toggles the links; Copy Link puts the link on the clipboard', async ({
    page,
    context,
  }) => {
    await allowClipboard(context);
    await openAsNewAdmin(page);
    const [template] = await apiOf(page).templates();
    if (!template) throw new Error('A new institution starts with a template');
    const expected = `${baseUrl()}/survey/link/${template.hash_link}`;

    const item = templateItem(page, template.id);
    await expect(item.getByRole('textbox', { name: /^Survey link/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Show Survey Links' }).click();
    await expect(item.getByRole('textbox', { name: /^Survey link/ })).toHaveValue(expected);

    await item.getByRole('button', { name: /^Copy Link/ }).click();
    await expect(banner(page)).toHaveText('Hash link copied to clipboard!');
    expect(await readClipboard(page)).toBe(expected);

    await page.getByRole('button', { name: 'Hide Survey Links' }).click();
    await expect(item.getByRole('textbox', { name: /^Survey link/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Show Survey Links' })).toBeVisible();
  });

  test('the shared link uses the configured public URL', async ({ page, context }) => {
    await allowClipboard(context);
    const institution = await createInstitutionWithAdmin();
    await signIn(page, institution.admin);
    // The server writes PUBLIC_URL into the shell's app-config; this page gets one set.
    await page.route(/\/admin\/survey-templates\/$/, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(
        /<meta name="app-config" content="[^"]*"/,
        `<meta name="app-config" content="${JSON.stringify({ publicUrl: 'https://wellness.example.edu/' }).replaceAll('"', '&quot;')}"`,
      );
      await route.fulfill({ response, body: html });
    });
    await page.goto(PATH);
    const [template] = await apiOf(page).templates();
    if (!template) throw new Error('A new institution starts with a template');
    await page.getByRole('button', { name: 'Show Survey Links' }).click();
    await templateItem(page, template.id)
      .getByRole('button', { name: /^Copy Link/ })
      .click();
    await expect(banner(page)).toHaveText('Hash link copied to clipboard!');
    expect(await readClipboard(page)).toBe(`https://wellness.example.edu/survey/link/${template.hash_link}`);
  });

  test('a refused clipboard says "Failed to copy link to clipboard"', async ({ page }) => {
    await refuseClipboard(page);
    await openAsNewAdmin(page);
    await page.getByRole('button', { name: 'Show Survey Links' }).click();
    await page
      .getByRole('button', { name: /^Copy Link/ })
      .first()
      .click();
    await expect(banner(page)).toHaveText('Failed to copy link to clipboard');
  });
});

test.describe('template management: failures', () => {
  test('loading failures: the server, or the network', async ({ page }) => {
    const institution = await createInstitutionWithAdmin();
    await signIn(page, institution.admin);
    await page.route('**/api/survey-templates/', (route) =>
      route.request().method() === 'GET' ? route.fulfill({ status: 500, body: '' }) : route.fallback(),
    );
    await page.goto(PATH);
    await expect(page.getByRole('alert')).toContainText('Failed to load templates.');

    await page.unroute('**/api/survey-templates/');
    await page.route('**/api/survey-templates/', (route) =>
      route.request().method() === 'GET' ? route.abort() : route.fallback(),
    );
    await page.reload();
    await expect(page.getByRole('alert')).toContainText('Error loading templates.');

    await page.unroute('**/api/survey-templates/');
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByText('Currently Used')).toBeVisible();
  });

  test('the server\'s own message wins; otherwise "Failed ..." on an error answer, "Error ..." offline', async ({
    page,
  }) => {
    await openAsNewAdmin(page);
    const api = apiOf(page);
    const spare = await api.createTemplate();
    await page.reload();
    const item = templateItem(page, spare.id);

    const failWith = async (pattern: string, method: string, fail: 'server' | 'message' | 'network') => {
      await page.unrouteAll();
      await page.route(pattern, (route) => {
        if (route.request().method() !== method) return route.fallback();
        if (fail === 'network') return route.abort();
        if (fail === 'message')
          return route.fulfill({
            status: 409,
            json: { success: false, code: 'CONFLICT', message: 'Busy, try later' },
          });
        return route.fulfill({ status: 500, body: '' });
      });
    };

    await failWith('**/api/survey-templates/', 'POST', 'server');
    await page.getByRole('button', { name: 'Create New Template' }).click();
    await expect(banner(page)).toHaveText('Failed to create template.');
    await failWith('**/api/survey-templates/', 'POST', 'network');
    await page.getByRole('button', { name: 'Create New Template' }).click();
    await expect(banner(page)).toHaveText('Error creating template.');
    await failWith('**/api/survey-templates/', 'POST', 'message');
    await page.getByRole('button', { name: 'Create New Template' }).click();
    await expect(banner(page)).toHaveText('Busy, try later');

    await failWith('**/use/', 'POST', 'server');
    await item.getByRole('button', { name: /^Use Template/ }).click();
    await dialog(page).getByRole('button', { name: 'Use Template' }).click();
    await expect(banner(page)).toHaveText('Failed to activate template.');
    await failWith('**/use/', 'POST', 'network');
    await item.getByRole('button', { name: /^Use Template/ }).click();
    await dialog(page).getByRole('button', { name: 'Use Template' }).click();
    await expect(banner(page)).toHaveText('Error activating template.');

    await failWith('**/api/survey-templates/', 'DELETE', 'server');
    await item.getByRole('button', { name: /^Delete/ }).click();
    await dialog(page).getByRole('button', { name: 'Delete Template' }).click();
    await expect(banner(page)).toHaveText('Failed to delete template.');
    await failWith('**/api/survey-templates/', 'DELETE', 'network');
    await item.getByRole('button', { name: /^Delete/ }).click();
    await dialog(page).getByRole('button', { name: 'Delete Template' }).click();
    await expect(banner(page)).toHaveText('Error deleting template.');

    await failWith('**/questions/', 'GET', 'server');
    await item.getByRole('button', { name: /^Edit Questions/ }).click();
    await expect(editor(page).getByRole('alert')).toContainText('Failed to load questions.');
    await failWith('**/questions/', 'GET', 'network');
    await editor(page).getByRole('button', { name: 'Try again' }).click();
    await expect(editor(page).getByRole('alert')).toContainText('Error loading questions.');

    await page.unrouteAll();
    await editor(page).getByRole('button', { name: 'Try again' }).click();
    await expect(editor(page).getByText('This template has no questions yet.')).toBeVisible();
    await api.addQuestion(spare.id, {
      question_text: 'Kept',
      question_type: 'likert',
      question_category: 'general',
      order: 1,
    });

    await failWith('**/questions/', 'POST', 'server');
    await editor(page).getByLabel('Question Text').fill('How rested do you feel?');
    await editor(page).getByRole('button', { name: 'Add Question' }).click();
    await expect(banner(page)).toHaveText('Failed to add question.');
    await failWith('**/questions/', 'POST', 'network');
    await editor(page).getByRole('button', { name: 'Add Question' }).click();
    await expect(banner(page)).toHaveText('Error adding question.');

    await page.unrouteAll();
    await page.reload();
    await templateItem(page, spare.id)
      .getByRole('button', { name: /^Edit Questions/ })
      .click();
    await expect(editor(page).getByText('Kept')).toBeVisible();
    await failWith('**/questions/', 'DELETE', 'server');
    await editor(page)
      .getByRole('button', { name: /^Delete question/ })
      .click();
    await dialog(page).getByRole('button', { name: 'Delete Question' }).click();
    await expect(banner(page)).toHaveText('Failed to delete question.');
    await failWith('**/questions/', 'DELETE', 'network');
    await editor(page)
      .getByRole('button', { name: /^Delete question/ })
      .click();
    await dialog(page).getByRole('button', { name: 'Delete Question' }).click();
    await expect(banner(page)).toHaveText('Error deleting question.');
  });
});

test.describe('question editor', () => {
  test("shows the template's questions: Q number from order, text, type, category, custom answers", async ({
    page,
  }) => {
    await openAsNewAdmin(page);
    const [template] = await apiOf(page).templates();
    if (!template) throw new Error('A new institution starts with a template');
    const questions = await apiOf(page).questions(template.id);

    await templateItem(page, template.id)
      .getByRole('button', { name: /^Edit Questions/ })
      .click();
    const list = editor(page).getByRole('list', { name: `Questions of Template #${template.id}` });
    const items = list.locator(':scope > li');
    await expect(items).toHaveCount(questions.length);
    for (const [index, question] of questions.entries()) {
      const row = items.nth(index);
      await expect(row).toContainText(`Q${question.order}`);
      await expect(row).toContainText(question.question_text);
      await expect(row).toContainText(question.question_type === 'likert' ? 'Likert scale' : 'Text');
    }
    const safety = items.filter({ hasText: 'thoughts of harming yourself' });
    await expect(safety).toContainText('Safety / Self-harm screening');
    await expect(safety).toContainText('Custom answers');
    await expect(safety).toContainText('1 (Excellent) Never');
    await expect(safety).toContainText('5 (Very Poor) Almost always');
    await expect(items.filter({ hasText: 'quality of your sleep' })).toContainText('Sleep Quality');
    await expect(items.filter({ hasText: 'managing your stress' })).toContainText('Stress Level');
    await expect(items.filter({ hasText: 'supported do you feel' })).toContainText('Support Perception');
    await expect(items.filter({ hasText: 'anything else' })).toContainText('General Question');
  });

  test('Add New Question: text required, order >= 1, categories by type, custom answers, reset', async ({
    page,
  }) => {
    await openAsNewAdmin(page);
    const api = apiOf(page);
    const template = await api.createTemplate();
    await page.reload();
    await templateItem(page, template.id)
      .getByRole('button', { name: /^Edit Questions/ })
      .click();
    const form = editor(page).getByRole('form', { name: 'Add New Question' });
    const text = form.getByLabel('Question Text');
    const type = form.getByLabel('Question Type');
    const category = form.getByLabel('Category');
    const order = form.getByLabel('Order');
    const add = form.getByRole('button', { name: 'Add Question' });

    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/questions/')) posts += 1;
    });

    // Defaults: likert, general, order 1, the five custom answer fields blank.
    await expect(type).toHaveValue('likert');
    await expect(category).toHaveValue('general');
    await expect(order).toHaveValue('1');
    await expect(category.locator('option')).toHaveText([
      'General Question',
      'Sleep Quality',
      'Stress Level',
      'Support Perception',
      'Safety / Self-harm screening',
    ]);

    // Text is required (blank and whitespace alike).
    await add.click();
    await expect(form.getByText('Question text is required.')).toBeVisible();
    await expect(text).toHaveAttribute('aria-invalid', 'true');
    await expect(text).toBeFocused();
    await text.fill('   ');
    await add.click();
    await expect(form.getByText('Question text is required.')).toBeVisible();

    // Order: a whole number, at least 1, required.
    await text.fill('How rested do you feel after a night of sleep?');
    await expect(form.getByText('Question text is required.')).toHaveCount(0);
    for (const bad of ['0', '-3', '']) {
      await order.fill(bad);
      await add.click();
      await expect(form.getByText('Order must be a whole number of at least 1.')).toBeVisible();
      await expect(order).toBeFocused();
    }
    expect(posts).toBe(0);

    // Changing the type resets the category; text questions are general only.
    await category.selectOption('sleep');
    await type.selectOption('text');
    await expect(category).toHaveValue('general');
    await expect(category.locator('option')).toHaveText(['General Question']);
    await expect(form.getByRole('group', { name: /Custom Answer Choices/ })).toHaveCount(0);
    await type.selectOption('likert');
    await expect(category).toHaveValue('general');
    await category.selectOption('sleep');

    // Custom answers: only those given are sent.
    await order.fill('2');
    await form.getByLabel('1 (Excellent)').fill('Fully rested');
    await form.getByLabel('3 (Neutral)').fill('  So-so  ');
    const [request] = await Promise.all([
      page.waitForRequest(
        (candidate) => candidate.method() === 'POST' && candidate.url().endsWith('/questions/'),
      ),
      add.click(),
    ]);
    expect(request.postDataJSON()).toEqual({
      question_text: 'How rested do you feel after a night of sleep?',
      question_type: 'likert',
      question_category: 'sleep',
      order: 2,
      answer_choices: { '1': 'Fully rested', '3': 'So-so' },
    });
    await expect(banner(page)).toHaveText('Question added!');

    // The form starts over: likert, general, order 1, blank text and answers.
    await expect(text).toHaveValue('');
    await expect(type).toHaveValue('likert');
    await expect(category).toHaveValue('general');
    await expect(order).toHaveValue('1');
    for (const label of ['1 (Excellent)', '2 (Good)', '3 (Neutral)', '4 (Poor)', '5 (Very Poor)']) {
      await expect(form.getByLabel(label)).toHaveValue('');
    }
    const added = editor(page).getByRole('listitem').filter({ hasText: 'How rested do you feel' });
    await expect(added).toContainText('Q2');
    await expect(added).toContainText('Sleep Quality');
    await expect(added).toContainText('1 (Excellent) Fully rested');
    await expect(added).toContainText('3 (Neutral) So-so');

    // Without custom answers, none are sent; a Likert question may be a safety item.
    await text.fill('How often have you felt unsafe?');
    await category.selectOption('safety');
    const [plain] = await Promise.all([
      page.waitForRequest(
        (candidate) => candidate.method() === 'POST' && candidate.url().endsWith('/questions/'),
      ),
      add.click(),
    ]);
    expect(plain.postDataJSON()).toEqual({
      question_text: 'How often have you felt unsafe?',
      question_type: 'likert',
      question_category: 'safety',
      order: 1,
    });
    // The banner still says so from the first question: wait for the form to start over instead.
    await expect(text).toHaveValue('');
    await expect(
      editor(page).getByRole('listitem').filter({ hasText: 'How often have you felt unsafe?' }),
    ).toHaveCount(1);

    // A text question.
    await text.fill('Anything else on your mind?');
    await type.selectOption('text');
    await order.fill('3');
    const [free] = await Promise.all([
      page.waitForRequest(
        (candidate) => candidate.method() === 'POST' && candidate.url().endsWith('/questions/'),
      ),
      add.click(),
    ]);
    expect(free.postDataJSON()).toEqual({
      question_text: 'Anything else on your mind?',
      question_type: 'text',
      question_category: 'general',
      order: 3,
    });

    // Listed by order: Q1 safety, Q2 sleep, Q3 text.
    const items = editor(page)
      .getByRole('list', { name: /^Questions of Template/ })
      .locator(':scope > li');
    await expect(items).toHaveCount(3);
    await expect(items.nth(0)).toContainText('How often have you felt unsafe?');
    await expect(items.nth(2)).toContainText('Anything else on your mind?');
    const stored = await api.questions(template.id);
    expect(stored.map((question) => [question.order, question.category, question.answer_choices])).toEqual([
      [1, 'safety', null],
      [2, 'sleep', { '1': 'Fully rested', '3': 'So-so' }],
      [3, 'general', null],
    ]);
  });

  test('Delete asks "Are you sure you want to delete this question?" and removes it', async ({ page }) => {
    await openAsNewAdmin(page);
    const api = apiOf(page);
    const template = await api.createTemplate();
    await api.addQuestion(template.id, {
      question_text: 'Question to remove',
      question_type: 'text',
      question_category: 'general',
      order: 1,
    });
    await page.reload();
    await templateItem(page, template.id)
      .getByRole('button', { name: /^Edit Questions/ })
      .click();
    const row = editor(page).getByRole('listitem').filter({ hasText: 'Question to remove' });

    await row.getByRole('button', { name: 'Delete question Q1' }).click();
    await expect(dialog(page)).toContainText(DELETE_QUESTION_CONFIRMATION);
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(row).toBeVisible();

    await row.getByRole('button', { name: 'Delete question Q1' }).click();
    await dialog(page).getByRole('button', { name: 'Delete Question' }).click();
    await expect(banner(page)).toHaveText('Question deleted!');
    await expect(row).toHaveCount(0);
    expect(await api.questions(template.id)).toEqual([]);
  });

  test('a Spanish translation of a custom question is marked up to date; an untranslated one says Missing', async ({
    page,
  }) => {
    await openAsNewAdmin(page);
    const api = apiOf(page);
    const template = await api.createTemplate();
    for (const [order, text] of [
      [1, 'How rested do you feel today?'],
      [2, 'Anything else on your mind?'],
    ] as const) {
      await api.addQuestion(template.id, {
        question_text: text,
        question_type: 'text',
        question_category: 'general',
        order,
      });
    }
    await page.reload();
    await templateItem(page, template.id)
      .getByRole('button', { name: /^Edit Questions/ })
      .click();
    const rows = editor(page)
      .getByRole('list', { name: /^Questions of Template/ })
      .locator(':scope > li');
    const first = rows.filter({ hasText: 'How rested do you feel today?' });
    const second = rows.filter({ hasText: 'Anything else on your mind?' });
    await expect(first).toContainText('Spanish');
    await expect(first).toContainText('Missing');

    await first.getByRole('button', { name: 'Add Spanish translation of question Q1' }).click();
    const form = first.getByRole('form', { name: 'Spanish translation of question Q1' });
    await expect(form).toContainText('English: How rested do you feel today?');
    await form.getByLabel('Question text in Spanish').fill('¿Qué tan descansado te sientes hoy?');
    await expectNoA11yViolations(page, 'translation form');
    await form.getByRole('button', { name: 'Save Spanish translation' }).click();
    await expect(banner(page)).toHaveText('Translation saved!');

    await expect(form).toHaveCount(0);
    await expect(first).toContainText('Up to date');
    await expect(first).not.toContainText('Missing');
    await expect(first.getByText('¿Qué tan descansado te sientes hoy?')).toHaveAttribute('lang', 'es');
    await expect(
      first.getByRole('button', { name: 'Edit Spanish translation of question Q1' }),
    ).toBeVisible();
    await expect(
      first.getByRole('button', { name: 'Delete Spanish translation of question Q1' }),
    ).toBeVisible();

    await expect(second).toContainText('Missing');
    await expect(second).not.toContainText('Up to date');
    await expect(
      second.getByRole('button', { name: 'Add Spanish translation of question Q2' }),
    ).toBeVisible();
    await expectNoA11yViolations(page, 'question translations');
  });
});

test.describe('question editor: instrument blocks', () => {
  test('an instrument block moves up and down whole by keyboard, offers no edit of its items, and is axe clean at 1280 and 375 px', async ({
    page,
  }) => {
    await openAsNewAdmin(page);
    const api = apiOf(page);
    const template = await api.createTemplate();
    for (const [order, text] of [
      [1, 'First question'],
      [2, 'Second question'],
    ] as const)
      await api.addQuestion(template.id, {
        question_text: text,
        question_type: 'text',
        question_category: 'general',
        order,
      });
    await api.send('post', `/api/survey-templates/${template.id}/instruments/`, {
      instrument_id: 'phq9',
      order: 3,
    });
    await page.reload();
    await templateItem(page, template.id)
      .getByRole('button', { name: /^Edit Questions/ })
      .click();
    const items = editor(page)
      .getByRole('list', { name: `Questions of Template #${template.id}` })
      .locator(':scope > li');
    const block = items.filter({ hasText: 'PHQ-9' });
    const texts = async () =>
      (await items.allTextContents()).map((text) => /First|Second|PHQ-9/.exec(text)?.[0]);
    await expect(items).toHaveCount(3);
    // Locked: the block can be moved or deleted, nothing else.
    await expect(block.getByRole('button')).toHaveText([
      'Move up instrument Q3',
      'Move down instrument Q3',
      'Delete instrument Q3',
    ]);
    await expect(block.getByRole('button', { name: 'Move down instrument Q3' })).toBeDisabled();
    await expect(block.getByRole('textbox')).toHaveCount(0);

    // Up once by keyboard: it swaps places with the question above, and keeps the focus.
    await block.getByRole('button', { name: 'Move up instrument Q3' }).focus();
    await page.keyboard.press('Enter');
    await expect(banner(page)).toHaveText('Patient Health Questionnaire-9 (PHQ-9) moved up.');
    await expect.poll(texts).toEqual(['First', 'PHQ-9', 'Second']);
    await expect(block.getByRole('button', { name: 'Move up instrument Q2' })).toBeFocused();

    // Up again with Space: at the top, the keyboard lands on Move down.
    await page.keyboard.press('Space');
    await expect.poll(texts).toEqual(['PHQ-9', 'First', 'Second']);
    await expect(block.getByRole('button', { name: 'Move up instrument Q1' })).toBeDisabled();
    await expect(block.getByRole('button', { name: 'Move down instrument Q1' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(block.getByRole('button', { name: 'Delete instrument Q1' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await expect(banner(page)).toHaveText('Patient Health Questionnaire-9 (PHQ-9) moved down.');
    await expect.poll(texts).toEqual(['First', 'PHQ-9', 'Second']);

    // The server keeps the new place; the block is still the whole instrument.
    const stored = await api.questions(template.id);
    expect(
      stored.map((question) =>
        'instrument_id' in question ? question.instrument_id : question.question_text,
      ),
    ).toEqual(['First question', 'phq9', 'Second question']);

    for (const width of [SCREEN_WIDTHS.desktop, SCREEN_WIDTHS.mobile]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoA11yViolations(page, `instrument block in the editor at ${width} px`);
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, 'templates-instrument-block');
    }
  });
});

test.describe('template management: accessibility and layout', () => {
  for (const [device, width] of Object.entries(SCREEN_WIDTHS)) {
    test(`no serious axe violations; screenshot at ${width} px (${device})`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await openAsNewAdmin(page);
      const api = apiOf(page);
      const spare = await api.createTemplate();
      await page.reload();
      await expectNoA11yViolations(page, 'templates list');
      await page.getByRole('button', { name: 'Show Survey Links' }).click();
      const [active] = (await api.templates()).filter((template) => template.used);
      if (!active) throw new Error('The default template is active');
      await templateItem(page, active.id)
        .getByRole('button', { name: /^Edit Questions/ })
        .click();
      await expect(editor(page).getByRole('listitem').first()).toBeVisible();
      await editor(page).getByRole('button', { name: 'Add Question' }).click();
      await expect(editor(page).getByText('Question text is required.')).toBeVisible();
      await expectNoA11yViolations(page, 'templates with links and the question editor');
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, 'templates');

      await templateItem(page, spare.id)
        .getByRole('button', { name: /^Delete/ })
        .click();
      await expect(dialog(page)).toBeVisible();
      await expectNoA11yViolations(page, 'delete confirmation');
      await saveScreenshot(page, 'templates-confirm');
    });
  }
});
