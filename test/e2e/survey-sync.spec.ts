import { createStudent, expect, type Page, signIn, signInWithForm, test } from './support';
import { likertGroups, safetyGroup, textAnswer } from './survey-helpers';

/**
 * The survey when the world changes under it: the session ends while it is open, the template
 * changes, or the same survey is open in two tabs.
 */

/** The next autosave answered by the server, whatever its status. */
function nextAutosave(page: Page) {
  return page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/autosave/',
  );
}

test.describe('autosave after the session has ended', () => {
  test('says saving stopped, keeps the answers here, and a new login brings them back', async ({ page }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.goto('/survey/');
    const first = likertGroups(page).first();
    const saved = nextAutosave(page);
    await first.getByRole('radio', { name: 'Neutral' }).check();
    expect((await saved).status()).toBe(200);
    await expect(page.getByText(/Last saved at/)).toBeVisible();

    // The session ends on the server's side (idle expiry, or a logout elsewhere).
    await page.context().clearCookies({ name: 'sessionid' });
    const refused = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/autosave/' && response.status() === 401,
    );
    await safetyGroup(page).getByRole('radio', { name: 'Never' }).check();
    await textAnswer(page).fill('Typed after the session ended.');
    await refused;

    const problem = page.getByRole('alert').filter({ hasText: 'Saving stopped' });
    await expect(problem).toContainText('your session has ended');
    await expect(problem).toContainText('still kept in this browser');
    await expect(page.getByText(/Last saved at/)).toHaveCount(0);

    await problem.getByRole('button', { name: 'Log in again' }).click();
    await expect(page).toHaveURL(/\/login\/\?next=\/survey\/$/);
    await signInWithForm(page, student, page.url().replace(/^https?:\/\/[^/]+/, ''));
    await expect(page).toHaveURL(/\/survey\/$/);
    await expect(likertGroups(page).first().getByRole('radio', { name: 'Neutral' })).toBeChecked();
    await expect(safetyGroup(page).getByRole('radio', { name: 'Never' })).toBeChecked();
    await expect(textAnswer(page)).toHaveValue('Typed after the session ended.');
  });

  test('a save that fails for another reason says so and tries again', async ({ page }) => {
    const student = await createStudent();
    await signIn(page, student);
    await page.goto('/survey/');
    let failing = true;
    await page.route('**/api/autosave/', (route) =>
      failing ? route.fulfill({ status: 503, json: { success: false, message: 'Busy' } }) : route.fallback(),
    );
    await likertGroups(page).first().getByRole('radio', { name: 'Neutral' }).check();
    await expect(page.getByText(/could not be saved to the server/)).toBeVisible();
    await expect(page.getByText(/still kept in this browser tab/)).toBeVisible();

    failing = false;
    await expect(page.getByText(/Last saved at/)).toBeVisible();
    await expect(page.getByText(/could not be saved/)).toHaveCount(0);
  });
});
