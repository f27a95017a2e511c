import {
  createInstitutionWithAdmin,
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  inviteStaff,
  joinFromInvitation,
  mailsTo,
  openAs,
  reviewScreen,
  SCREEN_WIDTHS,
  saveScreenshot,
  test,
  waitForMails,
} from './support';
import { answerEverything, SUBMIT_BUTTON } from './survey-helpers';

/**
 * The roster journey with real mail: a three-student roster, "Send now" from the schedule form,
 * one student opens the personal link from their mail and answers, and the dashboard's response
 * rate counts the roster: one of three is 33%.
 */
test('a roster campaign sent now reaches each student, and one answer makes the response rate 33%', async ({
  page,
  browser,
}) => {
  // Three browsers (the admin's, a student's, a viewer's), each screen checked at two widths.
  test.slow();
  const institution = await createInstitutionWithAdmin();
  const { domain } = institution;
  const students = ['ada', 'ben', 'cy'].map((name) => `${name}@${domain}`);
  await openAs(page, institution.admin, '/admin/roster/', 'Roster');
  await page.getByLabel('Roster file (CSV)').setInputFiles({
    name: 'registrar.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `\ufeffname,email,group\r\n"Lovelace, Ada",${students[0]},Year 1\r\nBen Okafor,${students[1]},Year 1\r\nCy Park,${students[2]},Year 1\r\n`,
    ),
  });
  await page.getByRole('button', { name: 'Import roster' }).click();
  await expect(page.getByText('Imported: 3 students added, 0 students updated.')).toBeVisible();

  await page.goto('/schedule-survey/');
  await page.getByLabel('Day').selectOption('Monday');
  await page.getByLabel('Hour').fill('9');
  await page.getByLabel('Minute').fill('0');
  await page.getByRole('button', { name: 'Use the roster' }).click();
  await expect(page.getByText('Roster: 1 group loaded.')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Year 1' }).check();
  await page.getByLabel('Send now').check();
  await expectNoA11yViolations(page);
  for (const width of Object.values(SCREEN_WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, 'schedule-roster');
  }
  await page.getByRole('button', { name: 'Send Survey Now' }).click();
  await expect(page.getByRole('dialog', { name: 'Survey scheduled' })).toContainText(
    'invitations are on their way',
  );

  for (const email of students) await waitForMails(email, 1);
  for (const email of students) expect(mailsTo(email)).toHaveLength(1);
  const link = /\/survey\/invite\/[A-Za-z0-9_-]+\//.exec(mailsTo(students[1] as string)[0]?.text ?? '')?.[0];
  expect(link, 'a personal link in the mail').toBeTruthy();

  // The student opens the link in a browser of their own: no password, no code.
  const studentContext = await browser.newContext();
  const student = await studentContext.newPage();
  await student.goto(link as string);
  await expect(student.getByLabel('Full Name')).toHaveValue('Ben Okafor');
  await expect(student.getByLabel('School Email')).toHaveValue(students[1] as string);
  await expectNoA11yViolations(student);
  for (const width of Object.values(SCREEN_WIDTHS)) {
    await student.setViewportSize({ width, height: 900 });
    await expectNoHorizontalOverflow(student);
    await saveScreenshot(student, 'survey-invitation');
  }
  await answerEverything(student);
  await student.getByRole('button', { name: SUBMIT_BUTTON }).click();
  await expect(
    student.getByRole('heading', { name: 'Thank you! Your responses have been submitted.' }),
  ).toBeVisible();
  // Once per round: the link does not open the survey again.
  await student.goto(link as string);
  await expect(
    student.getByText('You have already answered this round of the survey. Thank you!'),
  ).toBeVisible();
  await studentContext.close();

  await page.goto('/dashboard/');
  const responseRate = page.getByRole('listitem').filter({ hasText: 'Response Rate' });
  await expect(responseRate).toHaveText(/Response Rate\s*33%$/);

  await page.goto('/admin/campaigns/');
  const row = page.getByRole('row', { name: /Year 1/ });
  await expect(row.getByRole('cell').nth(0)).toHaveText(/^Template #\d+$/);
  await expect(row.getByRole('cell').nth(1)).toHaveText(/^Once, sent /);
  await expect(row.getByRole('cell').nth(5)).toHaveText('3');
  await expect(row.getByRole('cell').nth(6)).toHaveText('1');
  await expectNoA11yViolations(page);
  for (const width of Object.values(SCREEN_WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, 'campaigns');
  }

  // From the campaign to who has not answered yet: the admin reads names and addresses.
  await row.getByRole('link', { name: 'Who has not answered the campaign for Year 1' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Not answered yet' })).toBeVisible();
  await expect(page.getByText(/^2 of 3 invited students have not answered this round yet\.$/)).toBeVisible();
  const waiting = page.getByRole('table', { name: 'Students who have not answered yet' });
  await expect(waiting.getByRole('rowheader')).toHaveText(['Cy Park', 'Lovelace, Ada']);
  await expect(waiting).not.toContainText('Ben Okafor');
  await reviewScreen(page, 'campaign-not-answered', 'Not answered yet');
  const notAnsweredPath = new URL(page.url()).pathname;

  // A viewer opens the same list and reads the counts only, never who.
  const viewer = await inviteStaff(page, 'viewer', domain);
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  await joinFromInvitation(viewerPage, viewer);
  await viewerPage.goto(notAnsweredPath);
  await expect(viewerPage.getByRole('heading', { level: 1, name: 'Not answered yet' })).toBeVisible();
  await expect(viewerPage.getByText(/^2 of 3 invited students have not answered/)).toBeVisible();
  await expect(
    viewerPage.getByText('Names and email addresses are shown to counsellors and administrators only.'),
  ).toBeVisible();
  const viewerText = await viewerPage.locator('body').innerText();
  for (const name of ['Lovelace', 'Cy Park', students[0] as string]) expect(viewerText).not.toContain(name);
  await expect(viewerPage.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible();
  await reviewScreen(viewerPage, 'campaign-not-answered-viewer', 'Not answered yet');
  await viewerContext.close();
});

test('choosing a demo group keeps the demo: a success alert and no call', async ({ page }) => {
  const institution = await createInstitutionWithAdmin();
  await openAs(page, institution.admin, '/schedule-survey/', 'Schedule Survey');
  const calls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/campaigns/')) calls.push(request.url());
  });
  await page.getByLabel('Day').selectOption('Friday');
  await page.getByLabel('Hour').fill('3');
  await page.getByLabel('Minute').fill('15');
  await page.getByRole('button', { name: 'Connect to Gmail' }).click();
  await page.getByLabel('Email Group').selectOption('Students');
  await page.getByRole('button', { name: 'Schedule Survey (Demo Only)' }).click();
  await expect(page.getByRole('dialog', { name: 'Survey scheduled' })).toContainText('This is a demo');
  expect(calls).toEqual([]);
});

/**
 * Several groups and the students with no group in one campaign; the list names the template and
 * whom it reaches; cancelling asks first, naming the campaign; a student who has left is marked so
 * on the Roster screen and can be brought back.
 */
test('a campaign for several groups, cancelled after a confirmation, and a student marked as left', async ({
  page,
}) => {
  const institution = await createInstitutionWithAdmin();
  const { domain } = institution;
  await openAs(page, institution.admin, '/admin/roster/', 'Roster');
  await page.getByLabel('Roster file (CSV)').setInputFiles({
    name: 'registrar.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `name,email,group\nAda One,ada@${domain},Year 1\nBen Two,ben@${domain},Year 2\nCy None,cy@${domain},\n`,
    ),
  });
  await page.getByRole('button', { name: 'Import roster' }).click();
  await expect(page.getByText('Imported: 3 students added, 0 students updated.')).toBeVisible();

  await page.getByRole('button', { name: 'Mark as left: Ben Two' }).click();
  await expect(page.getByText('Ben Two is marked as left')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Back on the roster: Ben Two' })).toBeVisible();
  await expectNoA11yViolations(page);
  for (const width of Object.values(SCREEN_WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, 'roster-left');
  }
  await page.getByRole('button', { name: 'Back on the roster: Ben Two' }).click();
  await expect(page.getByText('Ben Two is back on the roster.')).toBeVisible();

  await page.goto('/schedule-survey/');
  await page.getByLabel('Day').selectOption('Wednesday');
  await page.getByLabel('Hour').fill('10');
  await page.getByLabel('Minute').fill('30');
  await page.getByLabel('Make this a recurring survey').check();
  await page.getByRole('button', { name: 'Use the roster' }).click();
  await expect(page.getByText('Roster: 2 groups loaded.')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Year 1' }).check();
  await page.getByRole('checkbox', { name: 'Year 2' }).check();
  await page.getByRole('checkbox', { name: 'Students with no group' }).check();
  await expectNoA11yViolations(page);
  for (const width of Object.values(SCREEN_WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, 'schedule-several-groups');
  }
  await page.getByRole('button', { name: 'Schedule Survey' }).click();
  await expect(page.getByRole('dialog', { name: 'Survey scheduled' })).toContainText('Campaign scheduled.');

  await page.goto('/admin/campaigns/');
  const audience = 'Year 1, Year 2, Students with no group';
  const row = page.getByRole('row', { name: new RegExp(audience) });
  await expect(row.getByRole('cell').nth(0)).toHaveText(/^Template #\d+$/);
  await expect(row.getByRole('cell').nth(1)).toHaveText(/^Every Wednesday at 10:30 AM/);
  await row.getByRole('button', { name: `Cancel the campaign for ${audience}` }).click();
  const dialog = page.getByRole('alertdialog', { name: `Cancel the campaign for ${audience}?` });
  await expect(dialog).toContainText('no more rounds or reminders are sent');
  await expectNoA11yViolations(page);
  for (const width of Object.values(SCREEN_WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    await saveScreenshot(page, 'campaign-cancel-confirmation');
  }
  // Its own Cancel keeps the campaign.
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(row.getByRole('cell').nth(2)).toHaveText('Active');
  await row.getByRole('button', { name: `Cancel the campaign for ${audience}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel campaign' }).click();
  await expect(row.getByRole('cell').nth(2)).toHaveText('Cancelled');
});
