import type { Browser, Locator } from '@playwright/test';
import {
  allowClipboard,
  answerSharedLink,
  apiOf,
  ELEVATED,
  readClipboard,
  refuseClipboard,
  STABLE,
  URGENT,
} from './admin-support';
import {
  baseUrl,
  clientAddressFor,
  createInstitutionWithAdmin,
  createStudent,
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
  type TestInstitution,
  test,
  uniqueId,
} from './support';

const PATH = '/dashboard/';
const TITLE = 'Student Wellness Dashboard';
const TABLE_TITLE = 'Students Requiring Immediate Support';

const banner = (page: Page) => page.getByRole('status').filter({ hasText: /\S/ }).last();
const figure = (page: Page, name: string) => page.getByRole('figure', { name, exact: true });
const metric = (page: Page, label: string) => page.getByRole('listitem').filter({ hasText: label });
const flaggedTable = (page: Page) => page.getByRole('region', { name: TABLE_TITLE }).getByRole('table');
const flaggedRows = (page: Page) => flaggedTable(page).locator('tbody tr');

/** Sends `count` shared-link answers following `plan`; each respondent is a new student. */
async function respond(page: Page, institution: TestInstitution, plan: typeof STABLE, label: string) {
  const [template] = (await apiOf(page).templates()).filter((candidate) => candidate.used);
  if (!template) throw new Error('The institution has an active template');
  const id = uniqueId();
  const respondent = { name: `${label} ${id}`, email: `${label.toLowerCase()}-${id}@${institution.domain}` };
  await answerSharedLink(template.hash_link, respondent, plan);
  return respondent;
}

async function openDashboard(page: Page, institution: TestInstitution) {
  await openAs(page, institution.admin, PATH, TITLE);
}

/**
 * The widest run of pixels of one colour in a chart's canvas, in CSS pixels: for a bar chart,
 * the drawn thickness of its bars.
 */
async function widestRun(chart: Locator, [red, green, blue]: [number, number, number]): Promise<number> {
  return chart.locator('canvas').evaluate(
    (canvas: HTMLCanvasElement, [r, g, b]: [number, number, number]) => {
      const context = canvas.getContext('2d');
      if (!context) return 0;
      const { width, height } = canvas;
      const pixels = context.getImageData(0, 0, width, height).data;
      const near = (index: number) =>
        Math.abs((pixels[index] ?? 0) - r) < 6 &&
        Math.abs((pixels[index + 1] ?? 0) - g) < 6 &&
        Math.abs((pixels[index + 2] ?? 0) - b) < 6 &&
        (pixels[index + 3] ?? 0) > 250;
      let widest = 0;
      for (let y = 0; y < height; y += 1) {
        let run = 0;
        for (let x = 0; x < width; x += 1) {
          run = near((y * width + x) * 4) ? run + 1 : 0;
          if (run > widest) widest = run;
        }
      }
      return widest / (window.devicePixelRatio || 1);
    },
    [red, green, blue] as [number, number, number],
  );
}

/** Pixels of one colour in the left `share` of a chart's canvas (its older months). */
async function colouredPixelsOnTheLeft(
  chart: Locator,
  [red, green, blue]: [number, number, number],
  share: number,
): Promise<number> {
  return chart.locator('canvas').evaluate(
    (canvas: HTMLCanvasElement, [r, g, b, part]: [number, number, number, number]) => {
      const context = canvas.getContext('2d');
      if (!context) return 0;
      const width = Math.floor(canvas.width * part);
      const pixels = context.getImageData(0, 0, width, canvas.height).data;
      let count = 0;
      for (let index = 0; index < pixels.length; index += 4) {
        if (
          Math.abs((pixels[index] ?? 0) - r) < 12 &&
          Math.abs((pixels[index + 1] ?? 0) - g) < 12 &&
          Math.abs((pixels[index + 2] ?? 0) - b) < 12 &&
          (pixels[index + 3] ?? 0) > 200
        )
          count += 1;
      }
      return count;
    },
    [red, green, blue, share] as [number, number, number, number],
  );
}

const PRIMARY: [number, number, number] = [0x0c, 0x5f, 0x5b];
const BLUE: [number, number, number] = [0x1f, 0x5f, 0xcc];
const ORANGE: [number, number, number] = [0xb4, 0x54, 0x1a];

