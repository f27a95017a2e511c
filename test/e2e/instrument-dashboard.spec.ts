import type { Locator } from '@playwright/test';
import { INSTRUMENTS, type InstrumentAnswers } from '../../src/common/instruments';
import { answersSumming } from '../../src/common/instruments/test-answers';
import { answerSharedLink, createStaffWithRole, STABLE, withRunDatabase } from './admin-support';
import {
  createInstitutionWithAdmin,
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  expectNoStudentIdentity,
  type Page,
  SCREEN_WIDTHS,
  saveScreenshot,
  signIn,
  test,
  uniqueId,
} from './support';
import { apiSession, listTemplates } from './survey-helpers';

/**
 * The dashboard's validated instruments (design section 13): per instrument and month, how many
 * students fell in each band and the mean total with its change from the month before, for an
 * administrator and, numbers only, for a viewer.
 */

const PHQ9 = INSTRUMENTS.phq9;
const GAD7 = INSTRUMENTS.gad7;
const DAY = 24 * 60 * 60 * 1000;

/** PHQ-9 and GAD-7 answers with the given totals; PHQ-9 item 9 is left at "Not at all". */
function scores(phq9: number, gad7: number): Record<string, InstrumentAnswers> {
  return {
    phq9: answersSumming(PHQ9.items, PHQ9.scale, phq9),
    gad7: answersSumming(GAD7.items, GAD7.scale, gad7),
  };
}

/** Moves every instrument result of the student's submissions to `at`, as if answered then. */
function backdateResults(email: string, at: number) {
  withRunDatabase((db) =>
    db
      .prepare(
        'UPDATE instrument_results SET created_at = ? WHERE submission_id IN (SELECT id FROM submissions WHERE school_email = ?)',
      )
      .run(at, email.toLowerCase()),
  );
}

/** "2026-10" as the screen names it (its locale is the runner's: en-US). */
function monthName(at: number): string {
  return new Date(at).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** The cells of each month's row, after its row header. */
async function expectRows(table: Locator, rows: [string, string[]][]) {
  await expect(table.locator('tbody th')).toHaveText(rows.map(([month]) => month));
  for (const [index, [, cells]] of rows.entries())
    await expect(table.locator('tbody tr').nth(index).getByRole('cell')).toHaveText(cells);
}

/**
 * Axe, no sideways scroll and a screenshot at 1280 and 375 px. The page is loaded afresh at each
 * width, as the dashboard's own review does: its charts redraw to a new width only after a resize.
 */
async function reviewDashboard(page: Page, name: string) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  for (const width of [SCREEN_WIDTHS.desktop, SCREEN_WIDTHS.mobile]) {
    await page.setViewportSize({ width, height: 900 });
    await page.reload();
    await expect(page.getByRole('table', { name: GAD7.name })).toBeVisible();
    await expectNoA11yViolations(page, `${name} at ${width}px`);
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, name);
  }
}

/**
 * What a viewer reads: each month's two students, or one, are fewer than the institution's five,
 * so their bands, count and mean are hidden, and so is the change that would give one from the other.
 */
async function expectSuppressedTables(page: Page, lastMonth: string, thisMonth: string) {
  const section = page.getByRole('region', { name: 'Validated Instruments by Month' });
  const hidden = 'Fewer than 5';
  for (const name of [PHQ9.name, GAD7.name]) {
    await expectRows(section.getByRole('table', { name }), [
      [lastMonth, [hidden, hidden, hidden, hidden, hidden, '–']],
      [thisMonth, [hidden, hidden, hidden, hidden, hidden, hidden]],
    ]);
  }
  await expect(section).toContainText('groups of fewer than 5 students are shown as “Fewer than 5”');
}

async function expectInstrumentTables(page: Page, lastMonth: string, thisMonth: string) {
  const section = page.getByRole('region', { name: 'Validated Instruments by Month' });
  const phq = section.getByRole('table', { name: PHQ9.name });
  await expect(phq.getByRole('columnheader')).toHaveText([
    'Month',
    'mild depression',
    'moderate depression',
    'moderately severe depression',
    'Students',
    'Mean total',
    'Change',
  ]);
  await expectRows(phq, [
    [lastMonth, ['0', '1', '1', '2', '13.5', '–']],
    [thisMonth, ['1', '0', '0', '1', '5.0', `down 8.5 from ${lastMonth}`]],
  ]);
  const gad = section.getByRole('table', { name: GAD7.name });
  await expect(gad.getByRole('columnheader')).toHaveText([
    'Month',
    'minimal anxiety',
    'mild anxiety',
    'moderate anxiety',
    'Students',
    'Mean total',
    'Change',
  ]);
  await expectRows(gad, [
    [lastMonth, ['0', '1', '1', '2', '9.0', '–']],
    [thisMonth, ['1', '0', '0', '1', '3.0', `down 6.0 from ${lastMonth}`]],
  ]);
}

test('the dashboard counts students per instrument band and month with the mean trend; a viewer sees its small groups hidden and no name', async ({
  page,
  browser,
}) => {
  test.slow();
  const institution = await createInstitutionWithAdmin();
  const [template] = (await listTemplates(institution.admin)).filter((candidate) => candidate.used);
  if (!template) throw new Error('The institution has an active template');
  const { api, csrf } = await apiSession(institution.admin);
  for (const [instrumentId, order] of [
    ['phq9', 20],
    ['gad7', 21],
  ] as const) {
    const added = await api.post(`/api/survey-templates/${template.id}/instruments/`, {
      headers: { 'X-CSRFToken': await csrf() },
      data: { instrument_id: instrumentId, order },
    });
    expect(added.status(), await added.text()).toBe(201);
  }
  await api.dispose();

  const student = (label: string) => ({
    name: `${label} ${uniqueId()}`,
    email: `${label.toLowerCase()}-${uniqueId()}@${institution.domain}`,
  });
  const ada = student('Ada');
  const bo = student('Bo');
  // Last month: Ada at PHQ-9 10 and GAD-7 6, Bo at 17 and 12. This month: Ada at 5 and 3.
  const lastMonthAt = Date.now() - 40 * DAY;
  await answerSharedLink(template.hash_link, ada, { ...STABLE, instruments: scores(10, 6) });
  await answerSharedLink(template.hash_link, bo, { ...STABLE, instruments: scores(17, 12) });
  backdateResults(ada.email, lastMonthAt);
  backdateResults(bo.email, lastMonthAt);
  await answerSharedLink(template.hash_link, ada, { ...STABLE, instruments: scores(5, 3) });

  await signIn(page, institution.admin);
  await page.goto('/dashboard/');
  await expectInstrumentTables(page, monthName(lastMonthAt), monthName(Date.now()));
  await reviewDashboard(page, 'dashboard-instruments');

  const viewer = await createStaffWithRole(institution, 'viewer');
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  await signIn(viewerPage, viewer);
  await viewerPage.goto('/dashboard/');
  await expectSuppressedTables(viewerPage, monthName(lastMonthAt), monthName(Date.now()));
  await expectNoStudentIdentity(viewerPage, ada);
  await expectNoStudentIdentity(viewerPage, bo);
  await reviewDashboard(viewerPage, 'dashboard-instruments-viewer');
  await viewerContext.close();
});
