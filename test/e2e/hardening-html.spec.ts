import { answerSharedLink, apiOf, URGENT } from './admin-support';
import { createInstitutionWithAdmin, expect, type Page, signIn, test, uniqueId } from './support';

/**
 * Stored strings that look like HTML are shown as text wherever the web app shows them: a
 * question written by an admin (survey screen, question editor) and a respondent's name (the
 * dashboard's flagged list). Nothing they contain runs: no dialog, no element, no global set.
 */

const QUESTION = '<img src=x onerror="alert(1);window.__hacked=1">How well did you sleep?';
const CHOICE = '<b onmouseover=alert(2)>Rested</b><script>window.__hacked=2</script>';
const NAME = '<svg onload="alert(3);window.__hacked=3">Mallory';

/** Fails the test on any dialog, and reports whether any planted script ran. */
function watchForScripts(page: Page) {
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  return {
    async expectNothingRan() {
      expect(dialogs, 'dialogs opened by stored text').toEqual([]);
      expect(
        await page.evaluate(() => (window as unknown as { __hacked?: number }).__hacked),
      ).toBeUndefined();
      // The markup became no element anywhere in the page.
      await expect(
        page.locator('img[src="x"], svg[onload], b[onmouseover], script:has-text("__hacked")'),
      ).toHaveCount(0);
    },
  };
}

test('stored HTML in a question, an answer label and a name renders as text', async ({ page, browser }) => {
  const institution = await createInstitutionWithAdmin();
  await signIn(page, institution.admin);
  const api = apiOf(page);
  const [template] = (await api.templates()).filter((candidate) => candidate.used);
  if (!template) throw new Error('the new institution has no active template');
  await api.addQuestion(template.id, {
    question_text: QUESTION,
    question_type: 'likert',
    question_category: 'sleep',
    order: 1,
    answer_choices: { '1': CHOICE },
  });
  // A visitor on the link whose name is markup, urgent so the dashboard lists them.
  await answerSharedLink(
    template.hash_link,
    { name: NAME, email: `mallory-${uniqueId()}@${institution.domain}` },
    URGENT,
  );

  // The survey, as a visitor opening the shared link sees it.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  const visitorWatch = watchForScripts(visitor);
  await visitor.goto(`/survey/link/${template.hash_link}/`);
  await expect(visitor.getByText(QUESTION, { exact: true })).toBeVisible();
  await expect(visitor.getByText(CHOICE, { exact: true })).toBeVisible();
  await visitorWatch.expectNothingRan();
  await visitorContext.close();

  // The question editor, as the admin sees it.
  const adminWatch = watchForScripts(page);
  await page.goto('/admin/survey-templates/');
  const item = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: `Template #${template.id}`, exact: true }) });
  await item.getByRole('button', { name: /^Edit Questions/ }).click();
  await expect(page.getByText(QUESTION, { exact: true })).toBeVisible();
  await adminWatch.expectNothingRan();

  // The dashboard's flagged list.
  await page.goto('/dashboard/');
  await expect(page.getByRole('rowheader', { name: NAME, exact: true })).toBeVisible();
  await adminWatch.expectNothingRan();
});
