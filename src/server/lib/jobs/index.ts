import { EventEmitter, once } from 'node:events';
import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod/mini';
import type { DatabaseClock } from '../../db/clock';
import type { Executor } from '../../db/executor';
import { parseStoredJson } from '../../db/stored-json';
import { type CommitHooks, writeTransaction } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { MAX_ATTEMPTS, retryDelay } from '../backoff';
import { yieldToEventLoop } from '../event-loop';
import { type Poller, startPoller } from '../poller';
import { now, SECOND } from '../time';
import {
  claimDueJobs,
  failJob,
  finishJob,
  insertJob,
  type JobRow,
  releaseJobs,
  renewLeases,
} from './queries';

/**
 * Durable jobs (design section 10): sending, reminders, escalations. A job's run and everything
 * it writes (rows, mail in the outbox, follow-up jobs) commit in one transaction with the job
 * being marked done, so a job's effects happen exactly once: a run that fails or whose process
 * dies leaves nothing behind, and the job runs again after its lease.
 */

/** What one run of a job gets: its transaction, commit hooks, payload and the time of the run. */
export interface JobRun<Payload> {
  trx: Transaction<Database>;
  hooks: CommitHooks;
  payload: Payload;
  key: string;
  at: number;
}

/** A kind of job: its name, the schema of its payload and what a run does. */
export interface JobKind<Schema extends z.core.$ZodType = z.core.$ZodType> {
  kind: string;
  payload: Schema;
  run(run: JobRun<z.output<Schema>>): Promise<void>;
}

/**
 * Schedules work in the caller's transaction, so it exists exactly when its cause does. The key
 * names the work itself (`case-escalation:12:3`, `campaign:7:round:2026-11-30`): scheduling a key
 * that exists already does nothing and returns false, which is what keeps work from doubling
 * when two instances or two retries schedule the same thing.
 */
export function scheduleJob<Schema extends z.core.$ZodType>(
  trx: Executor,
  job: Pick<JobKind<Schema>, 'kind'>,
  options: { key: string; runAt: number; payload: z.input<Schema>; at?: number },
): Promise<boolean> {
  return insertJob(trx, {
    kind: job.kind,
    key: options.key,
    payload: JSON.stringify(options.payload),
    runAt: options.runAt,
    at: options.at ?? now(),
  });
}

/**
 * How long a claim holds its jobs without news from its instance. Kept short, and renewed by a
 * heartbeat while the batch runs (a run may take longer than this), so that the jobs of an
 * instance that died are taken over by another within seconds rather than minutes.
 */
export const JOB_LEASE_MS = 15 * SECOND;
/** How often a batch under way renews its lease: a few renewals fit in one lease. */
export const LEASE_HEARTBEAT_MS = 5 * SECOND;
const BATCH = 20;

/**
 * Renews the lease of the claimed jobs every `everyMs` until stopped. A renewal that fails (the
 * database is away) is only reported: the lease then runs out, another instance may take the
 * jobs over, and this run finds them gone when it tries to finish them (LeaseLost).
 */
export function holdLeases(options: {
  db: Kysely<Database>;
  leaseToken: string;
  clock: () => number;
  everyMs?: number;
  onError?: (error: unknown) => void;
}): { stop(): Promise<void>; renewed(): Promise<void> } {
  let renewing: Promise<void> | null = null;
  const beats = new EventEmitter();
  const timer = setInterval(() => {
    renewing ??= renewLeases(options.db, options.leaseToken, options.clock() + JOB_LEASE_MS)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        renewing = null;
        beats.emit('renewed');
      });
  }, options.everyMs ?? LEASE_HEARTBEAT_MS);
  timer.unref();
  return {
    /** Resolves after the next renewal, made or failed. */
    renewed: async () => {
      await once(beats, 'renewed');
    },
    async stop() {
      clearInterval(timer);
      await renewing;
    },
  };
}

/** The run lost its job to another instance (its lease ran out): its work is rolled back. */
class LeaseLost extends Error {}

/**
 * Runs the jobs that are due, one batch after another until none is left; returns how many ran.
 * A job whose kind this instance does not know (an older instance during a rollout) or whose run
 * fails is tried again later with a growing delay, and kept as failed after MAX_ATTEMPTS.
 */
