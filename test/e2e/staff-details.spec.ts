import { createCounsellor, openUrgentCaseAsAdmin } from './admin-support';
import {
  createInstitutionWithAdmin,
  expect,
  inviteStaff,
  joinFromInvitation,
  reviewScreen,
  signIn,
  test,
} from './support';

/** Small things staff meet every day: errors that say where, focus that stays, hints that fit. */

test('a refused setting is named by its label, the form stays as typed and the field takes focus', async ({
  page,
}) => {
  test.slow();
  const institution = await createInstitutionWithAdmin();
  await signIn(page, institution.admin);
  await page.goto('/admin/settings/');
  await expect(page.getByRole('heading', { level: 1, name: 'Institution settings' })).toBeVisible();
  const alerts = page.getByLabel('Alert addresses');
  await alerts.fill(`duty@${institution.domain}\nnot-an-email`);
  await page.getByRole('button', { name: 'Save settings' }).click();
  const problem = page.getByRole('alert');
  await expect(problem).toHaveText('Alert addresses (not-an-email): Enter a valid email address');
  await expect(alerts).toBeFocused();
  await expect(alerts).toHaveAttribute('aria-invalid', 'true');
  await expect(alerts).toHaveValue(`duty@${institution.domain}\nnot-an-email`);
  await reviewScreen(page, 'settings-refused', 'Institution settings');

  await alerts.fill(`duty@${institution.domain}`);
  const minutes = page.getByLabel('Urgent: acknowledge within (minutes)');
  await minutes.fill('0');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(problem).toHaveText('Urgent: acknowledge within (minutes): must be at least 1 minute');
  await expect(minutes).toBeFocused();
  await minutes.fill('30');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('after Acknowledge, Assign and Add note the keyboard stays on the case, at the next thing to do', async ({
  page,
}) => {
  test.slow();
  const { student } = await openUrgentCaseAsAdmin(page);
  await expect(
    page.getByRole('heading', { level: 1, name: new RegExp(`^Case \\d+: ${student.name}$`) }),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Acknowledge' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Case acknowledged.')).toBeVisible();
  await expect(page.getByLabel('Assign to')).toBeFocused();

  await page.getByRole('button', { name: 'Assign' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Case assigned.')).toBeVisible();
  const note = page.getByLabel('Note');
  await expect(note).toBeFocused();

  await page.keyboard.type('Called; meeting tomorrow.');
  await page.getByRole('button', { name: 'Add note' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Note added.')).toBeVisible();
  await expect(note).toBeFocused();
  await expect(note).toHaveValue('');
});

test('counsellors and viewers are not told to copy a survey link they have no button for', async ({
  page,
  browser,
}) => {
  test.slow();
  const institution = await createInstitutionWithAdmin();
  const noData = 'Charts appear once students have answered a survey.';

  await signIn(page, institution.admin);
  await page.goto('/dashboard/');
  await expect(page.getByText(`${noData} Copy the survey link to invite them.`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy Survey Link' })).toBeVisible();
  const viewer = await inviteStaff(page, 'viewer', institution.domain);

  const counsellor = await createCounsellor(institution);
  const counsellorContext = await browser.newContext();
  const desk = await counsellorContext.newPage();
  await signIn(desk, counsellor);
  await desk.goto('/dashboard/');
  await expect(
    desk.getByText(`${noData} An administrator shares the survey link with students.`),
  ).toBeVisible();
  await expect(desk.getByText(/copy the survey link/i)).toHaveCount(0);
  await expect(desk.getByRole('button', { name: 'Copy Survey Link' })).toHaveCount(0);
  await reviewScreen(desk, 'dashboard-counsellor-empty', 'Dashboard');
  await counsellorContext.close();

  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  await joinFromInvitation(viewerPage, viewer);
  // A viewer is not told how many answered, not even none (small groups are hidden), nor to copy a link.
  await expect(viewerPage.getByText(/groups of fewer than 5 students are shown as/).first()).toBeVisible();
  await expect(viewerPage.getByText(/copy the survey link/i)).toHaveCount(0);
  await viewerContext.close();
});