test.describe('dashboard: access', () => {
  test('anonymous visitors are sent to the login page', async ({ page }) => {
    await expectLoginRequired(page, PATH);
  });

  test('students read "Staff access required"', async ({ page }) => {
    await expectStudentRefused(page, PATH, 'Staff access required');
    await expect(page.getByRole('button', { name: 'Copy Survey Link' })).toHaveCount(0);
    await expect(page.locator('canvas')).toHaveCount(0);
    await expectNoA11yViolations(page, 'dashboard refusal');
  });

  test('shows "Loading dashboard..." while the numbers are on their way', async ({ page }) => {
    const institution = await createInstitutionWithAdmin();
    await signIn(page, institution.admin);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/dashboard/', async (route) => {
      await held;
      await route.fallback();
    });
    await page.goto(PATH);
    await expect(page.getByRole('status').filter({ hasText: 'Loading dashboard...' })).toBeVisible();
    release();
    await expect(metric(page, 'Surveys Completed')).toBeVisible();
    await expect(page.getByText('Loading dashboard...')).toHaveCount(0);
  });

  test('says "Failed to load dashboard data" when the numbers cannot be loaded', async ({ page }) => {
    const institution = await createInstitutionWithAdmin();
    await signIn(page, institution.admin);
    await page.route('**/api/dashboard/', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto(PATH);
    await expect(page.getByRole('alert')).toContainText('Failed to load dashboard data');
    await page.unroute('**/api/dashboard/');
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(metric(page, 'Surveys Completed')).toBeVisible();
  });
});

/** The text of every script the page has loaded so far (`_chartjs` is an internal marker of Chart.js). */
async function loadedScripts(page: Page): Promise<string[]> {
  const urls = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => name.endsWith('.js')),
  );
  return Promise.all(urls.map(async (url) => (await page.request.get(url)).text()));
}

test('Chart.js is loaded by the dashboard only', async ({ page }) => {
  const institution = await createInstitutionWithAdmin();
  await signIn(page, institution.admin);
  for (const path of ['/', '/admin/survey-templates/', '/schedule-survey/']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const scripts = await loadedScripts(page);
    expect(
      scripts.some((script) => script.includes('_chartjs')),
      path,
    ).toBe(false);
  }
  await page.goto(PATH);
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  expect((await loadedScripts(page)).some((script) => script.includes('_chartjs'))).toBe(true);
});

