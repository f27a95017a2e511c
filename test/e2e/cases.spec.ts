import { answerSharedLink, apiOf, createCounsellor, openUrgentCaseAsAdmin, URGENT } from './admin-support';
import {
  completeSecondFactorOnScreen,
  createInstitutionWithAdmin,
  expect,
  expectNoStudentIdentity,
  inviteStaff,
  joinFromInvitation,
  mailsTo,
  menuLinks,
  type Page,
  reviewScreen,
  SCREEN_WIDTHS,
  signIn,
  test,
  uniqueId,
} from './support';

/**
 * The follow-up loop (design section 9) with real mail: a student answers urgently on a shared
 * link, the alert reaches the counsellor's inbox at the run's SMTP listener, and the counsellor
 * follows its link, acknowledges, writes a note and resolves the case. The admin then finds each
 * step (and each read of the case) in Activity, and a viewer sees the figures without a name.
 */

/** Activity, filtered to one person: the entries on the case must include each of `actions`. */
async function expectCaseActivity(page: Page, actor: string, caseId: string, actions: string[]) {
  await page.goto('/admin/activity/');
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  await page.getByLabel('Person (email)').fill(actor);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
    'href',
    `/api/audit/export.csv?actor=${encodeURIComponent(actor)}`,
  );
  const entriesOnCase = page
    .getByRole('row')
    // "case 7", or with the student's name where the reader may see it: "Nora Lee (case 7)".
    .filter({ has: page.getByRole('cell', { name: new RegExp(`(^|\\()case ${caseId}(\\)|$| ·)`) }) });
  // The action cell says it in words, then its code: "Read a case case.read".
  const actionCell = (code: string) =>
    page.getByRole('cell', { name: new RegExp(` ${code.replaceAll('.', '\\.')}$`) });
  for (const action of actions)
    await expect(entriesOnCase.filter({ has: actionCell(action) }).first()).toBeVisible();
  // Only the counsellor's own entries: the admin's settings change is not among them.
  await expect(actionCell('settings.update')).toHaveCount(0);
  // The person's name, then their address.
  await expect(
    page.getByRole('cell', { name: new RegExp(` ${actor.replaceAll('.', '\\.')}$`) }).first(),
  ).toBeVisible();
}

/**
 * The viewer's dashboard once the case is resolved: one case, one student and one unproven
 * answer are each a group smaller than the institution's five, so every case figure and count
 * reads "Fewer than 5" (design section 14), never a name; the case figures lead nowhere for a viewer.
 */
async function expectLoopFigures(page: Page) {
  const figure = (label: string) => page.getByRole('listitem').filter({ hasText: label });
  await expect(figure('Open Cases')).toHaveText(/^Open Cases\s*Fewer than 5$/);
  await expect(figure('Overdue Cases')).toHaveText(/^Overdue Cases\s*Fewer than 5$/);
  await expect(figure('Submission to Alert Sent')).toHaveText(/Fewer than 5\s*cases$/);
  await expect(figure('Submission to Acknowledged')).toHaveText(/Fewer than 5\s*cases$/);
  await expect(page.getByRole('link', { name: 'Open Cases' })).toHaveCount(0);
  await expect(
    page.getByText(
      'Fewer than 5 students need support; Fewer than 5 unverified answers wait for a counsellor to judge.',
    ),
  ).toBeVisible();
}

