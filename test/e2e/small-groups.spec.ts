import { answerSharedLink, STABLE, URGENT } from './admin-support';
import {
  createInstitutionWithAdmin,
  expect,
  expectNoStudentIdentity,
  inviteStaff,
  joinFromInvitation,
  reviewScreen,
  signIn,
  test,
  uniqueId,
} from './support';
import { listTemplates } from './survey-helpers';

/**
 * Small groups (design section 14): an admin sets the institution's threshold on the settings
 * screen, and a viewer's dashboard shows a smaller group as "Fewer than N", says why in a
 * sentence, and hides the figure that would give it away.
 */
test('a viewer sees a group smaller than the threshold set in Settings as "Fewer than 3", and why', async ({
  page,
}) => {
  // Four proven link answers, each with its mailed code, and a staff member joining by mail.
  test.slow();
  const institution = await createInstitutionWithAdmin();
  const [template] = await listTemplates(institution.admin);
  if (!template) throw new Error('the new institution has no template');

  await signIn(page, institution.admin);
  await page.goto('/admin/settings/');
  const threshold = page.getByLabel('Smallest group shown to viewers (students)');
  await expect(threshold).toHaveValue('5');
  await threshold.fill('2');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(
    page.getByText('Smallest group shown to viewers (students): must be at least 3'),
  ).toBeVisible();
  await threshold.fill('3');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();

  // Three stable students and one urgent: one flagged student is fewer than three.
  const student = (label: string) => {
    const id = uniqueId();
    return { name: `${label} ${id}`, email: `${label.toLowerCase()}-${id}@${institution.domain}` };
  };
  for (let i = 0; i < 3; i++) await answerSharedLink(template.hash_link, student('Steady'), STABLE);
  const urgent = student('Urgent');
  await answerSharedLink(template.hash_link, urgent, URGENT);

  const viewer = await inviteStaff(page, 'viewer', institution.domain);
  await page.context().clearCookies();
  await joinFromInvitation(page, viewer);

  const metric = (label: string) => page.getByRole('listitem').filter({ hasText: label });
  await expect(metric('Students At Risk')).toHaveText(/^Students At Risk\s*Fewer than 3$/);
  await expect(metric('Surveys Completed')).toHaveText(/^Surveys Completed\s*4$/);
  await expect(
    page.getByText(
      'To protect students’ privacy, groups of fewer than 3 students are shown as “Fewer than 3”',
    ),
  ).toBeVisible();
  await expect(page.getByText('Fewer than 3 students need support')).toBeVisible();
  // Four answered minus three stable would give the one at risk: the stable count hides too.
  const split = page.getByRole('figure', { name: 'At-Risk vs Stable Students', exact: true });
  await expect(split.getByText('Fewer than 3: At-Risk, Stable.')).toBeVisible();
  await expectNoStudentIdentity(page, urgent);
  await reviewScreen(page, 'dashboard-viewer-small-groups');
});