test.describe('dashboard: a new institution', () => {
  test('title, the four buttons, export, zero metrics, empty table and "No data available"', async ({
    page,
  }) => {
    const institution = await createInstitutionWithAdmin();
    await openDashboard(page, institution);
    await expect(page).toHaveTitle(/Student Wellness Dashboard/);

    await expect(page.getByRole('link', { name: 'Back to Homepage' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('link', { name: 'Edit Templates' })).toHaveAttribute(
      'href',
      '/admin/survey-templates/',
    );
    await expect(page.getByRole('link', { name: 'Schedule Survey' })).toHaveAttribute(
      'href',
      '/schedule-survey/',
    );
    await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/dashboard/export.csv',
    );
    await expect(page.getByRole('button', { name: 'Copy Survey Link' })).toBeEnabled();

    await expect(metric(page, 'Surveys Completed')).toHaveText(/Surveys Completed\s*0$/);
    await expect(metric(page, 'Students At Risk')).toHaveText(/Students At Risk\s*0$/);
    await expect(metric(page, 'Response Rate')).toHaveText(/Response Rate\s*0%$/);
    // Follow-up cards (design section 9), and the links to case work and settings.
    await expect(metric(page, 'Open Cases')).toHaveText(/Open Cases\s*0$/);
    await expect(metric(page, 'Overdue Cases')).toHaveText(/Overdue Cases\s*0$/);
    await expect(metric(page, 'Submission to Alert Sent')).toHaveText(/No data yet$/);
    await expect(metric(page, 'Submission to Acknowledged')).toHaveText(/No data yet$/);
    await expect(page.getByRole('link', { name: 'Cases', exact: true })).toHaveAttribute('href', '/cases/');
    await expect(page.getByRole('link', { name: 'Settings', exact: true })).toHaveAttribute(
      'href',
      '/admin/settings/',
    );

    const table = page.getByRole('region', { name: TABLE_TITLE });
    await expect(table.getByText('No students currently flagged for intervention.')).toBeVisible();
    await expect(table.getByRole('table')).toHaveCount(0);
    await expect(page.getByText('No data available')).toBeVisible();
    await expect(page.locator('canvas')).toHaveCount(0);
    await expectNoA11yViolations(page, 'dashboard without responses');

    await page.getByRole('link', { name: 'Edit Templates' }).click();
    await expect(page).toHaveURL('/admin/survey-templates/');
    await page.goBack();
    await page.getByRole('link', { name: 'Schedule Survey' }).click();
    await expect(page).toHaveURL('/schedule-survey/');
  });

  test('Copy Survey Link is disabled without any template', async ({ page }) => {
    const institution = await createInstitutionWithAdmin();
    await signIn(page, institution.admin);
    const api = apiOf(page);
    for (const template of await api.templates()) await api.deleteTemplate(template.id);
    await page.goto(PATH);
    await expect(metric(page, 'Surveys Completed')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Copy Survey Link' })).toBeDisabled();
  });
});

/**
 * An institution with five answers, made once per worker: the tests that read it only look (at
 * numbers, the table, the charts, the export), so each need not make its own.
 */
const withResponses = test.extend<object, { responded: TestInstitution }>({
  responded: [
    async ({ browser }, use) => {
      const institution = await createInstitutionWithAdmin();
      const context = await browser.newContext({
        baseURL: baseUrl(),
        extraHTTPHeaders: { 'X-Forwarded-For': clientAddressFor(`responded:${institution.domain}`) },
      });
      try {
        const page = await context.newPage();
        await signIn(page, institution.admin);
        // Five students: one stable, two elevated, two urgent (the newest last).
        await respond(page, institution, STABLE, 'Stable');
        await respond(page, institution, ELEVATED, 'Elevated');
        await respond(page, institution, URGENT, 'Urgent');
        await respond(page, institution, ELEVATED, 'Elevated');
        await respond(page, institution, URGENT, 'Urgent');
      } finally {
        await context.close();
      }
      await use(institution);
    },
    { scope: 'worker' },
  ],
});

withResponses.describe('dashboard: with responses', () => {
  const test = withResponses;
  let institution: TestInstitution;

  test.beforeEach(async ({ page, responded }) => {
    institution = responded;
    await signIn(page, institution.admin);
    await page.goto(PATH);
    await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  });

  test('metric cards count surveys, students at risk and the response rate', async ({ page }) => {
    await expect(metric(page, 'Surveys Completed')).toHaveText(/Surveys Completed\s*5$/);
    await expect(metric(page, 'Students At Risk')).toHaveText(/Students At Risk\s*4$/);
    await expect(metric(page, 'Response Rate')).toHaveText(/Response Rate\s*100%$/);
    await expect(page.getByText('No data available')).toHaveCount(0);
  });

  test('the flagged table: 3 rows, urgent first with an Urgent mark, Show More / Show Less', async ({
    page,
  }) => {
    await expect(flaggedTable(page).getByRole('columnheader')).toHaveText([
      'Student Name',
      'Status',
      'Email',
      'Case',
    ]);
    await expect(flaggedRows(page)).toHaveCount(3);
    // Each flagged row links to the case its answer opened, with the case's state.
    await expect(
      flaggedRows(page)
        .nth(0)
        .getByRole('link', { name: /^Case \d+: New$/ }),
    ).toBeVisible();
    for (let row = 0; row < 3; row += 1) {
      await expect(flaggedRows(page).nth(row)).toContainText('Needs Intervention');
    }
    await expect(flaggedRows(page).nth(0)).toContainText('Urgent');
    await expect(flaggedRows(page).nth(1)).toContainText('Urgent');
    await expect(flaggedRows(page).nth(2)).not.toContainText('Urgent');
    await expect(
      flaggedRows(page)
        .nth(0)
        .getByRole('link', { name: /^urgent-/ }),
    ).toHaveAttribute('href', /^mailto:urgent-/);
    await expect(
      flaggedRows(page)
        .nth(0)
        .getByRole('link', { name: /^History of / }),
    ).toHaveAttribute('href', /^\/students\/\d+\/history\/$/);
    await expect(flaggedTable(page)).not.toContainText('Stable');

    const more = page.getByRole('button', { name: 'Show More Students' });
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await more.click();
    await expect(flaggedRows(page)).toHaveCount(4);
    const less = page.getByRole('button', { name: 'Show Less Students' });
    await expect(less).toHaveAttribute('aria-expanded', 'true');
    await less.click();
    await expect(flaggedRows(page)).toHaveCount(3);
    await expect(page.getByRole('button', { name: 'Show More Students' })).toBeVisible();
  });

  test('the six charts: types, series names, 40 px bars, and a text alternative each', async ({ page }) => {
    const charts = page.getByRole('figure');
    await expect(charts).toHaveCount(6);
    const expected = [
      ['Monthly Survey Responses', 'Bar', ['Month', 'Students Surveyed']],
      ['At-Risk vs Stable Students', 'Doughnut', ['Group', 'Students']],
      ['Sleep Quality Distribution', 'Bar', ['Group', 'Good Sleep', 'Poor Sleep']],
      ['Campus Support Perception', 'Line', ['Month', 'Feel Supported']],
      ['Stress Levels Analysis', 'Bar', ['Group', 'Low', 'Moderate', 'High']],
      ['Response Rate Trend', 'Line', ['Month', 'Response Rate %']],
    ] as const;
    for (const [title, kind, columns] of expected) {
      const chart = figure(page, title);
      await expect(chart.locator('canvas')).toHaveAttribute('role', 'img');
      await expect(chart.locator('canvas')).toHaveAttribute(
        'aria-label',
        new RegExp(`^${kind} chart: ${title}\\.`),
      );
      const table = chart.getByRole('table', { name: title });
      await expect(table.getByRole('columnheader')).toHaveText([...columns]);
    }

    // The text alternatives carry the numbers: 12 months, this month last.
    const monthly = figure(page, 'Monthly Survey Responses').getByRole('table');
    await expect(monthly.locator('tbody tr')).toHaveCount(12);
    await expect(monthly.locator('tbody tr').last().locator('td')).toHaveText('5');
    await expect(figure(page, 'At-Risk vs Stable Students').locator('tbody td')).toHaveText(['4', '1']);
    await expect(figure(page, 'Sleep Quality Distribution').locator('tbody td')).toHaveText(['1', '4']);
    await expect(figure(page, 'Response Rate Trend').locator('tbody tr').last().locator('td')).toHaveText(
      '100%',
    );

    // Spec section 9: bars are drawn 40 px thick.
    await expect
      .poll(() => widestRun(figure(page, 'Monthly Survey Responses'), PRIMARY))
      .toBeGreaterThanOrEqual(39);
    expect(await widestRun(figure(page, 'Monthly Survey Responses'), PRIMARY)).toBeLessThanOrEqual(41);
    await expect
      .poll(() => widestRun(figure(page, 'Sleep Quality Distribution'), ORANGE))
      .toBeGreaterThanOrEqual(39);
    expect(await widestRun(figure(page, 'Sleep Quality Distribution'), ORANGE)).toBeLessThanOrEqual(41);
  });

  test('months without responses are gaps in the trend lines, not 0%, and stay on the axis', async ({
    page,
  }) => {
    // No entry animation: what is drawn first is what stays.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.reload();
    // Nothing is drawn over the oldest months: no line along 0%, no points. (The legend, centred
    // below the plot, is in the series colour too, so only the left part of the canvas counts.)
    await expect(figure(page, 'Response Rate Trend').locator('canvas')).toBeVisible();
    for (const [title, colour] of [
      ['Response Rate Trend', PRIMARY],
      ['Campus Support Perception', BLUE],
    ] as const) {
      await expect.poll(() => colouredPixelsOnTheLeft(figure(page, title), colour, 1)).toBeGreaterThan(0);
      expect(await colouredPixelsOnTheLeft(figure(page, title), colour, 0.3), title).toBe(0);
    }
    for (const [title, column, value] of [
      ['Response Rate Trend', 'Response Rate %', '100%'],
      ['Campus Support Perception', 'Feel Supported', '20%'],
    ] as const) {
      const rows = figure(page, title).getByRole('table').locator('tbody tr');
      await expect(rows, `${title}: all 12 months listed`).toHaveCount(12);
      // Only this month has responses; the eleven before it have none.
      for (let month = 0; month < 11; month += 1) {
        await expect(rows.nth(month).locator('td'), `${title} (${column}), month ${month + 1}`).toHaveText(
          'No responses',
        );
      }
      await expect(rows.last().locator('td')).toHaveText(value);
    }
  });

  test('at 375 px the monthly chart shows every month and its axis without sideways scrolling', async ({
    page,
  }) => {
    await page.setViewportSize({ width: SCREEN_WIDTHS.mobile, height: 800 });
    await page.reload();
    const chart = figure(page, 'Monthly Survey Responses');
    await expect(chart.locator('canvas')).toBeVisible();
    // Nothing inside the chart's card is wider than what it shows.
    const overflowing = await chart.evaluate((card) =>
      [card, ...Array.from(card.querySelectorAll<HTMLElement>('*'))]
        .filter((element) => !element.closest('.visually-hidden'))
        .filter((element) => element.scrollWidth > element.clientWidth + 1)
        .map((element) => element.tagName),
    );
    expect(overflowing).toEqual([]);
    await expect(chart.getByRole('region')).toHaveCount(0);
    const card = await chart.boundingBox();
    const canvas = await chart.locator('canvas').boundingBox();
    expect(canvas && card).toBeTruthy();
    if (!canvas || !card) return;
    expect(canvas.x).toBeGreaterThanOrEqual(card.x);
    expect(canvas.x + canvas.width).toBeLessThanOrEqual(card.x + card.width);
    expect(canvas.x + canvas.width).toBeLessThanOrEqual(SCREEN_WIDTHS.mobile);
    // The bars lie sideways: one 40 px bar per month, stacked downwards.
    await expect(chart.locator('canvas')).toHaveAttribute(
      'aria-label',
      /^Bar chart: Monthly Survey Responses\./,
    );
    await expect
      .poll(async () => (await chart.locator('canvas').boundingBox())?.height ?? 0)
      .toBeGreaterThan(12 * 40);
    await expectNoHorizontalOverflow(page);
  });

  test('Export CSV downloads every submission', async ({ page }) => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    const csv = (await readFile(path, 'utf8')).trim();
    const lines = csv.split(/\r?\n/);
    expect(lines).toHaveLength(6);
    expect(lines.filter((line) => line.includes(`@${institution.domain}`))).toHaveLength(5);
  });

  test('axe: no serious violations with the table expanded; screenshots at 1280 and 375 px', async ({
    page,
  }) => {
    // Charts drawn without their entry animation (the dashboard honours reduced motion), so
    // the picture shows them finished.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const width of Object.values(SCREEN_WIDTHS)) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await expect(figure(page, 'Response Rate Trend')).toBeVisible();
      await page.getByRole('button', { name: 'Show More Students' }).click();
      await expectNoA11yViolations(page, `dashboard at ${width} px`);
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, 'dashboard');
    }
  });
});

