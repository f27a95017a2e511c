import { answerSharedLink, URGENT } from './admin-support';
import {
  type Account,
  completeSecondFactorOnScreen,
  createInstitutionWithAdmin,
  expect,
  expectNoStudentIdentity,
  invitationPath,
  inviteStaff,
  joinFromInvitation,
  mailsTo,
  menuLinks,
  openAs,
  reviewScreen,
  signIn,
  TEST_PASSWORD,
  test,
  uniqueId,
} from './support';
import { listTemplates } from './survey-helpers';

/**
 * The team and the audit log (design section 9), through the real server and its SMTP listener:
 * an admin invites a counsellor by mail, the counsellor joins and sees what a counsellor may
 * open, the admin reads it all in Activity, and a viewer sees numbers without a name.
 */

test.describe('team and activity', () => {
  test('an admin invites a counsellor by mail; the counsellor joins, sees names, and the admin sees it all in Activity', async ({
    page,
    browser,
  }) => {
    // Two staff sign-ins with their second factors, a mailed invitation and the Activity log: a
    // whole working day's journey, which outgrew the default budget on a busy machine.
    test.slow();
    const institution = await createInstitutionWithAdmin();
    const [template] = await listTemplates(institution.admin);
    if (!template) throw new Error('the new institution has no template');
    const student = {
      name: `Ursula Urgent ${uniqueId()}`,
      email: `ursula-${uniqueId()}@${institution.domain}`,
    };
    await answerSharedLink(template.hash_link, student, URGENT);

    await openAs(page, institution.admin, '/admin/team/', 'Team');
    await reviewScreen(page, 'team');
    const counsellor: Account = {
      name: `Cora Counsel ${uniqueId()}`,
      email: `cora-${uniqueId()}@${institution.domain}`,
      password: TEST_PASSWORD,
    };
    await page.getByLabel('Name').fill(counsellor.name);
    await page.getByLabel('Email').fill(counsellor.email);
    await page.getByLabel('Role', { exact: true }).selectOption('counsellor');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`Invitation sent to ${counsellor.email}`)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Invitations waiting (1)' })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: counsellor.email })).toContainText(
      'Counsellor',
    );
    await reviewScreen(page, 'team-invited');

    // The counsellor, in a browser of their own, follows the mailed link.
    const path = await invitationPath(counsellor.email);
    const mail = mailsTo(counsellor.email).at(-1);
    expect(mail?.text).not.toMatch(/risk|urgent/i);
    const counsellorContext = await browser.newContext();
    const counsellorPage = await counsellorContext.newPage();
    await counsellorPage.goto(path);
    await expect(counsellorPage.getByRole('heading', { level: 1, name: 'Join your team' })).toBeVisible();
    await expect(counsellorPage.getByText(`${institution.name} invited you as a counsellor`)).toBeVisible();
    await reviewScreen(counsellorPage, 'invitation');
    await counsellorPage.getByLabel('Password', { exact: true }).fill(counsellor.password);
    await counsellorPage.getByLabel('Confirm Password').fill(counsellor.password);
    await counsellorPage.getByRole('button', { name: 'Set password and sign in' }).click();
    // Staff confirm their sign-in with a second factor, the first time by setting one up.
    await completeSecondFactorOnScreen(counsellorPage, counsellor);
    await expect(counsellorPage).toHaveURL('/dashboard/');
    await expect(
      counsellorPage.getByRole('heading', { level: 1, name: 'Student Wellness Dashboard' }),
    ).toBeVisible();
    await expect(counsellorPage.getByText(student.name)).toBeVisible();
    await expect(counsellorPage.getByRole('link', { name: 'Export CSV' })).toBeVisible();
    await expect(counsellorPage.getByRole('link', { name: 'Edit Templates' })).toHaveCount(0);
    await expect(counsellorPage.getByRole('button', { name: 'Copy Survey Link' })).toHaveCount(0);
    expect(await menuLinks(counsellorPage)).toEqual(['Dashboard', 'Cases', 'Account']);
    await counsellorPage.goto('/admin/team/');
    await expect(counsellorPage.getByRole('alert')).toContainText('Admin access required');
    await counsellorPage.goto('/admin/activity/');
    await expect(counsellorPage.getByRole('alert')).toContainText('Admin access required');
    await counsellorContext.close();

    // The admin sees who joined and who read the names.
    await page.goto('/admin/team/');
    await expect(page.getByRole('heading', { name: 'Invitations waiting (0)' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: `Role of ${counsellor.name}` })).toHaveValue(
      'counsellor',
    );
    // A role change asks first, naming the person, the role and what it may see; cancelled, nothing changes.
    await page.getByRole('combobox', { name: `Role of ${counsellor.name}` }).selectOption('viewer');
    const ask = page.getByRole('alertdialog', { name: 'Change role' });
    await expect(ask).toContainText(`Make ${counsellor.name} a Viewer?`);
    await expect(ask).toContainText('Viewers see numbers only');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('combobox', { name: `Role of ${counsellor.name}` })).toHaveValue(
      'counsellor',
    );
    await page.goto('/admin/activity/');
    await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
    const table = page.getByRole('table');
    // Each action in words, with its code beside it (what the Action filter takes).
    for (const [label, action] of [
      ['Invited a staff member', 'staff.invite'],
      ['Joined the team', 'staff.join'],
      ['Read the dashboard', 'dashboard.read'],
    ])
      await expect(
        table.getByRole('cell', { name: `${label} ${action}`, exact: true }).first(),
      ).toBeVisible();
    await page.getByLabel('Person (email)').fill(counsellor.email);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(
      table.getByRole('cell', { name: 'Invited a staff member staff.invite', exact: true }),
    ).toHaveCount(0);
    await expect(table.getByRole('cell', { name: 'Joined the team staff.join', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      `/api/audit/export.csv?actor=${encodeURIComponent(counsellor.email)}`,
    );
    await reviewScreen(page, 'activity');
  });

  test('a viewer sees the numbers and never a name or an email', async ({ page }) => {
    const institution = await createInstitutionWithAdmin();
    const [template] = await listTemplates(institution.admin);
    if (!template) throw new Error('the new institution has no template');
    const student = {
      name: `Hidden Student ${uniqueId()}`,
      email: `hidden-${uniqueId()}@${institution.domain}`,
    };
    await answerSharedLink(template.hash_link, student, URGENT);

    // The admin invites the viewer through the API; the viewer joins from the mailed link.
    await signIn(page, institution.admin);
    const viewer = await inviteStaff(page, 'viewer', institution.domain);
    await page.context().clearCookies();
    await joinFromInvitation(page, viewer);

    await expect(page.getByRole('heading', { name: 'Students Requiring Immediate Support' })).toBeVisible();
    // One student is a smaller group than the institution's five: the viewer is told no number.
    await expect(page.getByText('Fewer than 5 students need support')).toBeVisible();
    await expectNoStudentIdentity(page, student);
    await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveCount(0);
    expect(await menuLinks(page)).toEqual(['Dashboard', 'Account']);
    const flagged = await page.context().request.get('/api/dashboard/flagged/');
    expect(flagged.status()).toBe(403);
    await reviewScreen(page, 'dashboard-viewer');
  });
});
