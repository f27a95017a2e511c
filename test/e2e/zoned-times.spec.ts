import type { CaseListResponse } from '../../src/common/schemas/cases';
import { formatZonedDateTime } from '../../src/common/zoned-format';
import { answerSharedLink, apiOf, URGENT } from './admin-support';
import { createInstitutionWithAdmin, expect, reviewScreen, signIn, test, uniqueId } from './support';

/**
 * Staff read every time on the institution's clock, with the zone named (design section 9: its
 * deadlines and rounds run in its time zone), whatever zone the reader's own computer is set to.
 */

const ZONE = 'Asia/Tokyo';

// The reader's browser is eight and a half hours or more away from the institution.
test.use({ timezoneId: 'America/Los_Angeles' });

test("a case deadline, its trail and a campaign's next round show the institution's time and name its zone", async ({
  page,
}) => {
  test.slow();
  const institution = await createInstitutionWithAdmin();
  await signIn(page, institution.admin);
  await page.goto('/admin/settings/');
  await page.getByLabel('Time zone').selectOption(ZONE);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();

  // A weekly campaign for a roster group, due Mondays at 9:00 on the institution's clock.
  await page.goto('/admin/roster/');
  await page.getByLabel('Roster file (CSV)').setInputFiles({
    name: 'registrar.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`name,email,group\r\nAda Park,ada-${uniqueId()}@${institution.domain},Year 1\r\n`),
  });
  await page.getByRole('button', { name: 'Import roster' }).click();
  await expect(page.getByText(/^Imported: 1 student added/)).toBeVisible();
  const api = apiOf(page);
  const [template] = (await api.templates()).filter((candidate) => candidate.used);
  if (!template) throw new Error('The institution has an active template');
  await api.send('post', '/api/campaigns/', {
    template_id: template.id,
    groups: ['Year 1'],
    day: 'Monday',
    hour: 9,
    minute: 0,
    ampm: 'AM',
    recurring: true,
    send_now: false,
    reminder_after_days: 2,
  });
  await page.goto('/admin/campaigns/');
  const row = page.getByRole('row', { name: /Year 1/ });
  await expect(row.getByRole('cell').nth(4)).toHaveText(
    /^Mon \d{1,2} [A-Z][a-z]{2} \d{4}, 09:00 \(Asia\/Tokyo\)$/,
  );
  await expect(row.getByRole('cell').nth(3)).toHaveText('None yet');

  // An urgent answer opens a case: its deadline reads on the institution's clock, here and in the list.
  const student = { name: `Robin ${uniqueId()}`, email: `robin-${uniqueId()}@${institution.domain}` };
  await answerSharedLink(template.hash_link, student, URGENT);
  const { cases } = await api.send<CaseListResponse>('get', '/api/cases/');
  const opened = cases.find((item) => item.school_email === student.email);
  if (!opened) throw new Error('The urgent answer opened a case');
  const deadline = formatZonedDateTime(opened.acknowledge_by, ZONE);
  expect(deadline).toMatch(/\(Asia\/Tokyo\)$/);
  await page.goto('/cases/');
  await expect(page.getByRole('row', { name: new RegExp(student.name) })).toContainText(deadline);
  await page.getByRole('link', { name: student.name }).click();
  const facts = page.getByRole('definition');
  await expect(facts.filter({ hasText: deadline })).toHaveCount(1);
  await expect(
    page.getByRole('listitem').filter({ hasText: /^Case opened by a flagged check-in/ }),
  ).toContainText(formatZonedDateTime(opened.opened_at, ZONE));
  await reviewScreen(page, 'case-zoned', new RegExp(`^Case \\d+: ${student.name}$`));
});