test.describe('dashboard: charts follow the question categories', () => {
  test('sleep, support and stress charts appear only when such questions exist', async ({ page }) => {
    const institution = await createInstitutionWithAdmin();
    await signIn(page, institution.admin);
    const api = apiOf(page);
    const [original] = await api.templates();
    if (!original) throw new Error('A new institution starts with a template');
    const general = await api.createTemplate();
    await api.addQuestion(general.id, {
      question_text: 'How is your week going?',
      question_type: 'likert',
      question_category: 'general',
      order: 1,
    });
    await api.useTemplate(general.id);
    await api.deleteTemplate(original.id);
    await respond(page, institution, STABLE, 'Stable');

    await page.goto(PATH);
    await expect(figure(page, 'Monthly Survey Responses')).toBeVisible();
    await expect(figure(page, 'At-Risk vs Stable Students')).toBeVisible();
    await expect(figure(page, 'Response Rate Trend')).toBeVisible();
    await expect(figure(page, 'Sleep Quality Distribution')).toHaveCount(0);
    await expect(figure(page, 'Campus Support Perception')).toHaveCount(0);
    await expect(figure(page, 'Stress Levels Analysis')).toHaveCount(0);

    await api.addQuestion(general.id, {
      question_text: 'How well do you sleep?',
      question_type: 'likert',
      question_category: 'sleep',
      order: 2,
    });
    await page.reload();
    await expect(figure(page, 'Sleep Quality Distribution')).toBeVisible();
    await expect(figure(page, 'Campus Support Perception')).toHaveCount(0);
    await expect(figure(page, 'Stress Levels Analysis')).toHaveCount(0);

    for (const [category, title] of [
      ['support', 'Campus Support Perception'],
      ['stress', 'Stress Levels Analysis'],
    ] as const) {
      await api.addQuestion(general.id, {
        question_text: `A ${category} question`,
        question_type: 'likert',
        question_category: category,
        order: 3,
      });
      await page.reload();
      await expect(figure(page, title)).toBeVisible();
    }
    await expect(page.getByRole('figure')).toHaveCount(6);
  });
});

