import { expect, test } from './support';

test.describe('demo survey', () => {
  test('shows the banner, name and email, and five questions scored 1 to 5', async ({ page }) => {
    await page.goto('/demo-survey/');
    await expect(page.getByText('Demo Survey - Log in to submit a real wellness check.')).toBeVisible();
    await expect(page.getByLabel('Full Name')).toBeVisible();
    await expect(page.getByLabel('School Email')).toBeVisible();

    const questions = page.getByRole('group');
    await expect(questions).toHaveCount(5);
    for (const topic of [
      /well-being/,
      /harming yourself/,
      /campus community/,
      /sleep/,
      /reaching out for support/,
    ]) {
      const question = questions.filter({ hasText: topic });
      await expect(question).toHaveCount(1);
      const radios = question.getByRole('radio');
      await expect(radios).toHaveCount(5);
      const values = await radios.evaluateAll((inputs) =>
        inputs.map((input) => (input as HTMLInputElement).value).sort(),
      );
      expect(values).toEqual(['1', '2', '3', '4', '5']);
    }
  });

  test('answers can be picked, by mouse and keyboard', async ({ page }) => {
    await page.goto('/demo-survey/');
    const wellbeing = page.getByRole('group', { name: /well-being/ });
    await wellbeing.getByRole('radio', { name: 'Good' }).check();
    await expect(wellbeing.getByRole('radio', { name: 'Good' })).toBeChecked();
    await page.keyboard.press('ArrowRight');
    await expect(wellbeing.getByRole('radio', { name: 'Excellent' })).toBeChecked();
  });

  test('cannot be submitted, by button or by Enter, and sends nothing', async ({ page }) => {
    const writes: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET') writes.push(`${request.method()} ${request.url()}`);
    });
    await page.goto('/demo-survey/');
    await page.getByLabel('Full Name').fill('Sam Rivera');
    await page.getByLabel('School Email').fill('sam@demo.edu');
    for (const group of await page.getByRole('group').all()) await group.getByRole('radio').first().check();

    const submit = page.getByRole('button', { name: 'Submit' });
    await expect(submit).toBeDisabled();
    await submit.click({ force: true });
    await page.getByLabel('School Email').press('Enter');

    await expect(page).toHaveURL('/demo-survey/');
    await expect(page.getByLabel('Full Name')).toHaveValue('Sam Rivera');
    expect(writes).toEqual([]);
    await page.getByRole('link', { name: 'Log in to take the real check-in' }).click();
    await expect(page).toHaveURL('/login/');
  });
});