export async function runDueJobs(options: {
  db: Kysely<Database>;
  kinds: ReadonlyMap<string, JobKind>;
  /** The time (tests move it); else the database's clock when given, else this machine's. */
  at?: () => number;
  databaseClock?: DatabaseClock;
  onError?: (job: JobRow, error: unknown) => void;
  /** Asked before each claim: a stopping instance takes no more jobs. */
  stopping?: () => boolean;
  /** A lease renewal failed (see holdLeases). */
  onHeartbeatError?: (error: unknown) => void;
  /** How often a batch's lease is renewed; tests shorten it. */
  heartbeatMs?: number;
}): Promise<number> {
  const { db, kinds } = options;
  const clock = options.at ?? options.databaseClock?.now ?? now;
  if (!options.at) await options.databaseClock?.sync();
  let ran = 0;
  for (;;) {
    if (options.stopping?.()) return ran;
    const jobs = await claimDueJobs(db, { at: clock(), limit: BATCH, leaseMs: JOB_LEASE_MS });
    if (jobs.length === 0) return ran;
    const heartbeat = holdLeases({
      db,
      leaseToken: (jobs[0] as JobRow).lease_token,
      clock,
      ...(options.heartbeatMs ? { everyMs: options.heartbeatMs } : {}),
      ...(options.onHeartbeatError ? { onError: options.onHeartbeatError } : {}),
    });
    try {
      ran += await runBatch(jobs);
    } finally {
      await heartbeat.stop();
    }
    if (options.stopping?.()) return ran;
  }

  /** Runs a claimed batch in order; gives back what is left of it when the instance stops. */
  async function runBatch(jobs: JobRow[]): Promise<number> {
    let ran = 0;
    for (const [index, job] of jobs.entries()) {
      if (options.stopping?.()) {
        // Given back rather than left to their lease: another instance runs them at once.
        await releaseJobs(db, jobs.slice(index));
        return ran;
      }
      try {
        await runOne(db, kinds, job, clock());
        ran += 1;
      } catch (error) {
        if (error instanceof LeaseLost) continue;
        options.onError?.(job, error);
        await failJob(db, job, {
          error: error instanceof Error ? error.message : String(error),
          retryAt: job.attempts >= MAX_ATTEMPTS ? null : clock() + retryDelay(job.attempts),
        });
      }
      await yieldToEventLoop();
    }
    return ran;
  }
}

async function runOne(db: Kysely<Database>, kinds: ReadonlyMap<string, JobKind>, job: JobRow, at: number) {
  const kind = kinds.get(job.kind);
  if (!kind) throw new Error(`No handler for jobs of kind ${job.kind}`);
  const payload = parseStoredJson(kind.payload, job.payload);
  if (payload === null) throw new Error(`The payload of job ${job.key} does not fit its kind`);
  await writeTransaction(db, async (trx, hooks) => {
    if (!(await finishJob(trx, job, at))) throw new LeaseLost();
    await kind.run({ trx, hooks, payload, key: job.key, at });
  });
}

export interface JobWorker extends Poller {
  /** Adds a kind of job this instance runs; each feature adds its own as it is registered. */
  handle<Schema extends z.core.$ZodType>(kind: JobKind<Schema>): void;
  /** Starts polling, once every kind has its handler (a due job must not meet an unknown kind). */
  start(): void;
  /** One pass over the due jobs now, at `at` (tests move the clock with it). */
  runDue(at?: () => number): Promise<number>;
}

/**
 * Polls for due jobs and runs them, once started. Every instance runs one; leases keep them
 * from running a job twice, and jobs that fell due while every instance was down run at the
 * first poll. Without `pollMs` it never polls on its own: a test drives it with `runDue`.
 */
export function createJobWorker(options: {
  db: Kysely<Database>;
  pollMs: number | null;
  onError: (error: unknown) => void;
  /** Leases and due times follow it (see DatabaseClock). */
  databaseClock?: DatabaseClock;
  /** After a pass that ran jobs: they may have queued mail. */
  afterRuns?: () => void;
}): JobWorker {
  const kinds = new Map<string, JobKind>();
  let stopping = false;
  const runDue = async (at?: () => number) => {
    const ran = await runDueJobs({
      db: options.db,
      kinds,
      stopping: () => stopping,
      ...(at ? { at } : {}),
      ...(options.databaseClock ? { databaseClock: options.databaseClock } : {}),
      onError: (_job, error) => options.onError(error),
      onHeartbeatError: options.onError,
    });
    if (ran > 0) options.afterRuns?.();
    return ran;
  };
  let poller: Poller | undefined;
  return {
    handle(kind) {
      if (kinds.has(kind.kind)) throw new Error(`Jobs of kind ${kind.kind} already have a handler`);
      kinds.set(kind.kind, kind as unknown as JobKind);
    },
    start() {
      if (poller || options.pollMs === null) return;
      poller = startPoller({ work: () => runDue(), pollMs: options.pollMs, onError: options.onError });
    },
    runDue,
    wake: () => poller?.wake(),
    stop: async () => {
      stopping = true;
      await poller?.stop();
    },
  };
}