test.describe('dashboard: Copy Survey Link', () => {
  test("copies the active template's link, else the first; says so", async ({ page, context }) => {
    await allowClipboard(context);
    const institution = await createInstitutionWithAdmin();
    await openDashboard(page, institution);
    const api = apiOf(page);
    const copy = page.getByRole('button', { name: 'Copy Survey Link' });
    const [original] = await api.templates();
    if (!original) throw new Error('A new institution starts with a template');

    await copy.click();
    await expect(banner(page)).toHaveText('Survey template link copied to clipboard!');
    expect(await readClipboard(page)).toBe(`${baseUrl()}/survey/link/${original.hash_link}`);

    // Another admin activates a second template meanwhile: the copy follows without a reload.
    const second = await api.createTemplate();
    await api.useTemplate(second.id);
    await copy.click();
    await expect.poll(() => readClipboard(page)).toBe(`${baseUrl()}/survey/link/${second.hash_link}`);

    // No active template (the active one was deleted): the first template's link.
    await api.deleteTemplate(second.id);
    const third = await api.createTemplate();
    expect((await api.templates()).some((template) => template.used)).toBe(false);
    await copy.click();
    await expect.poll(() => readClipboard(page)).toBe(`${baseUrl()}/survey/link/${original.hash_link}`);
    expect(third.id).toBeGreaterThan(original.id);
  });

  test('no template left: "No active survey template found.", then the button is disabled', async ({
    page,
    context,
  }) => {
    await allowClipboard(context);
    const institution = await createInstitutionWithAdmin();
    await openDashboard(page, institution);
    const api = apiOf(page);
    const copy = page.getByRole('button', { name: 'Copy Survey Link' });
    await expect(copy).toBeEnabled();
    // Deleted in another tab while this dashboard stays open.
    for (const template of await api.templates()) await api.deleteTemplate(template.id);
    await copy.click();
    await expect(banner(page)).toHaveText('No active survey template found.');
    await expect(copy).toBeDisabled();
  });

  test('a refused clipboard: "Failed to copy link to clipboard"', async ({ page }) => {
    await refuseClipboard(page);
    const institution = await createInstitutionWithAdmin();
    await openDashboard(page, institution);
    await page.getByRole('button', { name: 'Copy Survey Link' }).click();
    await expect(banner(page)).toHaveText('Failed to copy link to clipboard');
  });
});

