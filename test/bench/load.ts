// Mixed load: the real server process (`node --import tsx src/server/main.ts`) on a fresh SQLite
// file, driven for LOAD_SECONDS (default 60) by four autocannon runs at once:
//   submissions  logged-in students posting the starter survey      (8 connections)
//   dashboard    an admin reading the dashboard                      (4 connections)
//   autosaves    students saving drafts                              (4 connections)
//   logins       students logging in with their password (argon2id)  (2 connections, 4 per second)
// Every request must succeed: any socket error, timeout or non-2xx answer fails the benchmark.
// The server's resident memory (VmRSS of its process, from /proc) is read when it is idle, after a
// LOAD_WARMUP_SECONDS (default 10) warm-up of the same mix, every second of the run, and at the end;
// the end may not exceed 1.5 x the warmed-up figure + 50 MB.
//
// Logins: 4 per second from one address is 240 a minute, far over the default per-address limit
// of 20, so the server runs with LOGIN_RATE_LIMIT_PER_MINUTE=100000 (README, configuration).
//
// For scale, the same run first measures GET /api/csrf/ alone (the framework's floor on this
// machine) and prints each kind's median against it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { migrateToLatest, openDatabase } from '../../src/server/db';
import { rebuildDashboardRollups } from '../../src/server/features/dashboard';
import { createInstitution } from '../../src/server/features/institutions';
import { hashPassword } from '../../src/server/lib/passwords';
import { createSession } from '../../src/server/lib/sessions';
import { TestAgent } from '../helpers/app';
import { residentBytes, type ServerProcess, startServer, stopServer } from '../helpers/server-process';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const WARMUP_SECONDS = Number(process.env.LOAD_WARMUP_SECONDS ?? 10);
const STUDENTS = 100;
const PASSWORD = 'load-test-passphrase-7';
const LOGINS_PER_SECOND = 4;
const MEMORY_BOUND = { factor: 1.5, extraBytes: 50 * 1024 * 1024 };
const MB = 1024 * 1024;

interface Student {
  email: string;
  cookie: string;
  csrf: string;
}

interface Survey {
  template_id: number;
  questions: { id: number; question_type: 'likert' | 'text' }[];
}

interface Kind {
  name: string;
  connections: number;
  overallRate?: number;
  request: () => { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string };
}

interface KindResult {
  name: string;
  requests: number;
  perSecond: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  failures: string[];
}

// ---------------------------------------------------------------- data

async function prepare(dataDir: string) {
  const db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'wellness.sqlite') });
  await migrateToLatest(db);
  const institution = await createInstitution(db.kysely, { name: 'Load University', domains: ['load.edu'] });
  const passwordHash = await hashPassword(PASSWORD);
  const now = Date.now();
  const insertUser = (email: string, role: 'student' | 'institution_admin') =>
    db.kysely
      .insertInto('users')
      .values({
        institution_id: institution.id,
        email,
        name: email.split('@')[0] ?? email,
        password_hash: passwordHash,
        role,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  const admin = await insertUser('admin@load.edu', 'institution_admin');
  const students: { email: string; sessionId: string }[] = [];
  for (let index = 0; index < STUDENTS; index++) {
    const email = `student${index}@load.edu`;
    const user = await insertUser(email, 'student');
    // Sessions made directly: the login traffic is measured on its own, not spent on set-up.
    students.push({ email, sessionId: (await createSession(db.kysely, user.id)).sessionId });
  }
  // A staff sign-in counts once its second factor is proven.
  const adminSession = (await createSession(db.kysely, admin.id, 'password_and_second_factor')).sessionId;
  // Users written straight into the table: a rebuild counts them as registration would.
  await rebuildDashboardRollups(db.kysely, institution.id);
  await db.close();
  return { students, adminSession };
}

/** The session cookie plus a CSRF token bound to it, fetched from the running server. */
async function withToken(baseUrl: string, sessionId: string): Promise<{ cookie: string; csrf: string }> {
  const client = new TestAgent(baseUrl);
  client.jar.set('sessionid', sessionId);
  const response = await client.get('/api/csrf/');
  return { cookie: client.cookieHeader(), csrf: String(response.body?.csrftoken) };
}

// ---------------------------------------------------------------- load

function runKind(baseUrl: string, kind: Kind, seconds: number): Promise<KindResult> {
  const failures: string[] = [];
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: baseUrl,
        connections: kind.connections,
        duration: seconds,
        ...(kind.overallRate ? { overallRate: kind.overallRate } : {}),
        requests: [
          {
            setupRequest: (request) => ({ ...request, ...kind.request() }),
            onResponse: (status, body) => {
              if ((status < 200 || status >= 300) && failures.length < 5)
                failures.push(`${status} ${body.slice(0, 200)}`);
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          name: kind.name,
          requests: result.requests.total,
          perSecond: result.requests.average,
          errors: result.errors,
          timeouts: result.timeouts,
          non2xx: result.non2xx,
          p50: result.latency.p50,
          p90: result.latency.p90,
          p99: result.latency.p99,
          max: result.latency.max,
          failures,
        });
      },
    );
  });
}

