// Submission throughput: logged-in students posting the 7-question starter survey (one written
// answer) to the real server on a SQLite file with synchronous=FULL, through autocannon; then the
// same template with a PHQ-9 and a GAD-7 block after it, on a database of its own, and the ratio
// of the two (scoring and storing instrument results must keep at least 0.9 of the starter's
// rate). Measured in the same run, for scale: a bare Fastify JSON POST endpoint (the HTTP
// ceiling) and plain one-transaction-per-submission inserts into the same schema (the storage
// ceiling).
//
// Each server runs in a worker thread of its own, so the load generator on the main thread does
// not share its event loop. Environment: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50),
// BENCH_ROUNDS (turns the two templates take, default 4).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';
import SqliteDatabase from 'better-sqlite3';
import Fastify from 'fastify';
import { INSTRUMENTS, type InstrumentId } from '../../src/common/instruments';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { migrateToLatest, openDatabase } from '../../src/server/db';
import { createInstitution } from '../../src/server/features/institutions';
import { findCurrentTemplate } from '../../src/server/features/surveys';
import { addInstrumentBlock, listQuestions } from '../../src/server/features/templates';
import { createSession } from '../../src/server/lib/sessions';
import { BENCH_SECRET } from './support/databases';
import { benchSmoke, verdict } from './support/smoke';
import { startBenchThread } from './support/threads';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARM_UP_SECONDS = benchSmoke ? 1 : 3;
/** Uncounted start of each turn (see load). */
const TURN_SETTLE_SECONDS = benchSmoke ? 0 : 1;
/** Turns each template's measured time is split into (BENCH_ROUNDS, default 4). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 4));
const STUDENTS = 200;
const SERVER_ROLE = 'submission-benchmark-server';
const TARGETS = { perSecond: 2000, p99Ms: 100, ofStorageCeiling: 0.8, instrumentsOfStarter: 0.9 };
/** The instruments the second template adds after the starter questions. */
const BENCH_INSTRUMENTS: readonly InstrumentId[] = ['phq9', 'gad7'];

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
  instruments: { id: number; instrumentId: InstrumentId }[];
}

