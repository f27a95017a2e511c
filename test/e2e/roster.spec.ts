import {
  createInstitutionWithAdmin,
  expect,
  expectLoginRequired,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  expectStudentRefused,
  openAs,
  SCREEN_WIDTHS,
  saveScreenshot,
  test,
} from './support';

const PATH = '/admin/roster/';

test.describe('roster: access', () => {
  test('anonymous visitors are sent to the login page', async ({ page }) => {
    await expectLoginRequired(page, PATH);
  });

  test('students read "Admin access required"', async ({ page }) => {
    await expectStudentRefused(page, PATH);
  });
});

test('an admin imports the registrar file, sees the bad lines, and finds students', async ({ page }) => {
  const institution = await createInstitutionWithAdmin();
  const { domain } = institution;
  await openAs(page, institution.admin, PATH, 'Roster');
  await expect(page.getByText('No roster yet.')).toBeVisible();

  const lines = ['\ufeffname,email,group'];
  for (let index = 1; index <= 60; index += 1)
    lines.push(
      `"Student ${String(index).padStart(2, '0')}, Test",s${index}@${domain},${index % 2 ? 'Biology' : 'History'}`,
    );
  lines.push(`Outsider,someone@elsewhere.edu,Biology`, `,nameless@${domain},Biology`);
  await page.getByLabel('Roster file (CSV)').setInputFiles({
    name: 'registrar.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(lines.join('\r\n')),
  });
  await page.getByRole('button', { name: 'Import roster' }).click();
  await expect(
    page.getByText('Imported: 60 students added, 0 students updated. 2 lines were not imported.'),
  ).toBeVisible();
  const refused = page.getByRole('table', { name: 'Lines not imported' });
  await expect(refused.getByRole('row')).toHaveCount(3);
  await expect(refused).toContainText('62');
  await expect(refused).toContainText('The name is missing');

  await expect(page.getByText('Showing 1–50 of 60')).toBeVisible();
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText('Showing 51–60 of 60')).toBeVisible();

  await page.getByLabel('Search by name or email').fill('student 07');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('Showing 1–1 of 1')).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'Student 07, Test' })).toBeVisible();

  await page.getByLabel('Search by name or email').fill('');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByLabel('Group').selectOption('History');
  await expect(page.getByText('Showing 1–30 of 30')).toBeVisible();

  await expectNoA11yViolations(page);
  for (const width of Object.values(SCREEN_WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, 'roster');
  }
});

test('a file that is not a roster is refused with the reason', async ({ page }) => {
  const institution = await createInstitutionWithAdmin();
  await openAs(page, institution.admin, PATH, 'Roster');
  await page.getByLabel('Roster file (CSV)').setInputFiles({
    name: 'wrong.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('first,second\nA,B\n'),
  });
  await page.getByRole('button', { name: 'Import roster' }).click();
  await expect(page.getByRole('alert')).toContainText('The first line must name the columns');
});
