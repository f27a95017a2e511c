// Alerts under load: the submission benchmark's load (logged-in students posting the starter
// survey to the real server on a SQLite file with synchronous=FULL, through autocannon), in
// rounds of two runs: every answer calm (no alerts), and a share of urgent answers, each opening
// or joining a case and mailing the alert contact over real SMTP (a listener in a thread of this
// process). Reports submissions/s of every run, their ratio per round and its median, and, for
// every alert, the time from its submission to the mail being sent (p50, p99).
//
// Environment: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_URGENT_SHARE
// (default 0.1), BENCH_ROUNDS (default 3; the ratio reported is the median of the rounds').
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';
import SqliteDatabase from 'better-sqlite3';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { migrateToLatest, openDatabase } from '../../src/server/db';
import { createInstitution } from '../../src/server/features/institutions';
import { findCurrentTemplate } from '../../src/server/features/surveys';
import { listQuestions } from '../../src/server/features/templates';
import { createSession } from '../../src/server/lib/sessions';
import { startSmtpListener } from '../helpers/smtp';
import { BENCH_SECRET } from './support/databases';
import { benchSmoke, verdict } from './support/smoke';
import { startBenchThread } from './support/threads';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const URGENT_SHARE = Number(process.env.BENCH_URGENT_SHARE ?? 0.1);
const WARM_UP_SECONDS = benchSmoke ? 1 : 3;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const STUDENTS = 200;
const SERVER_ROLE = 'alert-benchmark-server';
const SMTP_ROLE = 'alert-benchmark-smtp';
const ALERT_CONTACT = 'alerts@bench.edu';
const TARGETS = { p99Ms: 5000, ofCalm: 0.8 };

interface ServerData {
  role: typeof SERVER_ROLE;
  dbFile: string;
  dataDir: string;
  smtpUrl: string;
}

interface Survey {
  templateId: number;
  likertIds: number[];
  safetyIds: number[];
  textIds: number[];
}