interface LoadResult {
  perSecond: number;
  ok: number;
  errors: number;
  p50: number;
  p99: number;
  /** The time the rate is counted over, and the 2xx responses in it. */
  seconds: number;
  counted: number;
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

/**
 * A migrated database with the starter template (and, when given, instrument blocks after its
 * questions) and logged-in students (sessions made directly: no argon2).
 */
async function prepareDatabase(
  dbFile: string,
  studentCount: number,
  instruments: readonly InstrumentId[] = [],
) {
  const db = openDatabase({ kind: 'sqlite', file: dbFile });
  await migrateToLatest(db);
  const institution = await createInstitution(db.kysely, {
    name: 'Benchmark University',
    domains: ['bench.edu'],
  });
  const template = await findCurrentTemplate(db.kysely, institution.id);
  if (!template) throw new Error('the starter template is missing');
  for (const [index, instrumentId] of instruments.entries())
    await addInstrumentBlock({
      db: db.kysely,
      institutionId: institution.id,
      templateId: template.id,
      instrumentId,
      order: 100 + index,
    });
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
    instruments: questions.flatMap((q) =>
      q.instrument_id ? [{ id: q.id, instrumentId: q.instrument_id }] : [],
    ),
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

/**
 * Every item of the instrument answered "Not at all" or "Several days" at random, PHQ-9 item 9
 * always "Not at all": totals up to the mild band, as most students answer, so the instrument
 * run measures scoring and storing results rather than opening cases.
 */
function instrumentAnswers(instrumentId: InstrumentId): Record<string, number> {
  return Object.fromEntries(
    INSTRUMENTS[instrumentId].items.map((item) => [
      item.id,
      item.id === 'phq9_9' ? 0 : Math.floor(Math.random() * 2),
    ]),
  );
}

function submissionBody(survey: Survey): string {
  const answers: Record<string, string | Record<string, number>> = {};
  for (const block of survey.instruments) answers[block.id] = instrumentAnswers(block.instrumentId);
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

/**
 * Loads the server for `seconds` after `settleSeconds` whose responses are not counted in the
 * rate: each connection opens anew, and the first commits hold one submission each until the
 * queue behind the disk flush fills (group commit), so a short turn's first second says more
 * about that ramp than about the server. Every 2xx counts as acknowledged either way.
 */
async function load(
  url: string,
  seconds: number,
  setup: () => { headers: Record<string, string>; body: string },
  settleSeconds = 0,
) {
  const countFrom = performance.now() + settleSeconds * 1000;
  let counted = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        method: 'POST',
        connections: CONNECTIONS,
        duration: seconds + settleSeconds,
        requests: [{ setupRequest: (request) => ({ ...request, ...setup() }) }],
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on('response', (_client, statusCode) => {
      if (statusCode >= 200 && statusCode < 300 && performance.now() >= countFrom) counted++;
    });
  });
  const countedSeconds = (performance.now() - countFrom) / 1000;
  return {
    perSecond: counted / countedSeconds,
    ok: result['2xx'],
    errors: result.errors + result.timeouts + result.non2xx,
    p50: result.latency.p50,
    p99: result.latency.p99,
    seconds: countedSeconds,
    counted,
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

/** The real server on a database of its own, its students logged in to post the template's survey. */
async function startApp(dbFile: string, dataDir: string, instruments: readonly InstrumentId[]) {
  const { survey, sessionIds } = await prepareDatabase(dbFile, STUDENTS, instruments);
  const app = await startServer('app', dbFile, dataDir);
  const students = await Promise.all(sessionIds.map((id) => loggedInStudent(app.port, id)));
  let next = 0;
  const setup = () => {
    const student = students[next++ % students.length] as Student;
    return {
      headers: {
        'content-type': 'application/json',
        cookie: student.cookie,
        'x-csrftoken': student.csrfToken,
      },
      body: submissionBody(survey),
    };
  };
  return { survey, dbFile, url: `http://127.0.0.1:${app.port}/api/survey/`, setup, stop: app.stop };
}

type RunningApp = Awaited<ReturnType<typeof startApp>>;

/** Load runs added up: the rate over their whole time, the median of their p50s, the worst p99. */
function combined(results: readonly LoadResult[]): LoadResult {
  const ok = results.reduce((sum, result) => sum + result.ok, 0);
  const counted = results.reduce((sum, result) => sum + result.counted, 0);
  const p50s = results.map((result) => result.p50).sort((a, b) => a - b);
  return {
    perSecond: counted / results.reduce((sum, result) => sum + result.seconds, 0),
    ok,
    counted,
    errors: results.reduce((sum, result) => sum + result.errors, 0),
    p50: p50s[Math.floor(p50s.length / 2)] ?? 0,
    p99: Math.max(...results.map((result) => result.p99)),
    seconds: results.reduce((sum, result) => sum + result.seconds, 0),
  };
}

/**
 * Both servers measured in turns (A B, B A, A B ...), so a change in what else the machine is
 * doing weighs on both alike and their ratio stays fair; each gets SECONDS in all after a warm-up.
 */
async function measureInTurns(apps: readonly RunningApp[]) {
  const turns = apps.map(() => ({ runs: [] as LoadResult[], acknowledged: 0 }));
  for (const [index, app] of apps.entries()) {
    const warmUp = await load(app.url, WARM_UP_SECONDS, app.setup);
    (turns[index] as (typeof turns)[number]).acknowledged += warmUp.ok;
  }
  const slice = Math.max(1, Math.round(SECONDS / ROUNDS));
  for (let round = 0; round < ROUNDS; round++) {
    const order = apps.map((_, index) => index);
    if (round % 2 === 1) order.reverse();
    for (const index of order) {
      const app = apps[index] as RunningApp;
      const turn = turns[index] as (typeof turns)[number];
      const result = await load(app.url, slice, app.setup, TURN_SETTLE_SECONDS);
      turn.runs.push(result);
      turn.acknowledged += result.ok;
    }
  }
  return turns.map((turn) => ({ measured: combined(turn.runs), acknowledged: turn.acknowledged }));
}

function lossReport({ stored, acknowledged }: { stored: number; acknowledged: number }): string {
  return `${stored} / ${acknowledged}${stored >= acknowledged ? ' (none lost)' : '  LOST SUBMISSIONS'}`;
}

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
      instruments: [],
    });
    const bareRun = await measure(`http://127.0.0.1:${bare.port}/submit`, () => ({
      headers: { 'content-type': 'application/json' },
      body: bareBody,
    }));
    await bare.stop();