function mixOf(students: Student[], survey: Survey, admin: { cookie: string; csrf: string }): Kind[] {
  let counter = 0;
  const next = () => {
    counter += 1;
    return { n: counter, student: students[counter % students.length] as Student };
  };
  const json = (student: { cookie: string; csrf: string }) => ({
    'content-type': 'application/json',
    cookie: student.cookie,
    'x-csrftoken': student.csrf,
  });
  const answers = (n: number) =>
    Object.fromEntries(
      survey.questions.map((question, index) => [
        String(question.id),
        question.question_type === 'likert'
          ? String(1 + ((n * 7 + index * 3) % 5))
          : `Week ${n}: busy but coping.`,
      ]),
    );
  return [
    {
      name: 'submissions',
      connections: 8,
      request: () => {
        const { n, student } = next();
        return {
          method: 'POST',
          path: '/api/survey/',
          headers: json(student),
          body: JSON.stringify({
            survey_template_id: survey.template_id,
            answers: answers(n),
            submission_id: crypto.randomUUID(),
          }),
        };
      },
    },
    {
      name: 'dashboard',
      connections: 4,
      request: () => ({ method: 'GET', path: '/api/dashboard/', headers: { cookie: admin.cookie } }),
    },
    {
      name: 'autosaves',
      connections: 4,
      request: () => {
        const { n, student } = next();
        return {
          method: 'POST',
          path: '/api/autosave/',
          headers: json(student),
          body: JSON.stringify({
            template_id: survey.template_id,
            student_name: 'Drafting',
            answers: answers(n),
          }),
        };
      },
    },
    {
      name: 'logins',
      connections: 2,
      overallRate: LOGINS_PER_SECOND,
      request: () => {
        const { student } = next();
        // A visitor's token with its secret cookie, as the login page has it.
        return {
          method: 'POST',
          path: '/api/login/',
          headers: {
            'content-type': 'application/json',
            cookie: anonymousCookie,
            'x-csrftoken': anonymousToken,
          },
          body: JSON.stringify({ email: student.email, password: PASSWORD }),
        };
      },
    },
  ];
}

let anonymousCookie = '';
let anonymousToken = '';

async function mixed(baseUrl: string, kinds: Kind[], seconds: number) {
  return Promise.all(kinds.map((kind) => runKind(baseUrl, kind, seconds)));
}

const ms = (value: number) => `${value.toFixed(0).padStart(5)} ms`;

