import { createInstitutionWithAdmin, expect, reviewScreen, SCREEN_WIDTHS, signIn, test } from './support';

/** Design section 14: the settings section that sets retention periods and legal holds. */

test('an admin sets the retention periods, sees what the next purge deletes, and places and lifts a legal hold', async ({
  page,
}) => {
  const institution = await createInstitutionWithAdmin();
  await page.setViewportSize({ width: SCREEN_WIDTHS.desktop, height: 900 });
  await signIn(page, institution.admin);
  await page.goto('/admin/settings/');
  const section = page.getByRole('heading', { level: 2, name: 'Data retention' });
  await expect(section).toBeVisible();
  const purgeList = page.getByRole('list', { name: 'What the next purge deletes' });
  await expect(purgeList).toContainText('0 check-ins from before');
  await expect(purgeList).toContainText('0 anonymous campaign answers from before');

  await page.getByLabel('Activity log (months)').fill('6');
  await page.getByRole('button', { name: 'Save retention periods' }).click();
  await expect(page.getByText('audit_log_months must be at least 12 months')).toBeVisible();
  await page.getByLabel('Activity log (months)').fill('120');
  await page.getByRole('button', { name: 'Save retention periods' }).click();
  await expect(page.getByText('Retention periods saved.')).toBeVisible();

  await page.getByLabel('Student email').fill(`held@${institution.domain}`);
  await page.getByLabel('Reason', { exact: true }).fill('Records request from counsel');
  await page.getByRole('button', { name: 'Place legal hold' }).click();
  await expect(
    page.getByText('1 student is under a legal hold: nothing of theirs is deleted.'),
  ).toBeVisible();
  await reviewScreen(page, 'settings-retention', 'Institution settings');

  await page.getByLabel('Reason for lifting a hold').fill('Matter closed');
  await page.getByRole('button', { name: `Lift the legal hold on held@${institution.domain}` }).click();
  await expect(page.getByText('No student is under a legal hold.')).toBeVisible();
});
