import crypto from 'node:crypto';
import path from 'node:path';
import { type APIRequestContext, type BrowserContext, type Page, request } from '@playwright/test';
import Database from 'better-sqlite3';
import type { InstrumentAnswers } from '../../src/common/instruments';
import type { Question, TemplateSummary } from '../../src/common/schemas/templates';
import {
  type Account,
  baseUrl,
  createAdmin,
  createInstitutionWithAdmin,
  expect,
  mailedCode,
  mailsTo,
  signIn,
  uniqueId,
} from './support';

/**
 * Fixtures for the administrator screens (dashboard, templates, schedule). Each test that
 * changes data gets an institution of its own (support.ts: createInstitutionWithAdmin), so
 * tests run in parallel without seeing each other's templates, questions or submissions.
 */

async function csrfHeader(
  request: APIRequestContext,
  context: BrowserContext,
): Promise<Record<string, string>> {
  let cookie = (await context.cookies()).find((candidate) => candidate.name === 'csrftoken');
  if (!cookie) {
    await request.get('/api/csrf/');
    cookie = (await context.cookies()).find((candidate) => candidate.name === 'csrftoken');
  }
  if (!cookie) throw new Error('No csrftoken cookie');
  return { 'X-CSRFToken': cookie.value };
}

/** The API as the user signed in on `page` (same cookie jar), for set-up and for checks. */
export function apiOf(page: Page) {
  const context = page.context();
  const request = context.request;

  async function send<T>(method: 'get' | 'post' | 'delete', path: string, data?: unknown): Promise<T> {
    const headers = method === 'get' ? {} : await csrfHeader(request, context);
    const response = await request[method](path, { headers, data });
    expect(response.ok(), `${method.toUpperCase()} ${path}: ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  }

  return {
    send,
    templates: async () =>
      (await send<{ templates: TemplateSummary[] }>('get', '/api/survey-templates/')).templates,
    createTemplate: async () =>
      (await send<{ template: TemplateSummary }>('post', '/api/survey-templates/')).template,
    useTemplate: (id: number) => send('post', `/api/survey-templates/${id}/use/`),
    deleteTemplate: (id: number) => send('delete', '/api/survey-templates/', { template_id: id }),
    questions: async (templateId: number) =>
      (await send<{ questions: Question[] }>('get', `/api/survey-templates/${templateId}/questions/`))
        .questions,
    addQuestion: (templateId: number, question: Record<string, unknown>) =>
      send('post', `/api/survey-templates/${templateId}/questions/`, question),
    deleteQuestion: (templateId: number, questionId: number) =>
      send('delete', `/api/survey-templates/${templateId}/questions/`, { question_id: questionId }),
  };
}

export interface AnswerPlan {
  /** Every Likert answer outside the safety category: "1" (Excellent) to "5" (Very Poor). */
  likert?: string;
  /** Safety items; 2 or more makes the submission urgent (design section 5). */
  safety?: string;
  text?: string;
  /** The answers to each instrument block, by instrument id (e.g. phq9). */
  instruments?: Readonly<Record<string, InstrumentAnswers>>;
}

/**
 * A counsellor or viewer of the institution. The CLI creates admins only (the Team screen
 * invites the rest); the test gives a fresh account its role in the run's database, as an
 * invitation would have made it.
 */
export async function createStaffWithRole(
  institution: { name: string; domain: string },
  role: 'counsellor' | 'viewer',
): Promise<Account> {
  const account = await createAdmin(institution.name, institution.domain);
  withRunDatabase((db) => db.prepare('UPDATE users SET role = ? WHERE email = ?').run(role, account.email));
  return account;
}

export function createCounsellor(institution: { name: string; domain: string }): Promise<Account> {
  return createStaffWithRole(institution, 'counsellor');
}

/** Runs `change` on this run's SQLite database, for set-up no screen offers (such as the past). */
export function withRunDatabase<T>(change: (db: Database.Database) => T): T {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set');
  const db = new Database(path.join(dataDir, 'wellness.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    return change(db);
  } finally {
    db.close();
  }
}

/** A stable respondent: Good answers, never any thought of self-harm. */
export const STABLE: AnswerPlan = { likert: '2', safety: '1' };
/** Elevated: Very Poor everywhere, but no safety concern. */
export const ELEVATED: AnswerPlan = { likert: '5', safety: '1' };
/** Urgent: a safety answer of 2 or more. */
export const URGENT: AnswerPlan = { likert: '4', safety: '3' };

/**
 * Answers a template's shared link as an anonymous respondent (its own cookie jar and client
 * address, so link rate limits count it on its own), following `plan`, then proves the address
 * with the mailed code so the answers count (`prove: false` leaves them unproven).
 */
export async function answerSharedLink(
  hashLink: string,
  respondent: { name: string; email: string },
  { likert = '2', safety = '1', text = 'Doing fine, thanks.', instruments = {} }: AnswerPlan = {},
  { prove = true } = {},
) {
  const address = crypto.randomBytes(3);
  const api = await request.newContext({
    baseURL: baseUrl(),
    extraHTTPHeaders: { 'X-Forwarded-For': `10.${address[0]}.${address[1]}.${Math.max(1, address[2] ?? 1)}` },
  });
  try {
    const csrf = await api.get('/api/csrf/');
    const { csrftoken } = (await csrf.json()) as { csrftoken: string };
    const questions = await api.get(`/api/get-user-survey-questions/${hashLink}/`);
    expect(questions.ok(), await questions.text()).toBe(true);
    const { questions: list } = (await questions.json()) as {
      questions: {
        id: number;
        question_type?: 'likert' | 'text';
        category?: string;
        instrument_id?: string;
      }[];
    };
    const answerTo = (question: (typeof list)[number]) => {
      if (question.instrument_id) return instruments[question.instrument_id] ?? {};
      if (question.question_type === 'text') return text;
      return question.category === 'safety' ? safety : likert;
    };
    const answers = Object.fromEntries(list.map((question) => [String(question.id), answerTo(question)]));
    const response = await api.post(`/api/survey/link/${hashLink}/`, {
      headers: { 'X-CSRFToken': csrftoken },
      data: { student_name: respondent.name, school_email: respondent.email, answers },
    });
    expect(response.ok(), await response.text()).toBe(true);
    const answer = await response.json();
    if (prove) {
      const mailsBefore = mailsTo(respondent.email).length;
      const start = await api.post('/api/verify/start/', {
        headers: { 'X-CSRFToken': csrftoken },
        data: { email: respondent.email, hash_link: hashLink },
      });
      expect(start.ok(), await start.text()).toBe(true);
      const check = await api.post('/api/verify/check/', {
        headers: { 'X-CSRFToken': csrftoken },
        data: {
          email: respondent.email,
          code: await mailedCode(respondent.email, mailsBefore + 1),
          // The answer's own secret, as the survey page keeps it: only answers it names are promoted.
          proof_tokens: answer.proof_token ? [answer.proof_token] : [],
        },
      });
      expect(check.ok(), await check.text()).toBe(true);
    }
    return answer;
  } finally {
    await api.dispose();
  }
}

/** Lets the page use the clipboard, as a person allowing it in the browser prompt would. */
export async function allowClipboard(context: BrowserContext) {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
}

export async function readClipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Makes every clipboard write of the page fail, as a browser refusing access would. */
export async function refuseClipboard(page: Page) {
  await page.addInitScript(() => {
    const refuse = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: refuse, write: refuse, readText: refuse, read: refuse },
    });
  });
}

/**
 * A new institution whose admin, signed in on `page`, has just opened from the Cases list the case
 * an urgent answer through the shared link filed for a new student (Robin).
 */
export async function openUrgentCaseAsAdmin(page: Page) {
  const institution = await createInstitutionWithAdmin();
  await signIn(page, institution.admin);
  const [template] = (await apiOf(page).templates()).filter((candidate) => candidate.used);
  if (!template) throw new Error('The institution has an active template');
  const student = { name: `Robin ${uniqueId()}`, email: `robin-${uniqueId()}@${institution.domain}` };
  await answerSharedLink(template.hash_link, student, URGENT);
  await page.goto('/cases/');
  await page.getByRole('link', { name: student.name }).click();
  return { institution, student };
}
