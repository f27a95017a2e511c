/**
 * Two real server processes on one PostgreSQL database, with a fault-injecting proxy between
 * them and it, under continuous submissions: every connection dropped at once (a restart), then
 * every new connection refused until each process has turned many submissions away (a longer
 * outage); and, on its own, the live updates' LISTEN connection lost and kept out while it
 * tries again and again. Both processes must live through it, answer 503 with Retry-After
 * meanwhile, serve again once the database is back, keep every acknowledged submission exactly
 * once, and keep their admins' live dashboards current. The machine's PostgreSQL itself is never
 * stopped.
 *
 * How soon they serve again is proven where it is decided, without a clock: the pool serves the
 * first request after an outage (src/server/db/postgres-outage.test.ts) and the listener tries
 * again at least every quarter second (src/server/live/change-source.unit.test.ts). The times
 * measured here are printed for people to read, never asserted.
 */
import crypto from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../src/server/db';
import { RECONNECT_DELAYS_MS } from '../../src/server/live/change-source';
import { TestAgent } from '../helpers/app';
import { createPostgresSchema } from '../helpers/databases';
import { EventStreamClient } from '../helpers/event-stream-client';
import { makeInstitution, makeUser } from '../helpers/factories';
import { FaultProxy } from '../helpers/fault-proxy';
import { type ServerProcess, startServer, stopServer } from '../helpers/server-process';

const postgresUrl = process.env.TEST_DATABASE_URL;
/** The `application_name` of each server's LISTEN connection. */
const LISTEN_APPLICATION = 'wellspring-listen';
const DOMAIN = 'north.edu';
const STUDENTS_PER_SERVER = 3;
/**
 * A restart that takes a while, as the processes see it: new connections are refused until each
 * process has turned this many submissions away (its clients retrying again and again).
 */
const REFUSED_PER_SERVER = 100;
/**
 * The LISTEN connections are kept out until they have been refused this many times each: past
 * the growing waits of their schedule, well into the steady one.
 */
const LISTEN_REFUSALS_EACH = 2 * RECONNECT_DELAYS_MS.length;
/** Only stops a hung run. */
const TEST_LIMIT_MS = 600_000;
/** Only stops a wait for another process that will not come. */
const WAIT_LIMIT_MS = 60_000;

interface Survey {
  template_id: number;
  questions: { id: number; question_type: 'likert' | 'text' }[];
}

interface Outcome {
  /** Which student (and so, which server) asked. */
  student: number;
  submissionId: string;
  status: number | 'no response';
  retryAfter: string | null;
  code: unknown;
}

/** Submits without pause, retrying a refused submission with the same id, as the web app does. */
class SubmissionLoad {
  readonly outcomes: Outcome[] = [];
  readonly acknowledged = new Set<string>();
  private running = true;
  private readonly loops: Promise<void>[];
  private readonly changed = new EventEmitter();

  constructor(students: TestAgent[], survey: Survey) {
    this.loops = students.map(async (client, s) => {
      for (let n = 0; this.running; n++) {
        const submissionId = `outage-${s}-${n}-${crypto.randomBytes(3).toString('hex')}`;
        while (this.running) {
          const outcome = await this.submit(client, s, survey, submissionId);
          this.outcomes.push(outcome);
          if (outcome.status === 200) this.acknowledged.add(submissionId);
          this.changed.emit('outcome');
          if (outcome.status === 200) break;
          // The student's pause before trying again, not a wait for the server.
          await delay(50);
        }
      }
    });
  }

  private async submit(
    client: TestAgent,
    student: number,
    survey: Survey,
    submissionId: string,
  ): Promise<Outcome> {
    const answers = Object.fromEntries(
      survey.questions.map((q) => [String(q.id), q.question_type === 'likert' ? '2' : 'Fine.']),
    );
    try {
      const response = await client.post<{ code?: unknown } | string>('/api/survey/', {
        survey_template_id: survey.template_id,
        submission_id: submissionId,
        answers,
      });
      return {
        student,
        submissionId,
        status: response.status,
        retryAfter: (response.headers['retry-after'] as string | undefined) ?? null,
        code: typeof response.body === 'object' ? response.body?.code : undefined,
      };
    } catch {
      return { student, submissionId, status: 'no response', retryAfter: null, code: undefined };
    }
  }

  /** Resolves once `done()` holds, woken by each answer; `WAIT_LIMIT_MS` only guards against a hang. */
  async waitUntil(done: () => boolean, what: string) {
    const signal = AbortSignal.timeout(WAIT_LIMIT_MS);
    while (!done()) {
      try {
        await once(this.changed, 'outcome', { signal });
      } catch {
        throw new Error(`still waiting for ${what} after ${this.outcomes.length} answers`);
      }
    }
  }

  waitForAcknowledged(count: number) {
    return this.waitUntil(() => this.acknowledged.size >= count, `${count} acknowledged submissions`);
  }

