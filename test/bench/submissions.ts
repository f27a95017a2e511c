// Submission throughput: logged-in students posting the 7-question starter survey (one written
// answer) to the real server on a SQLite file with synchronous=FULL, through autocannon. Measured
// in the same run, for scale: a bare Fastify JSON POST endpoint (the HTTP ceiling) and plain
// one-transaction-per-submission inserts into the same schema (the storage ceiling).
//
// Each server runs in a worker thread of its own, so the load generator on the main thread does
// not share its event loop. Environment: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';
import SqliteDatabase from 'better-sqlite3';
import Fastify from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { migrateToLatest, openDatabase } from '../../src/server/db';
import { createInstitution } from '../../src/server/features/institutions/service';
import { findCurrentTemplate } from '../../src/server/features/surveys/queries';
import { listQuestions } from '../../src/server/features/templates/queries';
import { createSession } from '../../src/server/lib/sessions';
import { BENCH_SECRET } from './support/databases';
import { benchSmoke } from './support/smoke';
import { startBenchThread } from './support/threads';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARM_UP_SECONDS = benchSmoke ? 1 : 3;
const STUDENTS = 200;
const SERVER_ROLE = 'submission-benchmark-server';
const TARGETS = { perSecond: 2000, p99Ms: 100, ofStorageCeiling: 0.8 };

type ServerKind = 'app' | 'bare';

interface ServerData {
  role: typeof SERVER_ROLE;
  kind: ServerKind;
  dbFile: string;
  dataDir: string;
}

interface Student {
  cookie: string;
  csrfToken: string;
}

interface Survey {
  templateId: number;
  likertIds: number[];
  safetyIds: number[];
  textIds: number[];
}

interface LoadResult {
  perSecond: number;
  ok: number;
  errors: number;
  p50: number;
  p99: number;
}

// ---------------------------------------------------------------- servers (worker threads)

async function serve(data: ServerData) {
  const port = parentPort;
  if (!port) return;
  if (data.kind === 'bare') {
    const bare = Fastify({ logger: false });
    bare.post('/submit', async () => ({
      success: true,
      message: 'Thank you! Your responses have been submitted.',
    }));
    await bare.listen({ host: '127.0.0.1', port: 0 });
    port.postMessage({ port: (bare.server.address() as { port: number }).port });
    port.once('message', () => void bare.close().then(() => port.postMessage('closed')));
    return;
  }
  const db = openDatabase({ kind: 'sqlite', file: data.dbFile });
  const config = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: '0', DATA_DIR: data.dataDir });
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

if (!isMainThread && (workerData as Partial<ServerData> | null)?.role === SERVER_ROLE) {
  await serve(workerData as ServerData);
}

/** Starts a server in a worker thread; resolves with its port and a way to stop it. */
async function startServer(kind: ServerKind, dbFile: string, dataDir: string) {
  const server = await startBenchThread<{ port: number }>(import.meta.url, {
    role: SERVER_ROLE,
    kind,
    dbFile,
    dataDir,
  } satisfies ServerData);
  return { port: server.ready.port, stop: server.stop };
}

// ---------------------------------------------------------------- data

