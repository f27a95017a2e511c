/**
 * The outage log of a real server process on SQLite says once that the database went and once
 * that it came back, however the outage flickers. Another process takes SQLite's write lock and
 * holds it until a submission has been refused (503 after the busy timeout), lets go just long
 * enough for the submissions waiting behind it to commit, and takes it again, several times
 * over; then lets go for good. Those commits between refusals are no recovery (a full disk lets
 * small commits through in the same way): one "database unavailable" line, one "database
 * available again" line, and the instance not ready while it flickers. (A read-only file cannot
 * be made from outside the process when tests run as root, and a full disk needs a mount.)
 */
import crypto from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../../src/server/db';
import { TestAgent } from '../helpers/app';
import { makeInstitution, makeUser } from '../helpers/factories';
import { type ServerProcess, startServer, stopServer } from '../helpers/server-process';

const STUDENTS = 3;
/** Times the lock is taken again after letting a few commits through. */
const FLICKERS = 3;
/** Only stops a hung run. */
const TEST_LIMIT_MS = 300_000;
/** Only stops a wait for another process that will not come. */
const WAIT_LIMIT_MS = 60_000;

interface Survey {
  template_id: number;
  questions: { id: number; question_type: 'likert' | 'text' }[];
}

/** Submits without pause, retrying a refused submission with the same id, as the web app does. */
class SubmissionLoad {
  readonly statuses: (number | 'no response')[] = [];
  private running = true;
  private readonly loops: Promise<void>[];
  private readonly changed = new EventEmitter();

  constructor(students: TestAgent[], survey: Survey) {
    this.loops = students.map(async (client, s) => {
      for (let n = 0; this.running; n++) {
        const submissionId = `flicker-${s}-${n}-${crypto.randomBytes(3).toString('hex')}`;
        while (this.running) {
          const status = await client
            .post('/api/survey/', {
              survey_template_id: survey.template_id,
              submission_id: submissionId,
              answers: Object.fromEntries(
                survey.questions.map((q) => [String(q.id), q.question_type === 'likert' ? '3' : 'Fine.']),
              ),
            })
            .then(
              (response) => response.status,
              () => 'no response' as const,
            );
          this.statuses.push(status);
          this.changed.emit('outcome');
          if (status === 200) break;
          // The student's pause before trying again, not a wait for the server.
          await delay(50);
        }
      }
    });
  }

  count(status: number) {
    return this.statuses.filter((s) => s === status).length;
  }

  /** Resolves once `done()` holds, woken by each answer; `WAIT_LIMIT_MS` only guards against a hang. */
  async waitUntil(done: () => boolean, what: string) {
    const signal = AbortSignal.timeout(WAIT_LIMIT_MS);
    while (!done()) {
      try {
        await once(this.changed, 'outcome', { signal });
      } catch {
        throw new Error(`still waiting for ${what} after ${this.statuses.length} answers`);
      }
    }
  }

  async stop() {
    this.running = false;
    await Promise.all(this.loops);
  }
}

const countLines = (output: string, text: string) =>
  output.split('\n').filter((line) => line.includes(text)).length;

describe('the outage log of an instance on SQLite', () => {
  let dataDir: string;
  let file: string;
  let server: ServerProcess;
  const students: TestAgent[] = [];
  let survey: Survey;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-outage-log-'));
    file = path.join(dataDir, 'wellness.sqlite');
    const db = openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(db);
    const institution = await makeInstitution(db.kysely);
    const accounts = [];
    for (let i = 0; i < STUDENTS; i++)
      accounts.push(await makeUser(db.kysely, { email: `s${i}@north.edu`, institutionId: institution.id }));
    await db.close();
    server = await startServer({
      DATABASE_URL: `sqlite:${file}`,
      DATA_DIR: dataDir,
      SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
    });
    for (const account of accounts) {
      const client = new TestAgent(server.baseUrl);
      await client.login(account.email, account.password);
      students.push(client);
    }
    survey = (await students[0]?.get('/api/get-user-survey-questions/'))?.body as unknown as Survey;
  }, TEST_LIMIT_MS);

  afterAll(async () => {
    if (server) await stopServer(server, 'SIGKILL');
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'logs one outage and one recovery through a flickering write lock, and is not ready while it flickers',
    async () => {
      const load = new SubmissionLoad(students, survey);
      await load.waitUntil(() => load.count(200) >= 10, 'submissions before the outage');
      const started = performance.now();
      const other = new SqliteDatabase(file);
      const readiness: number[] = [];
      let slipped = 0;
      try {
        for (let flicker = 0; flicker < FLICKERS; flicker++) {
          other.prepare('begin immediate').run();
          const refused = load.count(503);
          await load.waitUntil(() => load.count(503) > refused, 'a submission refused behind the lock');
          // Let the submissions waiting behind the lock commit, then take it again.
          const acknowledged = load.count(200);
          other.prepare('commit').run();
          await load.waitUntil(() => load.count(200) > acknowledged, 'a commit between refusals');
          slipped += load.count(200) - acknowledged;
          readiness.push((await fetch(`${server.baseUrl}/api/health/ready`)).status);
        }
      } finally {
        other.close();
      }
      const released = performance.now();
      await load.waitUntil(
        () => countLines(server.output(), 'database available again') > 0,
        'the log to say the database is available again',
      );
      const backMs = Math.round(performance.now() - released);
      const ready = (await fetch(`${server.baseUrl}/api/health/ready`)).status;
      await load.stop();

      const output = server.output();
      expect(countLines(output, 'database unavailable')).toBe(1);
      expect(countLines(output, 'database available again')).toBe(1);
      expect(slipped, 'commits went through between the refusals').toBeGreaterThan(0);
      // Right after commits slipped through, the instance still says it is not ready.
      expect(readiness.every((status) => status === 503)).toBe(true);
      expect(ready).toBe(200);
      console.log(
        `flickering SQLite lock: ${FLICKERS} refusal spells over ${Math.round((released - started) / 1000)} s, ` +
          `${slipped} commits slipped between them; answers 200: ${load.count(200)}, 503: ${load.count(503)}; ` +
          `ready ${JSON.stringify(readiness)} while flickering; logged one outage, available again ${backMs} ms after the lock was let go`,
      );
    },
    TEST_LIMIT_MS,
  );
});