    const apps = [
      await startApp(path.join(dir, 'app.sqlite'), dir, []),
      await startApp(path.join(dir, 'instruments.sqlite'), dir, BENCH_INSTRUMENTS),
    ] as const;
    const measuredApps = await measureInTurns(apps);
    for (const app of apps) await app.stop();
    // Every acknowledged submission must be on disk once its server has stopped.
    const [starter, withInstruments] = measuredApps.map((figures, index) => ({
      ...figures,
      stored: countSubmissions((apps[index] as RunningApp).dbFile),
    }));
    if (!starter || !withInstruments) throw new Error('both templates are measured');

    const { measured } = starter;
    const { survey } = apps[0];
    const instrumentsRatio = withInstruments.measured.perSecond / measured.perSecond;
    console.log(
      `${CONNECTIONS} connections, ${SECONDS} s per run after a ${WARM_UP_SECONDS} s warm-up (the two templates in ${ROUNDS} alternating turns, each counted after its first ${TURN_SETTLE_SECONDS} s); ` +
        'SQLite WAL, synchronous=FULL; ' +
        `${survey.likertIds.length + survey.safetyIds.length + survey.textIds.length}-question survey incl. ${survey.textIds.length} written answer` +
        `; the instrument template adds ${BENCH_INSTRUMENTS.map((id) => INSTRUMENTS[id].name).join(' and ')}\n`,
    );
    console.log(
      `${''.padEnd(34)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'errors'.padStart(8)}`,
    );
    console.log(row('bare Fastify JSON POST (ceiling)', bareRun.measured));
    console.log(row('POST /api/survey/ (durable)', measured));
    console.log(row('  same + PHQ-9 and GAD-7', withInstruments.measured));
    console.log(`${'storage ceiling (1 tx/submission)'.padEnd(34)}${fixed(ceiling)}`);
    console.log(
      `\nend to end / bare Fastify:    ${(measured.perSecond / bareRun.measured.perSecond).toFixed(2)}` +
        `\nend to end / storage ceiling: ${(measured.perSecond / ceiling).toFixed(2)}` +
        `\ninstruments / starter:        ${instrumentsRatio.toFixed(2)}` +
        // Every acknowledged submission must be on disk; a few more may be, answered after the load stopped listening.
        `\nstored / acknowledged:        ${lossReport(starter)}; with instruments ${lossReport(withInstruments)}`,
    );
    console.log(
      `\ntargets: >= ${TARGETS.perSecond}/s ${verdict(measured.perSecond >= TARGETS.perSecond)}; ` +
        `0 errors ${verdict(measured.errors === 0 && withInstruments.measured.errors === 0)}; p99 < ${TARGETS.p99Ms} ms ${verdict(measured.p99 < TARGETS.p99Ms)}; ` +
        `>= ${TARGETS.ofStorageCeiling} x storage ceiling ${verdict(measured.perSecond >= TARGETS.ofStorageCeiling * ceiling)}; ` +
        `instruments >= ${TARGETS.instrumentsOfStarter} x starter ${verdict(instrumentsRatio >= TARGETS.instrumentsOfStarter)}`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