/** A migrated database with the starter template and logged-in students (sessions made directly: no argon2). */
async function prepareDatabase(dbFile: string, studentCount: number) {
  const db = openDatabase({ kind: 'sqlite', file: dbFile });
  await migrateToLatest(db);
  const institution = await createInstitution(db.kysely, {
    name: 'Benchmark University',
    domains: ['bench.edu'],
  });
  const template = await findCurrentTemplate(db.kysely, institution.id);
  if (!template) throw new Error('the starter template is missing');
  const questions = await listQuestions(db.kysely, template.id);
  const sessionIds: string[] = [];
  for (let index = 0; index < studentCount; index++) {
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
  return { survey, sessionIds, institutionId: institution.id };
}

/** What the browser holds after loading the page: the session cookie plus a CSRF token bound to it. */
async function loggedInStudent(port: number, sessionId: string): Promise<Student> {
  const response = await fetch(`http://127.0.0.1:${port}/api/csrf/`, {
    headers: { cookie: `sessionid=${sessionId}` },
  });
  const { csrftoken } = (await response.json()) as { csrftoken: string };
  const cookies = response.headers.getSetCookie().map((header) => header.split(';')[0]);
  return { cookie: [`sessionid=${sessionId}`, ...cookies].join('; '), csrfToken: csrftoken };
}

const WRITTEN = [
  'Busy week, but okay.',
  'Exams are coming up.',
  'Enjoying my classes this term.',
  'Nothing to add.',
];

function submissionBody(survey: Survey): string {
  const answers: Record<string, string> = {};
  for (const id of survey.likertIds) answers[id] = String(1 + Math.floor(Math.random() * 4));
  for (const id of survey.safetyIds) answers[id] = '1';
  for (const id of survey.textIds)
    answers[id] = WRITTEN[Math.floor(Math.random() * WRITTEN.length)] as string;
  return JSON.stringify({
    survey_template_id: survey.templateId,
    answers,
    submission_id: crypto.randomUUID(),
  });
}

// ---------------------------------------------------------------- measurements

async function load(
  url: string,
  seconds: number,
  setup: () => { headers: Record<string, string>; body: string },
) {
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ setupRequest: (request) => ({ ...request, ...setup() }) }],
  });
  const elapsedSeconds = (result.finish.getTime() - result.start.getTime()) / 1000;
  return {
    perSecond: result['2xx'] / elapsedSeconds,
    ok: result['2xx'],
    errors: result.errors + result.timeouts + result.non2xx,
    p50: result.latency.p50,
    p99: result.latency.p99,
  } satisfies LoadResult;
}

/** Warm-up (JIT, caches, WAL file) first; only the second run counts. Returns both acknowledged counts. */
async function measure(url: string, setup: () => { headers: Record<string, string>; body: string }) {
  const warmUp = await load(url, WARM_UP_SECONDS, setup);
  const measured = await load(url, SECONDS, setup);
  return { measured, acknowledged: warmUp.ok + measured.ok };
}

/** Plain inserts into the same schema, one transaction (one disk flush) per submission. */
async function storageCeiling(dbFile: string, seconds: number): Promise<number> {
  const { survey, institutionId } = await prepareDatabase(dbFile, 1);
  const sqlite = new SqliteDatabase(dbFile);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  const respondentId = Number(
    sqlite
      .prepare(
        'insert into respondents (institution_id, email, name, user_id, created_at) values (?, ?, ?, null, ?)',
      )
      .run(institutionId, 'ceiling@bench.edu', 'Ceiling', Date.now()).lastInsertRowid,
  );
  const insertSubmission = sqlite.prepare(
    `insert into submissions (institution_id, template_id, respondent_id, user_id, client_submission_id, student_name,
       school_email, tier, reasons, likert_mean, created_at) values (?, ?, ?, null, ?, ?, ?, 'none', '[]', ?, ?)`,
  );
  const insertAnswer = sqlite.prepare(
    `insert into answers (submission_id, question_id, question_text, question_type, category, value)
       values (?, ?, 'Question', ?, 'general', ?)`,
  );
  const store = sqlite.transaction(() => {
    const submissionId = insertSubmission.run(
      institutionId,
      survey.templateId,
      respondentId,
      crypto.randomUUID(),
      'Ceiling',
      'ceiling@bench.edu',
      2.5,
      Date.now(),
    ).lastInsertRowid;
    for (const id of [...survey.likertIds, ...survey.safetyIds])
      insertAnswer.run(submissionId, id, 'likert', '2');
    for (const id of survey.textIds) insertAnswer.run(submissionId, id, 'text', 'Busy week, but okay.');
  });
  const started = performance.now();
  let stored = 0;
  while (performance.now() - started < seconds * 1000) {
    store();
    stored++;
  }
  const perSecond = stored / ((performance.now() - started) / 1000);
  sqlite.close();
  return perSecond;
}

