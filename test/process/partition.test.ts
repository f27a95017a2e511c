/**
 * Two real server processes on one PostgreSQL database under continuous submissions; instance A
 * reaches the database through a proxy that black-holes its link (a network partition: nothing
 * gets through, nothing is closed) right after A has sent the dashboard counters' upsert of a
 * submission and before its commit, so A's transaction holds the institution's hot rows
 * (`dashboard_totals`, `dashboard_months`) when it goes silent. Instance B, on its own link, must
 * keep acknowledging submissions: the database rolls A's transaction back once it has been idle
 * DATABASE_IDLE_TRANSACTION_TIMEOUT_MS, shorter here than B's DATABASE_LOCK_TIMEOUT_MS, so B's
 * waits end in success. A must answer its stranded request 503 rather than hang (its
 * DATABASE_QUERY_TIMEOUT_MS), say it is not ready, stay live, and serve again once the link heals.
 * The times measured are printed for people to read, never asserted.
 */
import crypto from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../src/server/db';
import { TestAgent } from '../helpers/app';
import { createPostgresSchema } from '../helpers/databases';
import { makeInstitution, makeUser } from '../helpers/factories';
import { FaultProxy } from '../helpers/fault-proxy';
import { describeOnPostgres } from '../helpers/postgres-only';
import { type ServerProcess, startServer, stopServer } from '../helpers/server-process';

const postgresUrl = process.env.TEST_DATABASE_URL as string;
const DOMAIN = 'north.edu';
const STUDENTS_PER_SERVER = 2;
/**
 * Short, so that the test sees every timeout play out; the relation between them is the point.
 * B's queries wait on A's locks until the database ends A's idle transaction, so B's own query
 * limit leaves room for that second and for a loaded machine (seen: a 2 s limit ran out on B in
 * a CI run sharing two cores, with a 1 s idle limit); A's stranded request still gets its 503.
 */
const TIMEOUTS = {
  DATABASE_IDLE_TRANSACTION_TIMEOUT_MS: '1000',
  DATABASE_LOCK_TIMEOUT_MS: '5000',
  DATABASE_QUERY_TIMEOUT_MS: '4000',
  DATABASE_STATEMENT_TIMEOUT_MS: '8000',
};
/** Only stops a hung run. */
const TEST_LIMIT_MS = 300_000;
/** Only stops a wait for another process that will not come. */
const WAIT_LIMIT_MS = 60_000;

interface Survey {
  template_id: number;
  questions: { id: number; question_type: 'likert' | 'text' }[];
}

interface Outcome {
  server: 'A' | 'B';
  submissionId: string;
  status: number | 'no response';
  retryAfter: string | null;
  code: unknown;
  startedAt: number;
  ms: number;
}

/** Submits without pause, retrying a refused submission with the same id, as the web app does. */
class SubmissionLoad {
  readonly outcomes: Outcome[] = [];
  readonly acknowledged = new Set<string>();
  private running = true;
  private readonly loops: Promise<void>[];
  private readonly changed = new EventEmitter();