/** A student of `institution` answers the active survey through the survey screen, in their own browser. */
async function submitAsStudent(browser: Browser, institution: TestInstitution) {
  const context = await browser.newContext({ baseURL: baseUrl() });
  try {
    const page = await context.newPage();
    const student = await createStudent(institution);
    await signIn(page, student);
    await page.goto('/survey/');
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Submit Survey' }) });
    await expect(form.getByRole('radiogroup').or(form.getByRole('group')).first()).toBeVisible();
    const groups = form.locator('fieldset');
    for (let index = 0; index < (await groups.count()); index += 1) {
      await groups.nth(index).getByRole('radio').last().check();
    }
    const texts = form.getByRole('textbox', { name: /Question/ });
    for (let index = 0; index < (await texts.count()); index += 1) {
      await texts.nth(index).fill('A calm week, thank you.');
    }
    await form.getByRole('button', { name: 'Submit Survey' }).click();
    await expect(page.getByRole('button', { name: 'Submitted' })).toBeVisible();
  } finally {
    await context.close();
  }
}

test.describe('dashboard: live', () => {
  test('a submission made elsewhere refreshes numbers, table and charts without a reload', async ({
    page,
    browser,
  }) => {
    const institution = await createInstitutionWithAdmin();
    await signIn(page, institution.admin);
    await respond(page, institution, URGENT, 'Urgent');
    await page.goto(PATH);
    await expect(metric(page, 'Surveys Completed')).toHaveText(/Surveys Completed\s*1$/);
    await expect(page.getByText('Live', { exact: true })).toBeVisible();
    await page.evaluate(() => {
      (window as unknown as { stillTheSamePage: boolean }).stillTheSamePage = true;
    });

    await submitAsStudent(browser, institution);

    await expect(metric(page, 'Surveys Completed')).toHaveText(/Surveys Completed\s*2$/);
    await expect(
      figure(page, 'Monthly Survey Responses').locator('tbody tr').last().locator('td'),
    ).toHaveText('2');
    await expect(figure(page, 'At-Risk vs Stable Students').locator('tbody td')).toHaveText(['1', '1']);
    await expect(
      page.getByRole('status').filter({ hasText: 'Dashboard updated with new responses' }),
    ).toHaveCount(1);

    // A second elevated respondent lands in the flagged table.
    const elevated = await respond(page, institution, ELEVATED, 'Elevated');
    await expect(metric(page, 'Students At Risk')).toHaveText(/Students At Risk\s*2$/);
    await expect(flaggedTable(page)).toContainText(elevated.email);
    expect(
      await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage),
    ).toBe(true);
  });
});