function countSubmissions(dbFile: string): number {
  const sqlite = new SqliteDatabase(dbFile, { readonly: true });
  const row = sqlite.prepare('select count(*) as count from submissions').get() as { count: number };
  sqlite.close();
  return row.count;
}

// ---------------------------------------------------------------- report

const fixed = (value: number, digits = 0) => value.toFixed(digits).padStart(8);
const row = (label: string, result: LoadResult) =>
  `${label.padEnd(34)}${fixed(result.perSecond)}${fixed(result.p50, 1)}${fixed(result.p99, 1)}${fixed(result.errors)}`;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

export async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-bench-'));
  try {
    const ceiling = await storageCeiling(
      path.join(dir, 'ceiling.sqlite'),
      benchSmoke ? 1 : Math.max(3, SECONDS / 2),
    );

    const bare = await startServer('bare', '', dir);
    const bareBody = submissionBody({
      templateId: 1,
      likertIds: [1, 2, 3, 4, 5],
      safetyIds: [6],
      textIds: [7],
    });
    const bareRun = await measure(`http://127.0.0.1:${bare.port}/submit`, () => ({
      headers: { 'content-type': 'application/json' },
      body: bareBody,
    }));
    await bare.stop();

    const dbFile = path.join(dir, 'app.sqlite');
    const { survey, sessionIds } = await prepareDatabase(dbFile, STUDENTS);
    const app = await startServer('app', dbFile, dir);
    const students = await Promise.all(sessionIds.map((id) => loggedInStudent(app.port, id)));
    let next = 0;
    const appRun = await measure(`http://127.0.0.1:${app.port}/api/survey/`, () => {
      const student = students[next++ % students.length] as Student;
      return {
        headers: {
          'content-type': 'application/json',
          cookie: student.cookie,
          'x-csrftoken': student.csrfToken,
        },
        body: submissionBody(survey),
      };
    });
    await app.stop();
    const stored = countSubmissions(dbFile);

    const { measured } = appRun;
    console.log(
      `${CONNECTIONS} connections, ${SECONDS} s per run after a ${WARM_UP_SECONDS} s warm-up; SQLite WAL, synchronous=FULL; ` +
        `${survey.likertIds.length + survey.safetyIds.length + survey.textIds.length}-question survey incl. ${survey.textIds.length} written answer\n`,
    );
    console.log(
      `${''.padEnd(34)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'errors'.padStart(8)}`,
    );
    console.log(row('bare Fastify JSON POST (ceiling)', bareRun.measured));
    console.log(row('POST /api/survey/ (durable)', measured));
    console.log(`${'storage ceiling (1 tx/submission)'.padEnd(34)}${fixed(ceiling)}`);
    console.log(
      `\nend to end / bare Fastify:    ${(measured.perSecond / bareRun.measured.perSecond).toFixed(2)}` +
        `\nend to end / storage ceiling: ${(measured.perSecond / ceiling).toFixed(2)}` +
        // Every acknowledged submission must be on disk; a few more may be, answered after the load stopped listening.
        `\nstored / acknowledged:        ${stored} / ${appRun.acknowledged}${stored >= appRun.acknowledged ? ' (none lost)' : '  LOST SUBMISSIONS'}`,
    );
    console.log(
      `\ntargets: >= ${TARGETS.perSecond}/s ${verdict(measured.perSecond >= TARGETS.perSecond)}; ` +
        `0 errors ${verdict(measured.errors === 0)}; p99 < ${TARGETS.p99Ms} ms ${verdict(measured.p99 < TARGETS.p99Ms)}; ` +
        `>= ${TARGETS.ofStorageCeiling} x storage ceiling ${verdict(measured.perSecond >= TARGETS.ofStorageCeiling * ceiling)}`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
