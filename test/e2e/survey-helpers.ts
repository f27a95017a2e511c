import path from 'node:path';
import { type APIRequestContext, type Locator, request } from '@playwright/test';
import Database from 'better-sqlite3';
import { campaignRequest } from '../helpers/campaigns';
import {
  type Account,
  baseUrl,
  completeSecondFactor,
  createAdmin,
  createInstitutionWithAdmin,
  expect,
  mailsTo,
  type Page,
  waitForMails,
} from './support';

/**
 * Fixtures and steps shared by the survey specs. Everything goes through the real server: staff
 * accounts through the CLI, templates and students through the API. Tests that change a
 * template use an institution of their own, so the demo survey stays the same for every test.
 */

export const SUBMIT_BUTTON = 'Submit Survey';
export const MISSING_ANSWERS = 'Please fill in all required fields';

/** An API session of its own (not the page's), signed in as `account`. */
export async function apiSession(
  account: Account,
): Promise<{ api: APIRequestContext; csrf: () => Promise<string> }> {
  const api = await request.newContext({
    baseURL: baseUrl(),
    extraHTTPHeaders: {
      'X-Forwarded-For': `10.250.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`,
    },
  });
  const csrf = async () => {
    const cookie = (await api.storageState()).cookies.find((candidate) => candidate.name === 'csrftoken');
    if (cookie) return cookie.value;
    const response = await api.get('/api/csrf/');
    return ((await response.json()) as { csrftoken: string }).csrftoken;
  };
  const login = await api.post('/api/login/', {
    headers: { 'X-CSRFToken': await csrf() },
    data: { email: account.email, password: account.password },
  });
  expect(login.status(), await login.text()).toBe(200);
  const { user } = (await login.json()) as { user: { second_factor?: string } };
  await completeSecondFactor(api, account, user.second_factor, csrf);
  return { api, csrf };
}

interface TemplateSummary {
  id: number;
  used: boolean;
  hash_link: string;
}

export async function listTemplates(admin: Account): Promise<TemplateSummary[]> {
  const { api } = await apiSession(admin);
  try {
    const response = await api.get('/api/survey-templates/');
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { templates: TemplateSummary[] }).templates;
  } finally {
    await api.dispose();
  }
}

let demoLink: Promise<string> | null = null;

/** The shared link token of Demo University's active template. */
export function demoLinkHash(): Promise<string> {
  // A Demo University admin of this worker's own: staff sign in with a second factor it sets up.
  demoLink ??= createAdmin()
    .then(listTemplates)
    .then((templates) => {
      const active = templates.find((template) => template.used);
      if (!active) throw new Error('Demo University has no active template');
      return active.hash_link;
    });
  return demoLink;
}

/**
 * A personal invitation link as a student finds it in the mail: a new institution's admin
 * imports one student and sends a campaign to them now; the link is read off the mail.
 */
export async function surveyInvitationPath(): Promise<string> {
  return (await surveyInvitation()).link;
}

/**
 * The same, of a campaign that may be anonymous, with the student it was mailed to; its template
 * asks the given instruments too.
 */
