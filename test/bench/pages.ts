// Page budgets (design section 6): Lighthouse's mobile defaults (simulated slow 4G, a mid-range
// phone's CPU) against the real server on a fresh build, for every public page, the shared survey
// link and a personal invitation link (a campaign's, read off the mail an SMTP listener receives).
// Prints, per page and run, the performance and accessibility scores, LCP, TBT, CLS and the
// compressed JavaScript the page loaded, then each page's median, and fails when a
// median misses a budget:
//   performance >= 0.95, accessibility = 1, compressed JavaScript <= 125 KB (React is about 60 of it).
// The server is the one `npm start` runs: compiled, with the built renderer of the first paint.
// PAGES_RUNS (default 3) sets the runs per page. Chromium is Debian's (CHROMIUM_PATH overrides);
// nothing is downloaded.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, findChromium } from '../e2e/chromium';
import { E2E_DEMO_PASSWORD } from '../e2e/demo-password';
import { TestAgent } from '../helpers/app';
import { campaignRequest } from '../helpers/campaigns';
import { ROOT, startServer, stopServer } from '../helpers/server-process';
import { startSmtpListener } from '../helpers/smtp';
import { benchSmoke } from './support/smoke';

const RUNS = Number(process.env.PAGES_RUNS ?? 3);
const BUDGET = { performance: 0.95, accessibility: 1, scriptBytes: 125_000 };
const KB = 1000;

interface Measure {
  performance: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  scriptBytes: number;
}

interface NetworkItem {
  resourceType?: string;
  transferSize?: number;
}

/** The web app and its renderer into `webRoot`, and the compiled server, as `npm run build` makes them. */
function build(webRoot: string) {
  const script = path.join(ROOT, 'scripts', 'build.mjs');
  execFileSync(process.execPath, [script, 'web', webRoot], { cwd: ROOT, stdio: 'inherit' });
  execFileSync(process.execPath, [script, 'server'], { cwd: ROOT, stdio: 'inherit' });
}

async function demoAdmin(baseUrl: string) {
  const admin = new TestAgent(baseUrl);
  await admin.login('admin@demo.edu', E2E_DEMO_PASSWORD);
  const { body } = await admin.get('/api/survey-templates/');
  const templates = (body?.templates ?? []) as { id: number; used: boolean; hash_link: string }[];
  const active = templates.find((template) => template.used);
  if (!active) throw new Error('Demo University has no active template');
  return { admin, template: active };
}

const INVITED_STUDENT = 'page.bench@demo.edu';

/**
 * A personal invitation link, as a student finds it in the mail: the demo admin imports one
 * student into a group and sends a campaign to it now; the link is read off the mail the test
 * SMTP listener received.
 */
async function invitationPath(baseUrl: string, smtp: Awaited<ReturnType<typeof startSmtpListener>>) {
  const { admin, template } = await demoAdmin(baseUrl);
  const roster = await admin.request({
    method: 'POST',
    url: '/api/roster/',
    payload: `name,email,group\nPage Bench,${INVITED_STUDENT},Page budgets\n`,
    headers: { 'content-type': 'text/csv' },
  });
  if (roster.status !== 200) throw new Error(`roster import failed: ${roster.status} ${roster.text}`);
  const campaign = await admin.post(
    '/api/campaigns/',
    campaignRequest(template.id, ['Page budgets'], { send_now: true, reminder_after_days: 0 }),
  );
  if (campaign.status !== 201) throw new Error(`campaign failed: ${campaign.status} ${campaign.text}`);
  const mail = await smtp.mailTo(INVITED_STUDENT);
  const path = /\/survey\/invite\/[A-Za-z0-9_-]+\//.exec(mail.text)?.[0];
  if (!path) throw new Error(`no invitation link in the mail: ${mail.text}`);
  return path;
}