test('an urgent answer reaches a counsellor by mail, who resolves its case; the admin sees it in Activity, a viewer sees numbers only', async ({
  page,
  browser,
}) => {
  // The whole loop, through three people's browsers, each signing in with a second factor.
  test.slow();
  const institution = await createInstitutionWithAdmin();
  const counsellor = await createCounsellor(institution);

  // The admin names the counsellor as the alert contact on the settings screen.
  await signIn(page, institution.admin);
  await page.goto('/admin/settings/');
  await expect(page.getByRole('heading', { level: 1, name: 'Institution settings' })).toBeVisible();
  await page.getByLabel('Alert addresses').fill(counsellor.email);
  await page.getByLabel('Time zone').selectOption('Europe/London');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  await reviewScreen(page, 'institution-settings', 'Institution settings');

  const [template] = (await apiOf(page).templates()).filter((candidate) => candidate.used);
  if (!template) throw new Error('The institution has an active template');
  const student = { name: `Robin ${uniqueId()}`, email: `robin-${uniqueId()}@${institution.domain}` };
  await answerSharedLink(
    template.hash_link,
    student,
    { ...URGENT, text: 'I cannot go on.' },
    { prove: false },
  );

  // The alert arrives over SMTP, with a link and nothing of the answers.
  await expect.poll(() => mailsTo(counsellor.email).length).toBe(1);
  const [alert] = mailsTo(counsellor.email);
  const link = /\/cases\/(\d+)\//.exec(alert?.text ?? '');
  expect(link, alert?.text).not.toBeNull();
  expect(`${alert?.subject} ${alert?.text}`).not.toMatch(/risk|urgent|elevated|Robin|cannot go on/i);

  // The counsellor follows the link: sign in first, then straight to the case.
  const counsellorContext = await browser.newContext();
  const desk = await counsellorContext.newPage();
  await desk.goto(link?.[0] ?? '/cases/');
  await expect(desk).toHaveURL(/\/login\/\?next=/);
  await desk.getByLabel('Email').fill(counsellor.email);
  await desk.getByLabel('Password').fill(counsellor.password);
  await desk.getByRole('button', { name: 'Sign In' }).click();
  // Staff confirm their sign-in with a second factor; then the link's case opens.
  await completeSecondFactorOnScreen(desk, counsellor);
  // The sender did not prove the address: the student record keeps a neutral name, and the
  // name the sender gave shows apart, as claimed.
  const recordName = 'Name not confirmed';
  const caseHeading = new RegExp(`^Case ${link?.[1]}: ${recordName}$`);
  await expect(desk.getByRole('heading', { level: 1, name: caseHeading })).toBeVisible();
  await expect(
    desk.getByText(`Name given by a sender who has not confirmed the address: ${student.name}`),
  ).toBeVisible();
  await expect(desk.getByText('Unverified').first()).toBeVisible();
  await expect(desk.getByRole('listitem').filter({ hasText: `to ${counsellor.email}` })).toContainText(
    'Sent',
  );

  await desk.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(desk.getByText('Case acknowledged.')).toBeVisible();
  await desk.getByLabel('Note').fill('Called Robin; meeting at the counselling centre at 3 pm.');
  await desk.getByRole('button', { name: 'Add note' }).click();
  await expect(desk.getByText('Note added.')).toBeVisible();
  await expect(desk.getByText('Called Robin; meeting at the counselling centre at 3 pm.')).toBeVisible();
  await reviewScreen(desk, 'case', caseHeading);

  // The cases list and the student's history, as the counsellor sees them.
  await desk.goto('/cases/');
  await expect(desk.getByRole('link', { name: recordName })).toBeVisible();
  await expect(desk.getByText(`Name given (unverified): ${student.name}`)).toBeVisible();
  await expect(desk.getByText('Open: 0 verified, 1 unverified')).toBeVisible();
  await desk.getByLabel('Queue').selectOption('verified');
  await expect(desk.getByText('No cases match these filters.')).toBeVisible();
  await desk.goto('/cases/?queue=unproven');
  await expect(desk.getByLabel('Queue')).toHaveValue('unproven');
  await expect(desk.getByRole('link', { name: recordName })).toBeVisible();
  await reviewScreen(desk, 'cases', 'Cases');
  await desk.getByRole('link', { name: recordName }).click();
  await desk.getByRole('link', { name: 'Student history' }).click();
  await expect(desk.getByRole('heading', { level: 1, name: recordName })).toBeVisible();
  await reviewScreen(desk, 'student-history', recordName);

  await desk.goBack();
  await expect(desk.getByRole('heading', { level: 1, name: caseHeading })).toBeVisible();
  await desk.getByLabel('Outcome').selectOption('connected_to_counselling');
  await desk.getByRole('button', { name: 'Resolve case' }).click();
  await desk
    .getByRole('alertdialog', { name: 'Resolve this case?' })
    .getByRole('button', { name: 'Resolve case' })
    .click();
  await expect(desk.getByText('Case resolved.')).toBeVisible();
  await expect(desk.getByText('Resolved').first()).toBeVisible();
  await expect(desk.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);
  await counsellorContext.close();

  // An unproven answer is counted on no dashboard, but its case is on the admin's Cases screen too.
  await page.goto('/cases/');
  await page.getByLabel('State').selectOption('resolved');
  await expect(page.getByRole('link', { name: recordName })).toBeVisible();

  // The admin reads the counsellor's work on the case in Activity: every step, and every read.
  const caseId = link?.[1] ?? '';
  await expectCaseActivity(page, counsellor.email, caseId, [
    'case.read',
    'case.acknowledge',
    'case.note',
    'case.resolve',
  ]);

  // A viewer joins from a mailed invitation and sees the loop's numbers, never the student.
  const viewer = await inviteStaff(page, 'viewer', institution.domain);
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  await joinFromInvitation(viewerPage, viewer);
  await expectLoopFigures(viewerPage);
  await expectNoStudentIdentity(viewerPage, student);
  expect(await menuLinks(viewerPage)).toEqual(['Dashboard', 'Account']);
  expect((await viewerPage.context().request.get(`/api/cases/${caseId}/`)).status()).toBe(403);
  expect((await viewerPage.context().request.get('/api/cases/')).status()).toBe(403);
  await viewerContext.close();
});

