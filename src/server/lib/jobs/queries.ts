import crypto from 'node:crypto';
import type { Executor } from '../../db/executor';
import { isPostgres } from '../../db/executor';

/** A job claimed for one run; `attempts` counts this one. */
export interface JobRow {
  id: number;
  kind: string;
  key: string;
  payload: string;
  attempts: number;
  lease_token: string;
}

/** Adds a pending job unless one with its key exists; returns whether it was added. */
export async function insertJob(
  trx: Executor,
  job: { kind: string; key: string; payload: string; runAt: number; at: number },
): Promise<boolean> {
  const result = await trx
    .insertInto('jobs')
    .values({
      kind: job.kind,
      key: job.key,
      payload: job.payload,
      status: 'pending',
      run_at: job.runAt,
      created_at: job.at,
    })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Takes up to `limit` due jobs for one run, under a lease of `leaseMs`. On PostgreSQL the rows
 * are picked with FOR UPDATE SKIP LOCKED, so instances claiming at the same moment take
 * different jobs; SQLite has one writer at a time anyway. A lease that ran out (its instance
 * died mid-run) makes the job due again.
 */
export async function claimDueJobs(
  db: Executor,
  options: { at: number; limit: number; leaseMs: number },
): Promise<JobRow[]> {
  const { at, limit, leaseMs } = options;
  const leaseToken = crypto.randomBytes(16).toString('hex');
  const rows = await db
    .updateTable('jobs')
    .set((eb) => ({ lease_token: leaseToken, lease_until: at + leaseMs, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('jobs')
        .select('id')
        .where('status', '=', 'pending')
        .where('run_at', '<=', at)
        .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', at)]))
        .orderBy('run_at')
        .orderBy('id')
        .limit(limit)
        .$if(isPostgres(db), (query) => query.forUpdate().skipLocked()),
    )
    .returning(['id', 'kind', 'key', 'payload', 'attempts'])
    .execute();
  return rows.map((row) => ({ ...row, lease_token: leaseToken }));
}

/**
 * Marks the job done in the transaction of its run, if that run still holds it; returns whether
 * it did. On PostgreSQL this also locks the row until the run commits, so no other instance can
 * claim it meanwhile.
 */
export async function finishJob(trx: Executor, job: JobRow, at: number): Promise<boolean> {
  const result = await trx
    .updateTable('jobs')
    .set({ status: 'done', finished_at: at, lease_token: null, lease_until: null, last_error: null })
    .where('id', '=', job.id)
    .where('lease_token', '=', job.lease_token)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Extends the lease of the jobs one claim still holds and has not finished, to `leaseUntil`:
 * the heartbeat of a batch under way. On PostgreSQL the job being run is locked by its own
 * transaction and skipped (nobody can claim it while that lock holds), rather than waited for.
 */
export async function renewLeases(db: Executor, leaseToken: string, leaseUntil: number): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ lease_until: leaseUntil })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('jobs')
        .select('id')
        .where('lease_token', '=', leaseToken)
        .where('status', '=', 'pending')
        .$if(isPostgres(db), (query) => query.forUpdate().skipLocked()),
    )
    .execute();
}

/** Puts a failed job back for a later run, or gives up on it (`retryAt` null). */
export async function failJob(
  db: Executor,
  job: JobRow,
  failure: { error: string; retryAt: number | null },
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({
      status: failure.retryAt === null ? 'failed' : 'pending',
      ...(failure.retryAt === null ? {} : { run_at: failure.retryAt }),
      lease_token: null,
      lease_until: null,
      last_error: failure.error.slice(0, 1000),
    })
    .where('id', '=', job.id)
    .where('lease_token', '=', job.lease_token)
    .execute();
}

/** Gives back jobs claimed and not run (the instance is stopping); the run that never was is not counted. */
export async function releaseJobs(db: Executor, jobs: readonly JobRow[]): Promise<void> {
  if (jobs.length === 0) return;
  await db
    .updateTable('jobs')
    .set((eb) => ({ lease_token: null, lease_until: null, attempts: eb('attempts', '-', 1) }))
    .where(
      'id',
      'in',
      jobs.map((job) => job.id),
    )
    .where('lease_token', 'in', [...new Set(jobs.map((job) => job.lease_token))])
    .where('status', '=', 'pending')
    .execute();
}