  async stop() {
    this.running = false;
    await Promise.all(this.loops);
  }
}

/**
 * Asks `url` again as soon as each answer arrives until it says 200; says how many asks and how
 * long that took, for the report. `WAIT_LIMIT_MS` only guards against a hang.
 */
async function untilServing(url: string): Promise<{ probes: number; ms: number }> {
  const started = performance.now();
  for (let probes = 1; ; probes++) {
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    const ms = Math.round(performance.now() - started);
    if (status === 200) return { probes, ms };
    if (ms > WAIT_LIMIT_MS) throw new Error(`${url} answered ${status} for ${WAIT_LIMIT_MS} ms`);
  }
}

const countLines = (output: string, text: string) =>
  output.split('\n').filter((line) => line.includes(text)).length;

describe.skipIf(!postgresUrl)('two server processes through PostgreSQL outages', () => {
  let dropSchema: (() => Promise<void>) | undefined;
  let directUrl: string;
  let db: Db;
  let proxy: FaultProxy;
  let dataDir: string;
  const servers: ServerProcess[] = [];
  const students: TestAgent[] = [];
  const streams: EventStreamClient[] = [];
  let survey: Survey;

  beforeAll(async () => {
    const schema = await createPostgresSchema('outage');
    directUrl = schema.url;
    dropSchema = schema.drop;
    db = openDatabase({ kind: 'postgres', url: directUrl });
    await migrateToLatest(db);
    const institution = await makeInstitution(db.kysely, 'North University', [DOMAIN]);
    const staff = await makeUser(db.kysely, {
      email: `admin@${DOMAIN}`,
      role: 'institution_admin',
      institutionId: institution.id,
    });
    const accounts = [];
    for (let i = 0; i < 2 * STUDENTS_PER_SERVER; i++) {
      accounts.push(
        await makeUser(db.kysely, { email: `student${i}@${DOMAIN}`, institutionId: institution.id }),
      );
    }

    const upstream = new URL(postgresUrl as string);
    proxy = await FaultProxy.start(upstream.hostname, Number(upstream.port || 5432));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-outage-'));
    const env = {
      DATABASE_URL: proxy.route(directUrl),
      DATA_DIR: dataDir,
      SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
    };
    servers.push(await startServer(env), await startServer(env));
    for (const [index, account] of accounts.entries()) {
      const client = new TestAgent((servers[index % 2] as ServerProcess).baseUrl);
      await client.login(account.email, account.password);
      students.push(client);
    }
    survey = (await students[0]?.get('/api/get-user-survey-questions/'))?.body as unknown as Survey;
    for (const server of servers) {
      const client = new TestAgent(server.baseUrl);
      await client.login(staff.email, staff.password);
      const stream = await EventStreamClient.open(server.baseUrl, client.cookieHeader());
      expect(stream.status).toBe(200);
      await stream.waitForEvents(1, 30_000);
      streams.push(stream);
    }
  }, TEST_LIMIT_MS);

  afterAll(async () => {
    for (const stream of streams) stream.close();
    for (const server of servers) await stopServer(server, 'SIGKILL');
    proxy?.close();
    await db?.close();
    await dropSchema?.();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function storedCounts(ids: Iterable<string>) {
    const rows = await db.kysely
      .selectFrom('submissions')
      .select(['client_submission_id'])
      .where('client_submission_id', 'in', [...ids])
      .execute();
    const counts = new Map<string, number>();
    for (const row of rows) {
      const id = row.client_submission_id as string;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }

  const totalResponses = async () =>
    Number(
      (
        await db.kysely
          .selectFrom('submissions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it(
    'lives through a dropped pool and a long spell of refused connections: 503 meanwhile, serving again after, nothing lost',
    async () => {
      const load = new SubmissionLoad(students, survey);
      await load.waitForAcknowledged(20);

      // A restart: every connection, idle or busy, ends at once.
      expect(proxy.dropAll()).toBeGreaterThan(0);
      await load.waitForAcknowledged(load.acknowledged.size + 20);

      // A longer outage: nothing gets through until each process has turned many submissions away.
      const outageStart = load.outcomes.length;
      const outageStarted = performance.now();
      proxy.refuse();
      proxy.dropAll();
      const refusedBy = (server: number) =>
        load.outcomes
          .slice(outageStart)
          .filter((outcome) => outcome.status === 503 && outcome.student % servers.length === server).length;
      await load.waitUntil(
        () => servers.every((_server, index) => refusedBy(index) >= REFUSED_PER_SERVER / 2),
        'submissions refused during the outage',
      );
      for (const server of servers) {
        expect((await fetch(`${server.baseUrl}/api/health/live`)).status, 'live during the outage').toBe(200);
        const ready = await fetch(`${server.baseUrl}/api/health/ready`);
        expect(ready.status, 'not ready during the outage').toBe(503);
      }
      await load.waitUntil(
        () => servers.every((_server, index) => refusedBy(index) >= REFUSED_PER_SERVER),
        'submissions refused during the outage',
      );
      const duringOutage = load.outcomes.slice(outageStart);
      const outageMs = Math.round(performance.now() - outageStarted);
      await proxy.accept();
      const recovery = await Promise.all(
        servers.map((server) => untilServing(`${server.baseUrl}/api/health/ready`)),
      );
      const acknowledgedBefore = load.acknowledged.size;
      await load.waitForAcknowledged(acknowledgedBefore + 20);
      await load.stop();

      for (const server of servers) {
        expect(server.child.exitCode, `process alive:\n${server.output().slice(-3000)}`).toBeNull();
      }
      // Every answer to a submission was a success or a 503 the client could act on.
      const refused = load.outcomes.filter((outcome) => outcome.status !== 200);
      expect(duringOutage.filter((outcome) => outcome.status === 503).length).toBeGreaterThan(0);
      expect(
        refused.filter(
          (outcome) =>
            outcome.status !== 503 || outcome.retryAfter !== '2' || outcome.code !== 'DATABASE_UNAVAILABLE',
        ),
      ).toEqual([]);

      // Every acknowledged submission is stored exactly once.
      const counts = await storedCounts(load.acknowledged);
      expect([...load.acknowledged].filter((id) => counts.get(id) !== 1)).toEqual([]);

      // Each process said once per outage that the database went, and once that it came back; no stacks.
      for (const server of servers) {
        const output = server.output();
        const down = countLines(output, 'database unavailable');
        expect(down).toBeGreaterThanOrEqual(1);
        expect(down).toBeLessThanOrEqual(2);
        expect(countLines(output, 'database available again')).toBe(down);
        expect(output).not.toMatch(/Unhandled 'error' event|\n\s+at /);
      }

      // Each admin's open dashboard is still open and hears the next submission.
      const total = await totalResponses();
      for (const stream of streams) {
        expect(stream.ended, 'the dashboard stream lived through the outage').toBe(false);
        await waitForResponses(stream, total);
      }
      const statuses = Object.entries(
        load.outcomes.reduce<Record<string, number>>((tally, outcome) => {
          tally[String(outcome.status)] = (tally[String(outcome.status)] ?? 0) + 1;
          return tally;
        }, {}),
      );
      console.log(
        `database outage: ${load.acknowledged.size} submissions acknowledged, all stored once; ` +
          `answers by status ${JSON.stringify(Object.fromEntries(statuses))}; ` +
          `connections refused for ${outageMs} ms; ` +
          `serving again ${recovery.map(({ probes, ms }) => `${ms} ms (probe ${probes})`).join(' and ')} ` +
          'after the database returned',
      );
    },
    TEST_LIMIT_MS,
  );

  it(
    'brings live updates back when only the LISTEN connection is lost and kept out while it keeps trying',
    async () => {
      for (const stream of streams) await waitForResponses(stream, await totalResponses());
      const refusedBefore = proxy.refusals(LISTEN_APPLICATION);
      expect(proxy.block(LISTEN_APPLICATION)).toBe(2);
      // Kept out until the two listeners have been refused again and again.
      await proxy.waitForRefusals(
        LISTEN_APPLICATION,
        refusedBefore + servers.length * LISTEN_REFUSALS_EACH,
        WAIT_LIMIT_MS,
      );
      const submitted = await students[0]?.post('/api/survey/', {
        survey_template_id: survey.template_id,
        submission_id: `listen-${crypto.randomBytes(4).toString('hex')}`,
        answers: Object.fromEntries(
          survey.questions.map((q) => [String(q.id), q.question_type === 'likert' ? '3' : 'Fine.']),
        ),
      });
      expect(submitted?.status, 'submissions go on without the listener').toBe(200);
      const total = await totalResponses();
      const refused = proxy.refusals(LISTEN_APPLICATION) - refusedBefore;
      const back = performance.now();
      proxy.unblock(LISTEN_APPLICATION);
      // The other instance heard nothing while deaf; it catches up on reconnecting.
      const other = streams[1] as EventStreamClient;
      await waitForResponses(other, total);
      const caughtUpMs = Math.round(performance.now() - back);
      console.log(
        `LISTEN outage: listeners refused ${refused} times; the other instance's dashboard caught up ` +
          `${caughtUpMs} ms after the listener could reconnect`,
      );
    },
    TEST_LIMIT_MS,
  );
});

/** Waits until the stream has delivered numbers that count `total` responses. */
async function waitForResponses(stream: EventStreamClient, total: number, limitMs = 30_000) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (stream.events.some((event) => event.data.num_responses === total)) return;
    const left = deadline - Date.now();
    if (left <= 0)
      throw new Error(
        `no dashboard update with ${total} responses (last: ${stream.events.at(-1)?.data.num_responses})`,
      );
    await stream.waitForEvents(stream.events.length + 1, left).catch(() => undefined);
  }
}