export async function run(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-load-'));
  let server: ServerProcess | undefined;
  try {
    const { students: sessions, adminSession } = await prepare(dataDir);
    server = await startServer({ DATA_DIR: dataDir, LOGIN_RATE_LIMIT_PER_MINUTE: '100000' });
    const { pid, baseUrl } = server;
    const students = await Promise.all(
      sessions.map(async ({ email, sessionId }) => ({ email, ...(await withToken(baseUrl, sessionId)) })),
    );
    const admin = await withToken(baseUrl, adminSession);
    const visitor = new TestAgent(baseUrl);
    await visitor.get('/api/csrf/');
    anonymousCookie = visitor.cookieHeader();
    anonymousToken = visitor.jar.get('csrftoken') as string;
    const surveyClient = new TestAgent(baseUrl);
    surveyClient.jar.set('sessionid', sessions[0]?.sessionId as string);
    const survey = (await surveyClient.get('/api/get-user-survey-questions/')).body as unknown as Survey;
    const kinds = mixOf(students, survey, admin);

    const idleRss = residentBytes(pid);
    const floor = await runKind(
      baseUrl,
      {
        name: 'csrf (floor)',
        connections: 8,
        request: () => ({ method: 'GET', path: '/api/csrf/', headers: {} }),
      },
      5,
    );
    console.log(`Warm-up: ${WARMUP_SECONDS} s of the same mix (not counted)`);
    await mixed(baseUrl, kinds, WARMUP_SECONDS);
    const startRss = residentBytes(pid);

    console.log(`Measuring: ${SECONDS} s of mixed load against ${baseUrl} (pid ${pid})`);
    let peakRss = startRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, residentBytes(pid));
    }, 1000);
    const results = await mixed(baseUrl, kinds, SECONDS);
    clearInterval(sampler);
    const endRss = residentBytes(pid);
    peakRss = Math.max(peakRss, endRss);

    console.log(
      '\nkind          requests   req/s      p50       p90       p99       max   errors  non-2xx  vs floor p50',
    );
    for (const result of results) {
      console.log(
        `${result.name.padEnd(12)} ${String(result.requests).padStart(9)} ${result.perSecond.toFixed(1).padStart(7)} ` +
          `${ms(result.p50)}  ${ms(result.p90)}  ${ms(result.p99)}  ${ms(result.max)} ` +
          `${String(result.errors + result.timeouts).padStart(7)} ${String(result.non2xx).padStart(8)}  ` +
          `${(result.p50 / Math.max(1, floor.p50)).toFixed(1)}x`,
      );
    }
    console.log(
      `${'csrf (floor)'.padEnd(12)} ${String(floor.requests).padStart(9)} ${floor.perSecond.toFixed(1).padStart(7)} ` +
        `${ms(floor.p50)}  ${ms(floor.p90)}  ${ms(floor.p99)}  ${ms(floor.max)}   (alone, before the mix)`,
    );
    const total = results.reduce((sum, result) => sum + result.requests, 0);
    const errors = results.reduce((sum, result) => sum + result.errors + result.timeouts + result.non2xx, 0);
    const bound = startRss * MEMORY_BOUND.factor + MEMORY_BOUND.extraBytes;
    console.log(
      `\nTotal: ${total} requests in ${SECONDS} s, ${errors} errors (socket errors, timeouts and non-2xx)`,
    );
    console.log(
      `Server memory (VmRSS): idle ${(idleRss / MB).toFixed(0)} MB, after warm-up ${(startRss / MB).toFixed(0)} MB, ` +
        `peak ${(peakRss / MB).toFixed(0)} MB, end ${(endRss / MB).toFixed(0)} MB; ` +
        `bound: end <= 1.5 x after warm-up + 50 MB = ${(bound / MB).toFixed(0)} MB`,
    );

    const problems: string[] = [];
    for (const result of results) {
      if (result.errors + result.timeouts + result.non2xx > 0) {
        problems.push(
          `${result.name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx ${result.failures.join(' | ')}`,
        );
      }
      if (result.requests === 0) problems.push(`${result.name}: no request completed`);
    }
    if (endRss > bound)
      problems.push(
        `memory grew beyond the bound: ${(endRss / MB).toFixed(0)} MB > ${(bound / MB).toFixed(0)} MB`,
      );
    if (problems.length > 0) {
      console.error(`\nLOAD FAILED:\n  ${problems.join('\n  ')}`);
      process.exitCode = 1;
    } else {
      console.log('\nLoad OK: no errors, memory within the bound.');
    }
  } finally {
    if (server) await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