export async function surveyInvitation({ anonymous = false, instruments = [] as readonly string[] } = {}) {
  const institution = await createInstitutionWithAdmin();
  const student = `invited@${institution.domain}`;
  const { api, csrf } = await apiSession(institution.admin);
  const roster = await api.post('/api/roster/', {
    headers: { 'X-CSRFToken': await csrf(), 'Content-Type': 'text/csv' },
    data: `name,email,group\nInvited Student,${student},Year 1\n`,
  });
  expect(roster.status(), await roster.text()).toBe(200);
  const template = (await listTemplates(institution.admin)).find((candidate) => candidate.used);
  if (!template) throw new Error(`${institution.name} has no active template`);
  for (const [index, instrumentId] of instruments.entries()) {
    const added = await api.post(`/api/survey-templates/${template.id}/instruments/`, {
      headers: { 'X-CSRFToken': await csrf() },
      data: { instrument_id: instrumentId, order: 50 + index },
    });
    expect(added.status(), await added.text()).toBe(201);
  }
  const campaign = await api.post('/api/campaigns/', {
    headers: { 'X-CSRFToken': await csrf() },
    data: campaignRequest(template.id, ['Year 1'], { send_now: true, reminder_after_days: 0, anonymous }),
  });
  expect(campaign.status(), await campaign.text()).toBe(201);
  await api.dispose();
  await waitForMails(student, 1);
  const link = /\/survey\/invite\/[A-Za-z0-9_-]+\//.exec(mailsTo(student)[0]?.text ?? '')?.[0];
  if (!link) throw new Error(`No invitation link in the mail to ${student}`);
  return { link, student, institution };
}

/** Rows of a table, read straight from this run's database (a test's own checks). */
export function readRows(query: string, ...values: unknown[]): Record<string, unknown>[] {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the specs through `npx playwright test`.');
  const db = new Database(path.join(dataDir, 'wellness.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(query).all(...values) as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

/** Submissions stored for an email, read straight from this run's database. */
export function countSubmissions(email: string): number {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the specs through `npx playwright test`.');
  const db = new Database(path.join(dataDir, 'wellness.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare('SELECT COUNT(*) AS count FROM submissions WHERE school_email = ?')
      .get(email.toLowerCase()) as {
      count: number;
    };
    return row.count;
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Steps on the survey screen.

export function likertGroups(page: Page): Locator {
  return page.locator('form').getByRole('group');
}

/** The Likert questions' own groups, without the items of instrument blocks. */
export function likertQuestionGroups(page: Page): Locator {
  return page.locator('form div[id^="survey-question-"] > fieldset');
}

/** Each item of the survey's instrument blocks (the demo asks a PHQ-9 and a GAD-7), in order. */
export function instrumentItemGroups(page: Page): Locator {
  return page.locator('form section[id^="survey-question-"] fieldset');
}

/** The safety question of the default template: any answer from "Rarely" up is urgent. */
export function safetyGroup(page: Page): Locator {
  return page.getByRole('group', { name: /thoughts of harming yourself/ });
}

export function textAnswer(page: Page): Locator {
  return page.getByPlaceholder('Enter your answer here...');
}

/**
 * Answers every question: each Likert question with its best value (1), each item of the demo's
 * instruments (PHQ-9, GAD-7) with "Not at all" (0), the text question with a calm sentence;
 * `urgent` answers the safety question with "Rarely" instead.
 */
export async function answerEverything(page: Page, { urgent = false } = {}): Promise<void> {
  const groups = likertGroups(page);
  await expect(groups.first()).toBeVisible();
  const count = await groups.count();
  for (let index = 0; index < count; index += 1) {
    const group = groups.nth(index);
    const calmest = group.locator('input[type="radio"][value="0"]');
    await ((await calmest.count()) > 0 ? calmest : group.locator('input[type="radio"][value="1"]')).check();
  }
  if (urgent) await safetyGroup(page).getByRole('radio', { name: 'Rarely' }).check();
  const text = textAnswer(page);
  if ((await text.count()) > 0) await text.fill('Classes are going well and I am sleeping fine.');
}

/** The next POST of a survey submission (own survey or link). */
export function nextSubmission(page: Page) {
  return page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' &&
      /\/api\/survey\/(link\/[^/]+\/)?$/.test(new URL(response.url()).pathname),
  );
}

/** Survey entries of this tab's session storage (drafts and pending answers). */
export function surveyStorage(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const entries: Record<string, string> = {};
    for (let index = 0; index < sessionStorage.length; index += 1) {
      const key = sessionStorage.key(index);
      if (key?.startsWith('wellness-survey')) entries[key] = sessionStorage.getItem(key) ?? '';
    }
    return entries;
  });
}
