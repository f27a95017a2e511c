import fs from 'node:fs';
import {
  createInstitutionWithAdmin,
  createStudent,
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  type Page,
  reviewScreen,
  SCREEN_WIDTHS,
  signIn,
  test,
} from './support';
import { apiSession } from './survey-helpers';

/** Design section 14: a student's own records, records requests, and erasure on request. */

const CHECK_IN_TEXT = 'Sleeping better since the exams ended';

/** One check-in from the student, through the API as the survey screen sends it. */
async function checkIn(student: { email: string; password: string; name: string }) {
  const { api, csrf } = await apiSession(student);
  try {
    const survey = await api.get('/api/get-user-survey-questions/');
    const body = (await survey.json()) as {
      template_id: number;
      questions: { id: number; question_type?: string; category?: string }[];
    };
    const answers = Object.fromEntries(
      body.questions
        .filter((question) => question.question_type)
        .map((question) => [
          String(question.id),
          question.question_type === 'text' ? CHECK_IN_TEXT : question.category === 'safety' ? '1' : '2',
        ]),
    );
    const sent = await api.post('/api/survey/', {
      headers: { 'X-CSRFToken': await csrf() },
      data: { survey_template_id: body.template_id, answers },
    });
    expect(sent.status(), await sent.text()).toBe(200);
  } finally {
    await api.dispose();
  }
}

/** Axe and no sideways scroll at 375 px, and a screenshot at both widths kept in /tmp for review. */
async function lookAt(page: Page, name: string) {
  for (const width of [SCREEN_WIDTHS.desktop, SCREEN_WIDTHS.mobile]) {
    await page.setViewportSize({ width, height: 900 });
    if (width === SCREEN_WIDTHS.mobile) {
      await expectNoA11yViolations(page, `${name} at ${width}px`);
      await expectNoHorizontalOverflow(page);
    }
    await page.screenshot({ path: `/tmp/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: SCREEN_WIDTHS.desktop, height: 900 });
}

test('a student reads and downloads their records; an admin answers their records request, then erases them after a confirmation naming what goes', async ({
  page,
  browser,
}) => {
  const institution = await createInstitutionWithAdmin();
  const student = await createStudent(institution);
  await checkIn(student);

  // The student, from their account menu.
  await page.setViewportSize({ width: SCREEN_WIDTHS.desktop, height: 900 });
  await signIn(page, student);
  await page.goto('/account/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: student.email }).click();
  await nav.getByRole('link', { name: 'My Records' }).click();
  await expect(page).toHaveURL('/account/records/');
  await expect(page.getByRole('heading', { level: 1, name: 'Your records' })).toBeVisible();
  await expect(page.getByText(CHECK_IN_TEXT)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Check-ins (1)' })).toBeVisible();
  await lookAt(page, 'own-records');
  await reviewScreen(page, 'own-records', 'Your records');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download as JSON' }).click(),
  ]);
  const file = await download.path();
  const records = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    student: { email: string };
    check_ins: { answers: { value: string }[] }[];
  };
  expect(records.student.email).toBe(student.email);
  expect(records.check_ins.flatMap((one) => one.answers.map((answer) => answer.value))).toContain(
    CHECK_IN_TEXT,
  );

  // The admin opens the student's records request, which stops an erasure until it is fulfilled.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await adminPage.setViewportSize({ width: SCREEN_WIDTHS.desktop, height: 900 });
  await signIn(adminPage, institution.admin);
  await adminPage.goto('/admin/records/');
  await expect(adminPage.getByRole('heading', { level: 1, name: 'Student records' })).toBeVisible();
  const requests = adminPage.getByRole('form', { name: 'Open a records request' });
  await requests.getByLabel('Student email').fill(student.email);
  await requests.getByRole('button', { name: 'Open records request' }).click();
  await expect(adminPage.getByText('Records request opened.')).toBeVisible();
  await expect(adminPage.getByRole('listitem').filter({ hasText: student.email })).toContainText('Due ');

  const erasure = adminPage.getByRole('form', { name: "Erase a student's data" });
  await erasure.getByLabel('Student email').fill(student.email);
  await erasure.getByRole('button', { name: 'Review what will be erased' }).click();
  const refused = adminPage.getByRole('alertdialog', { name: 'Erasure not possible now' });
  await expect(refused).toContainText('open records request');
  await expect(refused.getByRole('button', { name: 'Erase permanently' })).toHaveCount(0);
  await refused.getByRole('button', { name: 'Cancel' }).click();

  await adminPage
    .getByRole('button', { name: `Mark the records request of ${student.email} fulfilled` })
    .click();
  await expect(adminPage.getByText('The records request is marked fulfilled.')).toBeVisible();
  await lookAt(adminPage, 'student-records');

  await erasure.getByRole('button', { name: 'Review what will be erased' }).click();
  const confirm = adminPage.getByRole('alertdialog', { name: `Erase ${student.email}?` });
  await expect(confirm).toContainText('1 check-in');
  await expect(confirm).toContainText('1 sign-in account');
  await lookAt(adminPage, 'erasure-confirmation');
  await confirm.getByRole('button', { name: 'Erase permanently' }).click();
  await expect(adminPage.getByText("The student's data is erased.")).toBeVisible();

  // Nothing is left of the student: not even their sign-in.
  await erasure.getByLabel('Student email').fill(student.email);
  await erasure.getByRole('button', { name: 'Review what will be erased' }).click();
  await expect(adminPage.getByRole('alertdialog')).toContainText('Nothing is held about this address');
  await adminContext.close();

  await page.reload();
  await expect(page).toHaveURL(/\/login\//);
});