test('a case shows what the student answered, in their words, with the screened phrase marked and the rule behind each tier', async ({
  page,
}) => {
  const institution = await createInstitutionWithAdmin();
  await signIn(page, institution.admin);
  const [template] = (await apiOf(page).templates()).filter((candidate) => candidate.used);
  if (!template) throw new Error('The institution has an active template');
  const student = { name: `Robin ${uniqueId()}`, email: `robin-${uniqueId()}@${institution.domain}` };
  await answerSharedLink(template.hash_link, student, {
    likert: '5',
    safety: '4',
    text: 'Honestly I want to die some days.',
  });

  await page.setViewportSize({ width: SCREEN_WIDTHS.desktop, height: 900 });
  await page.goto('/cases/');
  await page.getByRole('link', { name: student.name }).click();
  const checkIn = page.getByRole('article', { name: /^Check-in of / });

  // Which rule raised which tier, in the survey's own words.
  const findings = checkIn.getByRole('list', { name: 'What raised its tier' }).getByRole('listitem');
  await expect(findings).toHaveText([
    "Urgent: Answered 'Often' to the self-harm question",
    'Urgent: Crisis language in a written answer',
    'Elevated: Answered Very Poor or Very uncomfortable to 5 of 5 wellbeing questions',
    'Monitor: Answered Very Poor to the general question',
    'Monitor: Answered Very Poor to the sleep question',
    'Monitor: Answered Very Poor to the stress question',
    'Monitor: Answered Very Poor or Very uncomfortable to 2 of 2 support questions',
  ]);
  await expect(
    checkIn.getByText(
      'Category means: 1 = Excellent … 5 = Very Poor; higher is worse (self-harm questions: 1 = Never … 5 = Almost always).',
    ),
  ).toBeVisible();

  // Every question as asked, with the label the student chose, never a number.
  const answers = checkIn.locator('dl > div');
  await expect(answers.getByRole('term')).toHaveText([
    'Overall, how would you rate your wellbeing over the past two weeks?',
    'How would you rate the quality of your sleep recently?',
    'How well are you managing your stress levels?',
    'How supported do you feel by your campus community?',
    'How comfortable would you feel reaching out for support if you needed it?',
    'In the past two weeks, how often have you had thoughts of harming yourself?',
    'Is there anything else you would like to share with us?',
  ]);
  await expect(answers.getByRole('definition')).toHaveText([
    'Very Poor',
    'Very Poor',
    'Very Poor',
    'Very Poor',
    'Very uncomfortable',
    'Often',
    'Honestly I crisis language: want to die some days.',
  ]);

  // The written answer in full, its screened phrase marked and named for screen readers.
  const answer = answers.filter({ hasText: 'Is there anything else you would like to share with us?' });
  await expect(answer.locator('mark')).toHaveText('crisis language: want to die');
  await expect(answer.locator('mark .visually-hidden')).toHaveText('crisis language:');

  // Axe-clean and without sideways scrolling at 1280 and 375 px, with a screenshot of each.
  await reviewScreen(page, 'case-answers', new RegExp(`^Case \\d+: ${student.name}$`));
});

test('resolving a case asks first, and a resolved case can be reopened: new again, with a deadline, in its trail', async ({
  page,
}) => {
  test.slow();
  const { institution, student } = await openUrgentCaseAsAdmin(page);
  const heading = new RegExp(`^Case \\d+: ${student.name}$`);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();

  // Resolving asks first; Cancel leaves the case as it was, open and waiting.
  await page.getByLabel('Outcome').selectOption('unable_to_reach');
  await page.getByRole('button', { name: 'Resolve case' }).click();
  const resolveDialog = page.getByRole('alertdialog', { name: 'Resolve this case?' });
  await expect(resolveDialog).toContainText(`as "Unable to reach"`);
  await expect(resolveDialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await reviewScreen(page, 'case-resolve-confirm');
  await resolveDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(resolveDialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Acknowledge' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: /^Resolved/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Resolve case' }).click();
  await resolveDialog.getByRole('button', { name: 'Resolve case' }).click();
  await expect(page.getByText('Case resolved.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);

  // Reopening asks too, and puts the case back to New with its reason in the trail.
  await page.getByLabel('Why reopen').fill('The student wrote to the centre again.');
  await page.getByRole('button', { name: 'Reopen case' }).click();
  const reopenDialog = page.getByRole('alertdialog', { name: 'Reopen this case?' });
  await reopenDialog.getByRole('button', { name: 'Reopen case' }).click();
  await expect(page.getByText('Case reopened.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Acknowledge' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Reopen this case' })).toHaveCount(0);
  const reopened = page.getByRole('listitem').filter({ hasText: /^Reopened/ });
  await expect(reopened).toContainText('The student wrote to the centre again.');
  await expect(reopened).toContainText(institution.admin.name);
  await reviewScreen(page, 'case-reopened', heading);
});
