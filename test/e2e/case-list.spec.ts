import { parse } from 'csv-parse/sync';
import { answerSharedLink, apiOf, ELEVATED, URGENT } from './admin-support';
import { createInstitutionWithAdmin, expect, reviewScreen, signIn, test, uniqueId } from './support';

/**
 * The Cases list searched, sorted and paged on the server, its CSV export as filtered, and the
 * dashboard's unverified answers leading to their cases.
 */
test("staff search, sort and page the case list, export it as filtered, and reach an unverified answer's case from the dashboard", async ({
  page,
}) => {
  test.slow();
  const institution = await createInstitutionWithAdmin();
  await signIn(page, institution.admin);
  const [template] = (await apiOf(page).templates()).filter((candidate) => candidate.used);
  if (!template) throw new Error('The institution has an active template');
  const run = uniqueId();
  const student = (name: string) => ({
    name: `${name} ${run}`,
    email: `${name.toLowerCase().replaceAll(' ', '.')}-${run}@${institution.domain}`,
  });
  const avery = student('Avery Stone');
  const blake = student('Blake Rivers');
  const casey = student('Casey Moss');
  await answerSharedLink(template.hash_link, avery, ELEVATED);
  await answerSharedLink(template.hash_link, blake, URGENT);
  await answerSharedLink(template.hash_link, casey, ELEVATED);
  const visitor = student('Dana Given');
  await answerSharedLink(template.hash_link, visitor, URGENT, { prove: false });

  // Two cases a page, by student name: the pager walks the rest.
  await page.goto('/cases/?status=all&queue=verified&sort=student&page_size=2');
  await expect(page.getByRole('heading', { level: 1, name: 'Cases' })).toBeVisible();
  const studentLinks = page.getByRole('table').getByRole('rowheader').getByRole('link');
  await expect(studentLinks).toHaveText([avery.name, blake.name]);
  await expect(page.getByRole('status').filter({ hasText: 'cases' })).toHaveText('3 cases, showing 1–2');
  await expect(page.getByRole('columnheader', { name: 'Student' })).toHaveAttribute('aria-sort', 'ascending');
  const next = page.getByRole('button', { name: 'Next page' });
  await next.click();
  await expect(studentLinks).toHaveText([casey.name]);
  await expect(page.getByText('Page 2 of 2')).toBeVisible();
  // The last page keeps focus on the button pressed, announced as unavailable.
  await expect(next).toBeFocused();
  await expect(next).toHaveAttribute('aria-disabled', 'true');

  // A column heading turns the order round.
  await page.getByRole('button', { name: 'Student' }).click();
  await expect(page.getByRole('columnheader', { name: 'Student' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect(studentLinks).toHaveText([casey.name, blake.name]);

  // Search by part of an email, then by a name an unverified sender gave.
  await page.getByRole('combobox', { name: 'Queue' }).selectOption('all');
  await page.getByRole('searchbox', { name: 'Search by student name or email' }).fill(`rivers-${run}`);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(studentLinks).toHaveText([blake.name]);
  await page.getByRole('searchbox', { name: 'Search by student name or email' }).fill(`dana given ${run}`);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('table').getByText(`Name given (unverified): ${visitor.name}`)).toBeVisible();
  await expect(studentLinks).toHaveCount(1);

  // The export is the list as filtered: the same search, every page.
  await page.getByRole('searchbox', { name: 'Search by student name or email' }).fill(run);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('combobox', { name: 'Tier' }).selectOption('elevated');
  await expect(studentLinks).toHaveText([casey.name, avery.name]);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = await (await download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  const [header, ...rows] = parse(Buffer.concat(chunks).toString('utf8'), { bom: true }) as string[][];
  expect(header?.[1]).toBe('student_name');
  expect(rows.map((row) => row[1])).toEqual([casey.name, avery.name]);

  await reviewScreen(page, 'case-list', 'Cases');

  // The dashboard's unverified answer links to its case.
  await page.goto('/dashboard/');
  const unverified = page.getByRole('region', { name: 'Unverified Answers Needing Attention' });
  const row = unverified.getByRole('row').filter({ hasText: visitor.email });
  await row.getByRole('link', { name: /^Case \d+: New$/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Case \d+: / })).toBeVisible();
  await expect(
    page.getByText(`Name given by a sender who has not confirmed the address: ${visitor.name}`),
  ).toBeVisible();
});