async function measure(url: string, port: number): Promise<Measure> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const requests = (lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items;
  return {
    performance: lhr.categories.performance?.score ?? 0,
    accessibility: lhr.categories.accessibility?.score ?? 0,
    lcpMs: audit('largest-contentful-paint'),
    tbtMs: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    fcpMs: audit('first-contentful-paint'),
    scriptBytes: (requests ?? [])
      .filter((item) => item.resourceType === 'Script')
      .reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function row(label: string, m: Measure): string {
  return [
    label.padEnd(34),
    m.performance.toFixed(2).padStart(5),
    m.accessibility.toFixed(2).padStart(5),
    `${Math.round(m.fcpMs)}`.padStart(6),
    `${Math.round(m.lcpMs)}`.padStart(6),
    `${Math.round(m.tbtMs)}`.padStart(5),
    m.cls.toFixed(3).padStart(6),
    (m.scriptBytes / KB).toFixed(1).padStart(7),
  ].join(' ');
}

function misses(m: Measure): string[] {
  const missed: string[] = [];
  if (m.performance < BUDGET.performance) missed.push(`performance ${m.performance} < ${BUDGET.performance}`);
  if (m.accessibility < BUDGET.accessibility)
    missed.push(`accessibility ${m.accessibility} < ${BUDGET.accessibility}`);
  if (m.scriptBytes > BUDGET.scriptBytes)
    missed.push(`JavaScript ${(m.scriptBytes / 1000).toFixed(1)} KB > ${BUDGET.scriptBytes / 1000} KB`);
  return missed;
}

export async function run(): Promise<void> {
  const chromePath = findChromium();
  if (!chromePath) throw new Error('No Chromium found: apt-get install chromium, or set CHROMIUM_PATH');
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellspring-pages-'));
  const webRoot = path.join(workDir, 'web');
  console.log('Building the web app and the server...');
  build(webRoot);

  const smtp = await startSmtpListener();
  const server = await startServer(
    {
      SMTP_URL: smtp.url,
      DATA_DIR: path.join(workDir, 'data'),
      SEED_DEMO: '1',
      // The demo's password is generated per installation unless chosen: choose the one it signs in with.
      DEMO_PASSWORD: E2E_DEMO_PASSWORD,
      WEB_ROOT: webRoot,
      LOG_LEVEL: 'error',
    },
    { compiled: true },
  );
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
  });
  const failures: string[] = [];
  const dashboardChunk = fs
    .readdirSync(path.join(webRoot, 'assets'))
    .find((file) => /^DashboardScreen-.*\.js\.br$/.test(file));
  if (dashboardChunk) {
    const bytes = fs.statSync(path.join(webRoot, 'assets', dashboardChunk)).size;
    console.log(`Dashboard screen chunk (charts), loaded only there: ${(bytes / KB).toFixed(1)} KB brotli\n`);
  }
  try {
    const pages = {
      '/': '/',
      '/login/': '/login/',
      '/register/': '/register/',
      '/demo-survey/': '/demo-survey/',
      '/survey/link/{hash}/': `/survey/link/${(await demoAdmin(server.baseUrl)).template.hash_link}/`,
      '/survey/invite/{token}/': await invitationPath(server.baseUrl, smtp),
    };
    console.log(
      `Lighthouse ${RUNS} run(s) per page, mobile defaults. Budgets: performance >= ${BUDGET.performance}, ` +
        `accessibility >= ${BUDGET.accessibility}, JavaScript <= ${BUDGET.scriptBytes / 1000} KB compressed.\n`,
    );
    console.log(`${'page'.padEnd(34)}  perf  a11y  FCPms  LCPms TBTms    CLS   JS KB`);
    // A smoke run measures the one page that proves Lighthouse and the server still work together.
    const measured = benchSmoke ? Object.entries(pages).slice(0, 1) : Object.entries(pages);
    for (const [label, pagePath] of measured) {
      const runs: Measure[] = [];
      for (let index = 0; index < RUNS; index += 1) {
        const url = `${server.baseUrl}${pagePath}`;
        // Lighthouse now and then loses its trace (NO_NAVSTART) on a busy machine: up to two more tries.
        const result = await measure(url, chrome.port)
          .catch(() => measure(url, chrome.port))
          .catch(() => measure(url, chrome.port));
        runs.push(result);
        console.log(row(`${label} (run ${index + 1})`, result));
      }
      const summary: Measure = {
        performance: median(runs.map((r) => r.performance)),
        accessibility: median(runs.map((r) => r.accessibility)),
        lcpMs: median(runs.map((r) => r.lcpMs)),
        tbtMs: median(runs.map((r) => r.tbtMs)),
        cls: median(runs.map((r) => r.cls)),
        fcpMs: median(runs.map((r) => r.fcpMs)),
        scriptBytes: median(runs.map((r) => r.scriptBytes)),
      };
      console.log(row(`${label} median`, summary));
      for (const missed of misses(summary)) failures.push(`${label}: ${missed}`);
    }
  } finally {
    chrome.kill();
    await stopServer(server);
    await smtp.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  if (failures.length) {
    console.error(`\nPage budgets missed:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('\nEvery page is within its budgets.');
  }
}