  constructor(students: { client: TestAgent; server: 'A' | 'B' }[], survey: Survey) {
    this.loops = students.map(async ({ client, server }, s) => {
      for (let n = 0; this.running; n++) {
        const submissionId = `partition-${s}-${n}-${crypto.randomBytes(3).toString('hex')}`;
        while (this.running) {
          const outcome = await this.submit(client, server, survey, submissionId);
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

  private async submit(client: TestAgent, server: 'A' | 'B', survey: Survey, submissionId: string) {
    const answers = Object.fromEntries(
      survey.questions.map((q) => [String(q.id), q.question_type === 'likert' ? '2' : 'Fine.']),
    );
    const startedAt = performance.now();
    const base = { server, submissionId, startedAt };
    try {
      const response = await client.post<{ code?: unknown } | string>('/api/survey/', {
        survey_template_id: survey.template_id,
        submission_id: submissionId,
        answers,
      });
      return {
        ...base,
        status: response.status,
        retryAfter: (response.headers['retry-after'] as string | undefined) ?? null,
        code: typeof response.body === 'object' ? response.body?.code : undefined,
        ms: performance.now() - startedAt,
      };
    } catch {
      return {
        ...base,
        status: 'no response' as const,
        retryAfter: null,
        code: undefined,
        ms: performance.now() - startedAt,
      };
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

  acknowledgedBy(server: 'A' | 'B', since: number) {
    return this.outcomes.filter((o) => o.server === server && o.status === 200 && o.startedAt >= since)
      .length;
  }

  async stop() {
    this.running = false;
    await Promise.all(this.loops);
  }
}

async function probe(url: string) {
  const started = performance.now();
  const response = await fetch(url, { signal: AbortSignal.timeout(WAIT_LIMIT_MS) });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    ms: Math.round(performance.now() - started),
  };
}

/** Asks `url` again as soon as each answer arrives until it says 200; says how long that took. */
async function untilServing(url: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    const ms = Math.round(performance.now() - started);
    if (status === 200) return ms;
    if (ms > WAIT_LIMIT_MS) throw new Error(`${url} answered ${status} for ${WAIT_LIMIT_MS} ms`);
  }
}

function tally(outcomes: Outcome[]) {
  return outcomes.reduce<Record<string, number>>((counts, outcome) => {
    counts[String(outcome.status)] = (counts[String(outcome.status)] ?? 0) + 1;
    return counts;
  }, {});
}

describeOnPostgres('a partition between one instance and PostgreSQL', () => {
  let dropSchema: (() => Promise<void>) | undefined;
  let db: Db;
  let proxy: FaultProxy;
  let dataDir: string;
  const servers: ServerProcess[] = [];
  const students: { client: TestAgent; server: 'A' | 'B' }[] = [];
  let survey: Survey;

  beforeAll(async () => {
    const schema = await createPostgresSchema('partition');
    dropSchema = schema.drop;
    db = openDatabase({ kind: 'postgres', url: schema.url });
    await migrateToLatest(db);
    const institution = await makeInstitution(db.kysely, 'North University', [DOMAIN]);
    const accounts = [];
    for (let i = 0; i < 2 * STUDENTS_PER_SERVER; i++)
      accounts.push(
        await makeUser(db.kysely, { email: `student${i}@${DOMAIN}`, institutionId: institution.id }),
      );
    const upstream = new URL(postgresUrl);
    proxy = await FaultProxy.start(upstream.hostname, Number(upstream.port || 5432));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-partition-'));
    const env = { ...TIMEOUTS, DATA_DIR: dataDir, SESSION_SECRET: crypto.randomBytes(32).toString('hex') };
    servers.push(
      await startServer({ ...env, DATABASE_URL: proxy.route(schema.url) }),
      await startServer({ ...env, DATABASE_URL: schema.url }),
    );
    for (const [index, account] of accounts.entries()) {
      const server = index % 2 === 0 ? 'A' : 'B';
      const client = new TestAgent((servers[index % 2] as ServerProcess).baseUrl);
      await client.login(account.email, account.password);
      students.push({ client, server });
    }
    survey = (await students[0]?.client.get('/api/get-user-survey-questions/'))?.body as unknown as Survey;
  }, TEST_LIMIT_MS);

  afterAll(async () => {
    for (const server of servers) await stopServer(server, 'SIGKILL');
    proxy?.close();
    await db?.close();
    await dropSchema?.();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'lets the other instance go on acknowledging while the cut-off one answers 503 and says it is not ready',
    async () => {
      const [a, b] = servers as [ServerProcess, ServerProcess];
      const load = new SubmissionLoad(students, survey);
      await load.waitUntil(
        () => load.acknowledgedBy('A', 0) >= 10 && load.acknowledgedBy('B', 0) >= 10,
        'submissions on both instances',
      );

      // A's link goes silent right after it sent a submission's counter upsert, before its commit.
      await proxy.blackHoleAfter('"dashboard_totals"', WAIT_LIMIT_MS);
      const cut = performance.now();
      await load.waitUntil(
        () =>
          load.outcomes.some((o) => o.server === 'A' && o.startedAt < cut && o.startedAt + o.ms > cut) &&
          load.acknowledgedBy('B', cut) >= 20,
        'the stranded submission on A to be answered and B to acknowledge more',
      );
      const readyA = await probe(`${a.baseUrl}/api/health/ready`);
      const readyB = await probe(`${b.baseUrl}/api/health/ready`);
      const liveA = await probe(`${a.baseUrl}/api/health/live`);
      expect(proxy.isBlackHoled, 'still cut off while all this happened').toBe(true);
      expect(readyA.status, JSON.stringify(readyA.body)).toBe(503);
      expect(readyA.body).toMatchObject({ status: 'unavailable', code: 'DATABASE_UNAVAILABLE' });
      expect(readyB.status, JSON.stringify(readyB.body)).toBe(200);
      expect(liveA.status).toBe(200);
      const duringPartition = load.outcomes.filter((o) => o.startedAt + o.ms > cut);
      // A's submissions under way when the link went silent (the one that sent the upsert among them).
      const spanning = load.outcomes.filter(
        (o) => o.server === 'A' && o.startedAt < cut && o.startedAt + o.ms > cut,
      );
      const stranded = (spanning.find((o) => o.status !== 200) ?? spanning[0]) as Outcome;

      proxy.restore();
      const healed = performance.now();
      const recoveredMs = await untilServing(`${a.baseUrl}/api/health/ready`);
      await load.waitUntil(() => load.acknowledgedBy('A', healed) >= 5, 'A to acknowledge again');
      // Ready again means a write of A's committed a quiet second after its last failure: logged by then.
      await load.stop();

      for (const server of servers)
        expect(server.child.exitCode, `process alive:\n${server.output().slice(-3000)}`).toBeNull();
      // The submission A was making when cut off was answered, and answered 503.
      expect(spanning.map((o) => o.status)).toContain(503);
      // Every refusal was a 503 the client can act on, from either instance.
      expect(
        load.outcomes.filter(
          (o) =>
            o.status !== 200 &&
            (o.status !== 503 || o.retryAfter !== '2' || o.code !== 'DATABASE_UNAVAILABLE'),
        ),
      ).toEqual([]);
      // B refused nothing: A's locks were gone before B's lock waits ran out.
      expect(duringPartition.filter((o) => o.server === 'B' && o.status !== 200)).toEqual([]);
      // Every acknowledged submission is stored exactly once; the stranded one was never acknowledged.
      const rows = await db.kysely
        .selectFrom('submissions')
        .select('client_submission_id')
        .where('client_submission_id', 'in', [...load.acknowledged])
        .execute();
      expect(rows).toHaveLength(load.acknowledged.size);

      // A logged its outage once and its return once; B, which waited on A's locks, none.
      const lines = (server: ServerProcess, text: string) =>
        server
          .output()
          .split('\n')
          .filter((line) => line.includes(text)).length;
      expect(lines(a, 'database unavailable')).toBe(1);
      expect(lines(a, 'database available again')).toBe(1);
      expect(lines(b, 'database unavailable')).toBe(0);

      const during = (server: 'A' | 'B') => duringPartition.filter((o) => o.server === server);
      const slowestB = Math.round(Math.max(...during('B').map((o) => o.ms)));
      console.log(
        `partition of A: A answered its stranded submission ${stranded.status} after ${Math.round(stranded.ms)} ms; ` +
          `answers during the partition A ${JSON.stringify(tally(during('A')))}, B ${JSON.stringify(tally(during('B')))} ` +
          `(B's slowest ${slowestB} ms); ready A ${readyA.status} ${String(readyA.body.code)} in ${readyA.ms} ms, ` +
          `B ${readyB.status} in ${readyB.ms} ms; A ready again ${recoveredMs} ms after the link healed; ` +
          `all answers A ${JSON.stringify(tally(load.outcomes.filter((o) => o.server === 'A')))}, ` +
          `B ${JSON.stringify(tally(load.outcomes.filter((o) => o.server === 'B')))}`,
      );
    },
    TEST_LIMIT_MS,
  );
});
