import http from 'node:http';
import zlib from 'node:zlib';
import { baseUrl, expect, test } from './support';

/**
 * How the real server delivers the built web app (design section 6): every hashed asset is
 * precompressed at build time and sent in the encoding the browser accepts, cached for a year
 * as immutable; the HTML shell, which names the current assets, is revalidated on every visit.
 */

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes on the wire, still encoded. */
  body: Buffer;
}

/** A GET whose body is not decoded (fetch and Playwright decode it and hide the encoding). */
function rawGet(path: string, acceptEncoding: string | null): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === null ? {} : { 'Accept-Encoding': acceptEncoding };
    http
      .get(new URL(path, baseUrl()), { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject);
  });
}

/** Every script and stylesheet a visit to the landing page and the survey-link screen loads. */
async function assetsOfTheApp(page: import('@playwright/test').Page): Promise<string[]> {
  const assets = new Set<string>();
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/react-static/assets/')) assets.add(pathname);
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/survey/link/no-such-link-0123456789/');
  await expect(page.getByText('Survey link not found or has expired.')).toBeVisible();
  return [...assets];
}

test('hashed assets are served precompressed (brotli, else gzip) and cached as immutable', async ({
  page,
}) => {
  const assets = await assetsOfTheApp(page);
  expect(assets.some((asset) => asset.endsWith('.js'))).toBe(true);
  expect(assets.some((asset) => asset.endsWith('.css'))).toBe(true);

  let compressedAssets = 0;
  for (const asset of assets) {
    const plain = await rawGet(asset, null);
    expect(plain.status, asset).toBe(200);
    expect(plain.headers['content-encoding'], asset).toBeUndefined();
    expect(plain.headers['cache-control'], asset).toBe('public, max-age=31536000, immutable');
    // Never asked for again, and never a document: no validators, only the subresource's security headers.
    expect(plain.headers.etag, asset).toBeUndefined();
    expect(plain.headers['last-modified'], asset).toBeUndefined();
    expect(plain.headers['x-content-type-options'], asset).toBe('nosniff');
    expect(plain.headers['cross-origin-resource-policy'], asset).toBe('same-origin');
    expect(plain.headers['content-security-policy'], asset).toBeUndefined();
    // A file of a few dozen bytes would only grow: it is sent as it is, whatever the browser accepts.
    const worthCompressing = plain.body.length >= 1024;
    if (worthCompressing) compressedAssets += 1;

    for (const [acceptEncoding, encoding, decode] of [
      ['gzip, deflate, br', 'br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync],
    ] as const) {
      const sent = await rawGet(asset, acceptEncoding);
      const label = `${asset} (Accept-Encoding: ${acceptEncoding})`;
      expect(sent.headers['cache-control'], label).toBe('public, max-age=31536000, immutable');
      expect(sent.headers.vary, label).toMatch(/accept-encoding/i);
      expect(sent.headers['content-type'], label).toBe(plain.headers['content-type']);
      if (worthCompressing) expect(sent.headers['content-encoding'], label).toBe(encoding);
      if (sent.headers['content-encoding']) {
        expect(sent.headers['content-encoding'], label).toBe(encoding);
        expect(sent.body.length, label).toBeLessThan(plain.body.length);
        expect(decode(sent.body).equals(plain.body), label).toBe(true);
      } else {
        expect(sent.body.equals(plain.body), label).toBe(true);
      }
    }
  }
  expect(compressedAssets).toBeGreaterThan(0);
});

test('the HTML shell of every public page is revalidated and kept by the browser alone, never cached as immutable', async () => {
  for (const path of ['/', '/login/', '/register/', '/demo-survey/', '/survey/link/any-link/']) {
    const shell = await rawGet(path, 'gzip, deflate, br');
    expect(shell.status, path).toBe(200);
    expect(shell.headers['content-type'], path).toMatch(/^text\/html/);
    expect(shell.headers['cache-control'], path).toBe('private, no-cache');
  }
});

test("each public page's shell preloads that page's screen, and no staff screen", async () => {
  const screens = {
    '/': 'LandingScreen',
    '/login/': 'LoginScreen',
    '/register/': 'RegisterScreen',
    '/demo-survey/': 'DemoSurveyScreen',
    // The survey screens are in the survey chunk group (vite.config.ts), preloaded by its name.
    '/survey/link/any-link/': 'survey',
  };
  for (const [path, screen] of Object.entries(screens)) {
    const html = (await rawGet(path, null)).body.toString('utf8');
    expect(html, path).toMatch(
      new RegExp(`<link rel="modulepreload" crossorigin href="/react-static/assets/${screen}-`),
    );
    expect(html, path).not.toMatch(/DashboardScreen|TemplatesScreen|ScheduleScreen/);
  }
  // The build manifest the server reads them from is not published.
  expect((await rawGet('/react-static/.vite/manifest.json', null)).status).toBe(404);
});

test('each public page comes with who is signed in, and the app asks no more', async ({ page }) => {
  const pages = {
    '/': 'Proactive Mental Health Support for Universities',
    '/login/': 'Login',
    '/register/': 'Register',
    '/demo-survey/': 'Student Wellness Check',
  };
  for (const [path, heading] of Object.entries(pages)) {
    const asked: string[] = [];
    const onRequest = (request: import('@playwright/test').Request) => {
      if (new URL(request.url()).pathname === '/api/user/') asked.push(request.resourceType());
    };
    page.on('request', onRequest);
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    // The app has drawn its header from the answer: a visitor is offered the login link.
    await expect(page.getByRole('contentinfo')).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }),
    ).toBeVisible();
    page.off('request', onRequest);
    // The server rendered the page from its own answer, which the page carries to the app.
    await expect(page.locator('head link[rel="preload"][as="fetch"][href="/api/user/"]')).toHaveCount(0);
    expect(asked, path).toHaveLength(0);
  }
});