async function serve(data: ServerData) {
  const port = parentPort;
  if (!port) return;
  const db = openDatabase({ kind: 'sqlite', file: data.dbFile });
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    SEED_DEMO: '0',
    DATA_DIR: data.dataDir,
    SMTP_URL: data.smtpUrl,
    // Every urgent answer of the load stands for a student whose case alerts at once, as proven
    // answers do: the unproven answers' own limits would send most of them to the digest.
    UNPROVEN_ALERTS_PER_INSTITUTION_PER_HOUR: '1000000',
    UNPROVEN_ALERTS_PER_CLIENT_PER_HOUR: '1000000',
  });
  const app = await buildApp({
    db,
    config,
    secret: BENCH_SECRET,
    webRoot: path.join(data.dataDir, 'no-web'),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port.postMessage({ port: (app.server.address() as { port: number }).port });
  port.once('message', async () => {
    await app.close();
    await db.close();
    port.postMessage('closed');
  });
}

/** The mail server, in a thread of its own too: on the load generator's thread it would answer late. */
async function serveSmtp() {
  const port = parentPort;
  if (!port) return;
  const smtp = await startSmtpListener();
  port.postMessage({ url: smtp.url });
  port.once('message', () => void smtp.close().then(() => port.postMessage('closed')));
}

const role = isMainThread ? null : (workerData as { role?: string } | null)?.role;
if (role === SERVER_ROLE) await serve(workerData as ServerData);
if (role === SMTP_ROLE) await serveSmtp();

async function startServer(dbFile: string, dataDir: string, smtpUrl: string) {
  const server = await startBenchThread<{ port: number }>(import.meta.url, {
    role: SERVER_ROLE,
    dbFile,
    dataDir,
    smtpUrl,
  } satisfies ServerData);
  return { port: server.ready.port, stop: server.stop };
}

async function prepareDatabase(dbFile: string) {
  const db = openDatabase({ kind: 'sqlite', file: dbFile });
  await migrateToLatest(db);
  const institution = await createInstitution(db.kysely, {
    name: 'Benchmark University',
    domains: ['bench.edu'],
  });
  await db.kysely
    .updateTable('institutions')
    .set({ alert_emails: JSON.stringify(process.env.BENCH_NO_MAIL ? [] : [ALERT_CONTACT]) })
    .where('id', '=', institution.id)
    .execute();
  const template = await findCurrentTemplate(db.kysely, institution.id);
  if (!template) throw new Error('the starter template is missing');
  const questions = await listQuestions(db.kysely, template.id);
  const sessionIds: string[] = [];
  for (let index = 0; index < STUDENTS; index++) {
    const user = await db.kysely
      .insertInto('users')
      .values({
        institution_id: institution.id,
        email: `student${index}@bench.edu`,
        name: `Student ${index}`,
        password_hash: 'not-used-sessions-are-made-directly',
        role: 'student',
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    sessionIds.push((await createSession(db.kysely, user.id)).sessionId);
  }
  await db.close();
  const survey: Survey = {
    templateId: template.id,
    likertIds: questions
      .filter((q) => q.question_type === 'likert' && q.category !== 'safety')
      .map((q) => q.id),
    safetyIds: questions.filter((q) => q.category === 'safety').map((q) => q.id),
    textIds: questions.filter((q) => q.question_type === 'text').map((q) => q.id),
  };
  return { survey, sessionIds };
}

async function loggedInStudent(port: number, sessionId: string) {
  const response = await fetch(`http://127.0.0.1:${port}/api/csrf/`, {
    headers: { cookie: `sessionid=${sessionId}` },
  });
  const { csrftoken } = (await response.json()) as { csrftoken: string };
  const cookies = response.headers.getSetCookie().map((header) => header.split(';')[0]);
  return { cookie: [`sessionid=${sessionId}`, ...cookies].join('; '), csrfToken: csrftoken };
}

/** A calm answer, or an urgent one (a safety answer of 3) with probability `urgentShare`. */
function submissionBody(survey: Survey, urgentShare: number): string {
  const urgent = Math.random() < urgentShare;
  const answers: Record<string, string> = {};
  for (const id of survey.likertIds) answers[id] = String(1 + Math.floor(Math.random() * 3));
  for (const id of survey.safetyIds) answers[id] = urgent ? '3' : '1';
  for (const id of survey.textIds) answers[id] = 'Busy week, but okay.';
  return JSON.stringify({
    survey_template_id: survey.templateId,
    answers,
    submission_id: crypto.randomUUID(),
  });
}

async function loadRun(port: number, survey: Survey, sessionIds: string[], urgentShare: number) {
  const students = await Promise.all(sessionIds.map((id) => loggedInStudent(port, id)));
  let next = 0;
  const run = (seconds: number) =>
    autocannon({
      url: `http://127.0.0.1:${port}/api/survey/`,
      method: 'POST',
      connections: CONNECTIONS,
      duration: seconds,
      requests: [
        {
          setupRequest: (request) => {
            const student = students[next++ % students.length] as (typeof students)[number];
            return {
              ...request,
              headers: {
                'content-type': 'application/json',
                cookie: student.cookie,
                'x-csrftoken': student.csrfToken,
              },
              body: submissionBody(survey, urgentShare),
            };
          },
        },
      ],
    });
  await run(WARM_UP_SECONDS);
  const result = await run(SECONDS);
  const elapsed = (result.finish.getTime() - result.start.getTime()) / 1000;
  return {
    perSecond: result['2xx'] / elapsed,
    errors: result.errors + result.timeouts + result.non2xx,
    p99: result.latency.p99,
  };
}

/**
 * Submission-to-sent time of every alert: each alert mail of a case belongs to the flagged
 * submission filed just before it in the case's trail.
 */
function alertLatencies(dbFile: string): { latencies: number[]; unsent: number; unsentStates: unknown[] } {
  const sqlite = new SqliteDatabase(dbFile, { readonly: true });
  // Why a mail is not sent, for the report: its status, attempts and last error.
  const unsentStates = sqlite
    .prepare(
      `select status, attempts, last_error, count(*) as mails from mail_outbox where status <> 'sent'
       group by status, attempts, last_error`,
    )
    .all();
  const events = sqlite
    .prepare(
      `select e.case_id, e.kind, s.created_at from case_events e left join submissions s on s.id = e.submission_id
       where e.kind in ('opened', 'submission', 'alert_queued') order by e.case_id, e.id`,
    )
    .all() as { case_id: number; kind: string; created_at: number | null }[];
  const mails = sqlite
    .prepare(
      `select m.case_id, o.sent_at from case_mails m join mail_outbox o on o.id = m.mail_id
       where m.kind = 'alert' order by m.case_id, o.id`,
    )
    .all() as { case_id: number; sent_at: number | null }[];
  sqlite.close();
  const submittedAt = new Map<number, number[]>();
  let last: number | null = null;
  for (const event of events) {
    if (event.kind === 'alert_queued') {
      const list = submittedAt.get(event.case_id) ?? [];
      list.push(last ?? 0);
      submittedAt.set(event.case_id, list);
    } else last = event.created_at;
  }
  const taken = new Map<number, number>();
  const latencies: number[] = [];
  let unsent = 0;
  for (const mail of mails) {
    const index = taken.get(mail.case_id) ?? 0;
    taken.set(mail.case_id, index + 1);
    const submitted = submittedAt.get(mail.case_id)?.[index];
    if (mail.sent_at === null || submitted === undefined) unsent += 1;
    else latencies.push(mail.sent_at - submitted);
  }
  return { latencies: latencies.sort((a, b) => a - b), unsent, unsentStates };
}

function pendingMail(dbFile: string): number {
  const sqlite = new SqliteDatabase(dbFile, { readonly: true });
  const row = sqlite.prepare(`select count(*) as count from mail_outbox where status = 'pending'`).get() as {
    count: number;
  };
  sqlite.close();
  return row.count;
}

const percentile = (sorted: number[], share: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length, Math.ceil(share * sorted.length)) - 1] ?? Number.NaN);

/** Runs one load run of `kind` on a fresh database; the urgent run waits for its alerts to go out. */
async function measure(kind: 'calm' | 'urgent', dbFile: string, dir: string, smtpUrl: string) {
  const { survey, sessionIds } = await prepareDatabase(dbFile);
  const server = await startServer(dbFile, dir, smtpUrl);
  try {
    const result = await loadRun(server.port, survey, sessionIds, kind === 'urgent' ? URGENT_SHARE : 0);
    if (kind === 'urgent') {
      // Every alert queued under load goes out before the figures are read.
      const deadline = Date.now() + 120_000;
      while (pendingMail(dbFile) > 0 && Date.now() < deadline) await delay(200);
    }
    return result;
  } finally {
    await server.stop();
  }
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

export async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-alert-bench-'));
  const smtpWorker = await startBenchThread<{ url: string }>(import.meta.url, { role: SMTP_ROLE });
  const smtp = { url: smtpWorker.ready.url, close: smtpWorker.stop };
  try {
    console.log(
      `${CONNECTIONS} connections, ${SECONDS} s per run after a ${WARM_UP_SECONDS} s warm-up; SQLite WAL, synchronous=FULL; ` +
        `urgent share ${URGENT_SHARE}; alert mail over SMTP to a local listener; ${ROUNDS} rounds, ` +
        'each a run without alerts and one with them, in alternating order so a machine that gets busier or quieter ' +
        'during the benchmark weighs on both alike\n',
    );
    console.log(
      `${'round'.padEnd(8)}${'run'.padEnd(30)}${'req/s'.padStart(8)}${'p99 ms'.padStart(8)}${'errors'.padStart(8)}`,
    );
    const ratios: number[] = [];
    const latencies: number[] = [];
    let unsent = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? (['calm', 'urgent'] as const) : (['urgent', 'calm'] as const);
      const results: Partial<Record<'calm' | 'urgent', Awaited<ReturnType<typeof loadRun>>>> = {};
      for (const kind of order) {
        const dbFile = path.join(dir, `${kind}-${round}.sqlite`);
        const result = await measure(kind, dbFile, dir, smtp.url);
        results[kind] = result;
        if (kind === 'urgent') {
          const alerts = alertLatencies(dbFile);
          latencies.push(...alerts.latencies);
          unsent += alerts.unsent;
          if (alerts.unsentStates.length > 0) console.log('mail not sent:', alerts.unsentStates);
        }
        const label =
          kind === 'calm'
            ? 'POST /api/survey/, no alerts'
            : `POST /api/survey/, ${Math.round(URGENT_SHARE * 100)}% urgent`;
        console.log(
          `${String(round).padEnd(8)}${label.padEnd(30)}${result.perSecond.toFixed(0).padStart(8)}${result.p99.toFixed(1).padStart(8)}${String(result.errors).padStart(8)}`,
        );
      }
      if (results.calm && results.urgent) ratios.push(results.urgent.perSecond / results.calm.perSecond);
    }
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 0.5);
    const p99 = percentile(latencies, 0.99);
    const ratio = median(ratios);
    console.log(
      `\nalerts sent: ${latencies.length} (${unsent} not sent); submission to alert sent: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms` +
        `\nwith alerts / without, per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}; median ${ratio.toFixed(2)}`,
    );
    console.log(
      `\ntargets: p99 < ${TARGETS.p99Ms} ms ${verdict(p99 < TARGETS.p99Ms)}; ` +
        `>= ${TARGETS.ofCalm} x without alerts ${verdict(ratio >= TARGETS.ofCalm)}; ` +
        `every alert sent ${verdict(unsent === 0)}`,
    );
  } finally {
    await smtp.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
