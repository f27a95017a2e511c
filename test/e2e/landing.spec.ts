import { expect, expectNoHorizontalOverflow, SCREEN_WIDTHS, saveScreenshot, test } from './support';

const FEATURES = [
  'Mental Health Monitoring',
  'FERPA Compliance',
  'Data-Driven Insights',
  'Instant Feedback for Students',
  'Easy Access to Surveys',
  'Student Success',
];

test.describe('landing page', () => {
  test('has the brand title, the hero with its two links, and the six feature cards', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveTitle('Wellspring Health - Mental Health Solutions for Universities');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Proactive Mental Health Support for Universities',
    );

    await expect(page.getByRole('link', { name: 'Watch Demo' })).toHaveAttribute('href', '#demo');
    await expect(page.getByRole('link', { name: 'Get a Quote' })).toHaveAttribute('href', '#contact');

    const cards = page.getByRole('region', { name: 'Core features' }).getByRole('listitem');
    await expect(cards).toHaveCount(6);
    await expect(cards.getByRole('heading', { level: 3 })).toHaveText(FEATURES);
  });

  test('"Watch Demo" and "Get a Quote" jump to the demo and contact sections', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Watch Demo' }).click();
    await expect(page).toHaveURL('/#demo');
    await expect(page.locator('#demo')).toBeInViewport();

    await page.getByRole('link', { name: 'Get a Quote' }).first().click();
    await expect(page).toHaveURL('/#contact');
    await expect(page.locator('#contact')).toBeInViewport();
  });

  test('without a video, shows a walkthrough of the product, and loads no analytics', async ({ page }) => {
    await page.goto('/');
    const demo = page.locator('#demo');
    await expect(demo.getByText(/coming soon/i)).toHaveCount(0);
    await expect(demo.locator('iframe, video')).toHaveCount(0);
    // Three captioned steps, each with a miniature of the real screen, in plain markup.
    const steps = demo.getByRole('list', { name: 'Product walkthrough' }).getByRole('listitem');
    await expect(steps.getByRole('heading', { level: 3 })).toHaveText([
      /A student checks in/,
      /Help shows up at once/,
      /Your team sees who needs outreach/,
    ]);
    for (let index = 0; index < 3; index += 1) {
      await expect(steps.nth(index).locator('[aria-hidden="true"]').first()).toBeVisible();
    }
    await expect(demo.locator('img, canvas, svg image, script')).toHaveCount(0);
    await expect(demo.getByRole('link', { name: 'Try the demo survey' })).toHaveAttribute(
      'href',
      '/demo-survey/',
    );
    await expect(page.locator('script#analytics-script')).toHaveCount(0);
    for (const width of Object.values(SCREEN_WIDTHS)) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoHorizontalOverflow(page);
      await demo.scrollIntoViewIfNeeded();
      await saveScreenshot(page, 'landing-walkthrough');
    }
  });

  test('uses the configured brand, demo video (full width, 450 px high) and analytics script', async ({
    page,
  }) => {
    const config = {
      brandName: 'Evergreen',
      demoVideoUrl: 'https://video.example/embed/demo',
      contactFormUrl: '/api/contact/',
      analyticsScriptUrl: 'https://analytics.example/script.js',
      publicUrl: null,
    };
    // The server writes this JSON into the shell's meta tag; here the page gets a different one.
    await page.route(/\/$/, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(
        /<meta name="app-config" content="[^"]*" \/>/,
        `<meta name="app-config" content="${JSON.stringify(config).replaceAll('"', '&quot;')}" />`,
      );
      await route.fulfill({ response, body: html });
    });
    await page.route('https://analytics.example/**', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: '' }),
    );
    await page.route('https://video.example/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '' }),
    );

    await page.goto('/');
    await expect(page).toHaveTitle('Evergreen Health - Mental Health Solutions for Universities');
    await expect(page.getByRole('link', { name: 'Evergreen Health' })).toBeVisible();

    const video = page.locator('#demo iframe');
    await expect(video).toHaveAttribute('src', config.demoVideoUrl);
    await expect(video).toHaveAttribute('title', 'Evergreen Health product demo');
    const box = await video.boundingBox();
    const sectionWidth = await page
      .locator('#demo h2')
      .evaluate((heading) => heading.parentElement?.clientWidth);
    expect(box?.height).toBe(450);
    expect(Math.round(box?.width ?? 0)).toBeGreaterThanOrEqual((sectionWidth ?? 0) - 32 - 1);

    await expect(page.locator('head script#analytics-script')).toHaveAttribute(
      'src',
      config.analyticsScriptUrl,
    );
  });

  test('contact form: the spec fields, browser-native validation, and an ordinary form post', async ({
    page,
  }) => {
    await page.goto('/#contact');
    const form = page.locator('#contact form');
    await expect(form).toHaveAttribute('method', 'post');
    await expect(form).toHaveAttribute('action', '/api/contact/');

    const institution = form.getByLabel('Institution *');
    const name = form.getByLabel('Name', { exact: true });
    const email = form.getByLabel('Email');
    const students = form.getByLabel('Number of students');
    const message = form.getByLabel('Message');
    await expect(institution).toHaveAttribute('name', 'institution');
    await expect(institution).not.toHaveAttribute('required');
    await expect(name).toHaveAttribute('required');
    await expect(email).toHaveAttribute('type', 'email');
    await expect(email).toHaveAttribute('required');
    await expect(students).toHaveAttribute('type', 'number');
    await expect(students).not.toHaveAttribute('required');
    await expect(message).toHaveAttribute('required');

    // An empty form is stopped by the browser itself: nothing is sent.
    await form.getByRole('button', { name: 'Request a Quote' }).click();
    await expect(page).toHaveURL('/#contact');
    expect(await name.evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);

    await name.fill('Dana Whitfield');
    await email.fill('not-an-email');
    await message.fill('We would like a quote.');
    await form.getByRole('button', { name: 'Request a Quote' }).click();
    expect(await email.evaluate((input: HTMLInputElement) => input.validity.typeMismatch)).toBe(true);
    await expect(page).toHaveURL('/#contact');

    await institution.fill('Northfield College');
    await email.fill('dana@northfield.edu');
    await students.fill('4200');
    const [response] = await Promise.all([
      page.waitForResponse(
        (candidate) => candidate.url().endsWith('/api/contact/') && candidate.request().method() === 'POST',
      ),
      form.getByRole('button', { name: 'Request a Quote' }).click(),
    ]);
    expect(response.status()).toBe(200);
    expect(response.request().postData()).toContain('institution=Northfield+College');
    await expect(page.getByRole('heading', { name: 'Thank you for getting in touch' })).toBeVisible();
  });
});