test.describe('dashboard: live updates unreachable', () => {
  // Each waits out a few real reconnection delays.
  test.slow();
  test('says it is offline with the last update time, keeps retrying, and goes live once reachable', async ({
    page,
  }) => {
    const institution = await createInstitutionWithAdmin();
    await signIn(page, institution.admin);
    let attempts = 0;
    await page.route('**/api/dashboard/events/', (route) => {
      attempts += 1;
      return route.abort('connectionrefused');
    });
    await page.goto(PATH);
    await expect(metric(page, 'Surveys Completed')).toHaveText(/Surveys Completed\s*0$/);

    const status = page.locator('p[data-state]');
    await expect(status).toContainText('Offline');
    await expect(status).toContainText(/Last updated \d{1,2}:\d{2}/);
    await expect(page.getByText('Connecting to live updates...')).toHaveCount(0);
    // It keeps trying (one, two, four seconds apart at first)...
    await expect.poll(() => attempts).toBeGreaterThanOrEqual(3);
    await expect(status).toContainText('Offline');

    // ...and goes live by itself once the server can be reached again.
    await page.unroute('**/api/dashboard/events/');
    await expect(page.getByText('Live', { exact: true })).toBeVisible();
    // On the institution's clock, naming it, as every time staff read.
    await expect(status).toContainText(/· Updated \d{2}:\d{2} \([A-Za-z_/]+\)/);
  });

  test('a stream that ends, then refusals (503): offline and retrying, then live again', async ({ page }) => {
    const institution = await createInstitutionWithAdmin();
    await signIn(page, institution.admin);
    let attempts = 0;
    await page.route('**/api/dashboard/events/', (route) => {
      attempts += 1;
      // The first connection opens and then ends at once; the following ones are refused.
      if (attempts === 1) {
        return route.fulfill({ status: 200, contentType: 'text/event-stream', body: ': hello\n\n' });
      }
      return route.fulfill({ status: 503, contentType: 'application/json', body: '{}' });
    });
    await page.goto(PATH);
    const status = page.locator('p[data-state]');
    await expect(status).toContainText('Offline');
    await expect.poll(() => attempts).toBeGreaterThanOrEqual(3);
    await expect(status).toContainText(/Last updated \d{1,2}:\d{2}/);

    await page.unroute('**/api/dashboard/events/');
    await expect(page.getByText('Live', { exact: true })).toBeVisible();
  });
});
