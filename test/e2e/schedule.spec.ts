import {
  createAdmin,
  expect,
  expectLoginRequired,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  expectStudentRefused,
  openAs,
  type Page,
  SCREEN_WIDTHS,
  saveScreenshot,
  test,
} from './support';

const PATH = '/schedule-survey/';
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

async function openSchedule(page: Page) {
  await openAs(page, await createAdmin(), PATH, 'Schedule Survey');
}

/** Counts the API calls the page makes from now on. */
function countApiCalls(page: Page) {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/'))
      calls.push(`${request.method()} ${request.url()}`);
  });
  return calls;
}

const successDialog = (page: Page) => page.getByRole('dialog', { name: 'Survey scheduled' });

test.describe('schedule survey: access', () => {
  test('anonymous visitors are sent to the login page', async ({ page }) => {
    await expectLoginRequired(page, PATH);
  });

  test('students read "Admin access required"', async ({ page }) => {
    await expectStudentRefused(page, PATH);
    await expect(page.getByLabel('Day')).toHaveCount(0);
  });
});

test.describe('schedule survey (demo)', () => {
  test('the form: days, hour 1-12, minute 0-59 cut to 2 characters, AM/PM, recurring', async ({ page }) => {
    await openSchedule(page);
    await expect(page.getByLabel('Day').locator('option')).toHaveText(['Select a day', ...DAYS]);
    await expect(page.getByLabel('AM/PM').locator('option')).toHaveText(['AM', 'PM']);

    const hour = page.getByLabel('Hour');
    const minute = page.getByLabel('Minute');
    await expect(hour).toHaveAttribute('min', '1');
    await expect(hour).toHaveAttribute('max', '12');
    await expect(minute).toHaveAttribute('min', '0');
    await expect(minute).toHaveAttribute('max', '59');
    await hour.fill('123');
    await expect(hour).toHaveValue('12');
    await minute.fill('4567');
    await expect(minute).toHaveValue('45');

    const recurring = page.getByRole('checkbox', { name: 'Make this a recurring survey' });
    await expect(recurring).not.toBeChecked();
    await recurring.check();
    await expect(recurring).toBeChecked();
  });

  test('Connect to Gmail / Outlook load their fixed groups into the email group select', async ({ page }) => {
    await openSchedule(page);
    const calls = countApiCalls(page);
    const group = page.getByLabel('Email Group');
    await expect(group).toBeDisabled();

    await page.getByRole('button', { name: 'Connect to Gmail' }).click();
    await expect(page.getByRole('button', { name: 'Connect to Gmail' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(group).toBeEnabled();
    await expect(group.locator('option')).toHaveText([
      'Select a group',
      'Students',
      'Faculty',
      'Staff',
      'All Users',
    ]);
    await group.selectOption('Faculty');

    await page.getByRole('button', { name: 'Connect to Outlook' }).click();
    await expect(group.locator('option')).toHaveText([
      'Select a group',
      'Department 1',
      'Department 2',
      'Administrators',
    ]);
    await expect(group).toHaveValue('');
    expect(calls).toEqual([]);
  });

  test('day, hour and minute are required and in range; a valid submit only shows a success message', async ({
    page,
  }) => {
    await openSchedule(page);
    const calls = countApiCalls(page);
    const submit = page.getByRole('button', { name: 'Schedule Survey (Demo Only)' });

    await submit.click();
    await expect(successDialog(page)).toHaveCount(0);
    expect(
      await page.getByLabel('Day').evaluate((select: HTMLSelectElement) => select.validity.valueMissing),
    ).toBe(true);

    await page.getByLabel('Day').selectOption('Wednesday');
    await page.getByLabel('Hour').fill('13');
    await page.getByLabel('Minute').fill('5');
    await submit.click();
    await expect(successDialog(page)).toHaveCount(0);
    await page.getByLabel('Hour').fill('0');
    await submit.click();
    await expect(successDialog(page)).toHaveCount(0);
    await page.getByLabel('Hour').fill('9');
    await page.getByLabel('Minute').fill('60');
    await submit.click();
    await expect(successDialog(page)).toHaveCount(0);

    await page.getByLabel('Minute').fill('5');
    await page.getByLabel('AM/PM').selectOption('PM');
    await page.getByRole('checkbox', { name: 'Make this a recurring survey' }).check();
    await page.getByRole('button', { name: 'Connect to Gmail' }).click();
    await page.getByLabel('Email Group').selectOption('Students');
    await submit.click();
    await expect(successDialog(page)).toContainText(
      'Survey scheduled successfully every Wednesday at 9:05 PM',
    );
    await expect(successDialog(page)).toContainText('Students (Gmail)');
    await successDialog(page).getByRole('button', { name: 'Close' }).click();
    await expect(successDialog(page)).toHaveCount(0);
    expect(calls).toEqual([]);
  });

  test('the sidebar links to Analytics and back to the homepage', async ({ page }) => {
    await openSchedule(page);
    const sidebar = page.getByRole('navigation', { name: 'Schedule' });
    await expect(sidebar.getByRole('link', { name: 'Analytics' })).toHaveAttribute('href', '/dashboard/');
    await expect(sidebar.getByRole('link', { name: 'Back to Homepage' })).toHaveAttribute('href', '/');
    await sidebar.getByRole('link', { name: 'Analytics' }).click();
    await expect(page).toHaveURL('/dashboard/');
    await expect(page.getByRole('heading', { level: 1, name: 'Student Wellness Dashboard' })).toBeVisible();
  });

  for (const [device, width] of Object.entries(SCREEN_WIDTHS)) {
    test(`no serious axe violations; screenshot at ${width} px (${device})`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await openSchedule(page);
      await page.getByRole('button', { name: 'Connect to Outlook' }).click();
      await expectNoA11yViolations(page, 'schedule form');
      await expectNoHorizontalOverflow(page);
      await saveScreenshot(page, 'schedule');

      await page.getByLabel('Day').selectOption('Monday');
      await page.getByLabel('Hour').fill('10');
      await page.getByLabel('Minute').fill('30');
      await page.getByRole('button', { name: 'Schedule Survey (Demo Only)' }).click();
      await expect(successDialog(page)).toBeVisible();
      await expectNoA11yViolations(page, 'schedule success message');
      await saveScreenshot(page, 'schedule-success');
    });
  }
});
