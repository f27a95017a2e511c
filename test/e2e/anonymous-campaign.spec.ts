import {
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  openAs,
  reviewScreen,
  test,
} from './support';
import { answerEverything, readRows, SUBMIT_BUTTON, surveyInvitation } from './survey-helpers';

const PANEL = "You don't have to go through this alone";

/**
 * Design section 14: an anonymous campaign answered through its invitation link. The survey says
 * it is anonymous and names no one; an urgent answer shows the crisis panel at once but stores
 * nothing that names the student and opens no case; the student's own request to be contacted
 * opens one, with only what they gave.
 */
test('an anonymous campaign keeps no name with the answers, and only the student’s request opens a case', async ({
  page,
}) => {
  test.slow();
  const { link, student, institution } = await surveyInvitation({ anonymous: true, instruments: ['phq2'] });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(link);
  await expect(page.getByText('Anonymous survey.')).toBeVisible();
  await expect(page.getByLabel('Full Name')).toHaveCount(0);
  await expect(page.getByText('Invited Student')).toHaveCount(0);
  await expectNoA11yViolations(page, 'anonymous survey at 375 px');
  await expectNoHorizontalOverflow(page);

  await answerEverything(page, { urgent: true });
  await page.getByRole('button', { name: SUBMIT_BUTTON }).click();
  await expect(page.getByRole('region', { name: PANEL })).toBeVisible();
  const offer = page.getByRole('region', { name: 'I would like a counsellor to contact me' });
  await expect(offer).toBeVisible();
  await expectNoA11yViolations(page, 'crisis panel and contact offer at 375 px');
  await expectNoHorizontalOverflow(page);

  // Nothing stored names the student; no case is open.
  const institutionId = readRows('SELECT id FROM institutions WHERE name = ?', institution.name)[0]?.id;
  expect(readRows('SELECT id FROM submissions WHERE school_email = ?', student)).toEqual([]);
  expect(readRows('SELECT id FROM respondents WHERE email = ?', student)).toEqual([]);
  expect(readRows('SELECT id FROM cases WHERE institution_id = ?', institutionId)).toEqual([]);
  const stored = readRows('SELECT * FROM anonymous_submissions WHERE institution_id = ?', institutionId);
  expect(stored).toHaveLength(1);
  expect(stored[0]?.tier).toBe('urgent');
  expect(Object.keys(stored[0] ?? {}).sort()).toEqual(
    [
      'campaign_id',
      'id',
      'institution_id',
      'lexicon_version',
      'likert_mean',
      'retry_key',
      'sent_on',
      'template_id',
      'tier',
    ].sort(),
  );
  const answers = readRows(
    'SELECT a.value FROM anonymous_answers a JOIN anonymous_submissions s ON s.id = a.submission_id WHERE s.institution_id = ?',
    institutionId,
  );
  expect(JSON.stringify(answers)).not.toContain(student);

  // The student asks to be contacted, by phone only.
  await offer.getByLabel('Phone').fill('+1 555 0100');
  await offer.getByRole('button', { name: 'Ask to be contacted' }).click();
  await expect(offer.getByRole('status')).toContainText('A counsellor will contact you');
  const cases = readRows('SELECT id, tier FROM cases WHERE institution_id = ?', institutionId);
  expect(cases).toEqual([{ id: expect.any(Number), tier: 'urgent' }]);
  expect(
    readRows('SELECT name, email, phone, answers FROM case_contacts WHERE case_id = ?', cases[0]?.id),
  ).toEqual([{ name: null, email: null, phone: '+1 555 0100', answers: null }]);
  await expectNoA11yViolations(page, 'contact asked at 375 px');

  // The admin reaches the results from the campaign list: one answer, so every figure over it is
  // hidden, the screen says why, and nothing written by the student is on it.
  await page.context().clearCookies();
  await openAs(page, institution.admin, '/admin/campaigns/', 'Campaigns');
  await page.getByRole('link', { name: 'Results of the anonymous campaign for Year 1' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Anonymous results' })).toBeVisible();
  await expect(page.getByText(/^1 student has answered\.$/)).toBeVisible();
  await expect(page.getByText(/figure over fewer than 5 answers reads “Fewer than 5”/)).toContainText(
    'written answers are never shown',
  );
  const tiers = page
    .getByRole('table')
    .filter({ has: page.getByRole('columnheader', { name: 'Screening level' }) });
  await expect(tiers.getByRole('row', { name: /Urgent/ }).getByRole('cell')).toHaveText('Fewer than 5');
  await expect(tiers.getByRole('row', { name: /No concern/ }).getByRole('cell')).toHaveText('Fewer than 5');
  const means = page
    .getByRole('table')
    .filter({ has: page.getByRole('columnheader', { name: 'Mean (1–5)' }) });
  await expect(means.getByRole('row').nth(1).getByRole('cell')).toHaveText('Fewer than 5');
  // The PHQ-2 block: every band it can reach, the one answer among them hidden too.
  const phq = page.getByRole('table', { name: /PHQ-2/ });
  await expect(phq.getByRole('rowheader')).toContainText(['below cut point or no named band']);
  await expect(phq.getByRole('cell')).toHaveText(
    Array(await phq.getByRole('cell').count()).fill('Fewer than 5'),
  );
  expect(await page.locator('body').innerText()).not.toContain('Classes are going well');
  await reviewScreen(page, 'anonymous-results', 'Anonymous results');
});
