import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../../../../test/helpers/databases';
import { turnsTakenDuring } from '../../../../test/helpers/event-loop';
import type { Database } from '../../db/types';
import { MAX_ATTEMPTS, retryDelay } from '../backoff';
import { enqueueMail } from '../mail/outbox';
import { HOUR } from '../time';
import { createJobWorker, holdLeases, JOB_LEASE_MS, type JobKind, runDueJobs, scheduleJob } from '.';
import { claimDueJobs, finishJob } from './queries';

const START = Date.UTC(2026, 10, 23, 9);

/** A job that mails one address: its effect is a row in the outbox, counted by the tests. */
function mailingJob(options: { failFirst?: number } = {}) {
  let runs = 0;
  const kind: JobKind<z.ZodMiniObject<{ to: z.ZodMiniString }>> = {
    kind: 'test-mail',
    payload: z.object({ to: z.string() }),
    async run({ trx, payload, at }) {
      runs += 1;
      await enqueueMail(trx, { to: payload.to, subject: 'Hello', text: 'Hello' }, at);
      if (runs <= (options.failFirst ?? 0)) throw new Error(`run ${runs} failed after writing`);
    },
  };
  return { kind, runs: () => runs };
}

const kinds = (...list: JobKind[]) => new Map(list.map((kind) => [kind.kind, kind]));

async function mailsTo(db: Kysely<Database>, to: string) {
  return (await db.selectFrom('mail_outbox').select('id').where('to_address', '=', to).execute()).length;
}

async function jobRow(db: Kysely<Database>, key: string) {
  return db.selectFrom('jobs').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
}

describe.each(TEST_DIALECTS)('durable jobs on %s', (dialect) => {
  let test: TestDatabase;
  let db: Kysely<Database>;

  beforeEach(async () => {
    test = await createTestDatabase(dialect);
    db = test.db.kysely;
  });
  afterEach(async () => {
    await test.drop();
  });

  it('keeps one job per key, runs it when due and only once, with its writes', async () => {
    const job = mailingJob();
    const schedule = () =>
      scheduleJob(db, job.kind, { key: 'hello:1', runAt: START + HOUR, payload: { to: 'a@north.edu' } });
    expect(await schedule()).toBe(true);
    expect(await schedule()).toBe(false);

    expect(await runDueJobs({ db, kinds: kinds(job.kind), at: () => START + HOUR - 1 })).toBe(0);
    expect(await runDueJobs({ db, kinds: kinds(job.kind), at: () => START + HOUR })).toBe(1);
    expect(await runDueJobs({ db, kinds: kinds(job.kind), at: () => START + 2 * HOUR })).toBe(0);
    expect(job.runs()).toBe(1);
    expect(await mailsTo(db, 'a@north.edu')).toBe(1);
    expect(await jobRow(db, 'hello:1')).toMatchObject({
      status: 'done',
      finished_at: START + HOUR,
      attempts: 1,
    });
    // Done work stays done: scheduling its key again adds nothing.
    expect(await schedule()).toBe(false);
  });

  it('rolls back a failed run with everything it wrote, retries later, and gives up after the last attempt', async () => {
    const flaky = mailingJob({ failFirst: 1 });
    await scheduleJob(db, flaky.kind, { key: 'flaky', runAt: START, payload: { to: 'flaky@north.edu' } });
    let clock = START;
    const errors: unknown[] = [];
    const run = () =>
      runDueJobs({
        db,
        kinds: kinds(flaky.kind),
        at: () => clock,
        onError: (_job, error) => errors.push(error),
      });

    expect(await run()).toBe(0);
    expect(errors).toHaveLength(1);
    expect(await mailsTo(db, 'flaky@north.edu')).toBe(0);
    expect(await jobRow(db, 'flaky')).toMatchObject({
      status: 'pending',
      run_at: START + retryDelay(1),
      last_error: 'run 1 failed after writing',
    });
    clock = START + retryDelay(1) - 1;
    expect(await run()).toBe(0);
    clock = START + retryDelay(1);
    expect(await run()).toBe(1);
    expect(await mailsTo(db, 'flaky@north.edu')).toBe(1);

    const broken = mailingJob({ failFirst: Number.POSITIVE_INFINITY });
    await scheduleJob(db, broken.kind, { key: 'broken', runAt: clock, payload: { to: 'broken@north.edu' } });
    for (let attempt = 1; attempt <= MAX_ATTEMPTS + 2; attempt++) {
      await runDueJobs({ db, kinds: kinds(broken.kind), at: () => clock });
      clock += 24 * HOUR;
    }
    expect(broken.runs()).toBe(MAX_ATTEMPTS);
    expect(await jobRow(db, 'broken')).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(await mailsTo(db, 'broken@north.edu')).toBe(0);
  });

  it('keeps a job whose kind this instance does not know, or whose payload does not fit, for later', async () => {
    const job = mailingJob();
    await scheduleJob(db, job.kind, {
      key: 'unknown-kind',
      runAt: START,
      payload: { to: 'later@north.edu' },
    });
    await scheduleJob(db, job.kind, { key: 'bad-payload', runAt: START, payload: { to: 5 } as never });
    expect(await runDueJobs({ db, kinds: kinds(), at: () => START })).toBe(0);
    expect(await jobRow(db, 'unknown-kind')).toMatchObject({
      status: 'pending',
      last_error: 'No handler for jobs of kind test-mail',
    });

    const later = START + retryDelay(1);
    expect(await runDueJobs({ db, kinds: kinds(job.kind), at: () => later })).toBe(1);
    expect(await mailsTo(db, 'later@north.edu')).toBe(1);
    expect(await jobRow(db, 'bad-payload')).toMatchObject({ status: 'pending' });
    expect((await jobRow(db, 'bad-payload')).last_error).toContain('does not fit');
  });

  it('runs the jobs that fell due while it was stopped as soon as it starts, not before its kinds are known', async () => {
    const job = mailingJob();
    await scheduleJob(db, job.kind, {
      key: 'overdue',
      runAt: Date.now() - 24 * HOUR,
      payload: { to: 'overdue@north.edu' },
    });
    let afterRuns = 0;
    const worker = createJobWorker({
      db,
      pollMs: 60_000,
      onError: (error) => {
        throw error;
      },
      afterRuns: () => {
        afterRuns += 1;
      },
    });
    try {
      worker.handle(job.kind);
      expect(() => worker.handle(job.kind)).toThrow('already have a handler');
      expect(await mailsTo(db, 'overdue@north.edu')).toBe(0);
      worker.start();
      await expect.poll(() => mailsTo(db, 'overdue@north.edu')).toBe(1);
      await expect.poll(() => afterRuns).toBe(1);
    } finally {
      await worker.stop();
    }
  });

  it('lets the event loop take turns between jobs, even when every step is settled at once', async () => {
    const job = mailingJob();
    for (let n = 0; n < 40; n += 1)
      await scheduleJob(db, job.kind, { key: `turn:${n}`, runAt: START, payload: { to: `s${n}@north.edu` } });
    const { result, turns } = await turnsTakenDuring(() =>
      runDueJobs({ db, kinds: kinds(job.kind), at: () => START }),
    );
    expect(result).toBe(40);
    // Two claims of 20 jobs: other work had turns while they ran, not only once they were through.
    expect(turns).toBeGreaterThanOrEqual(20);
  });

  it('runs each job once when two workers run at the same time', async () => {
    const other = test.openAnother?.();
    const second = other?.kysely ?? db;
    try {
      const job = mailingJob();
      const count = 60;
      for (let n = 0; n < count; n++)
        await scheduleJob(db, job.kind, {
          key: `race:${n}`,
          runAt: START,
          payload: { to: `race${n}@north.edu` },
        });
      const [first, next] = await Promise.all([
        runDueJobs({ db, kinds: kinds(job.kind), at: () => START }),
        runDueJobs({ db: second, kinds: kinds(job.kind), at: () => START }),
      ]);
      expect((first ?? 0) + (next ?? 0)).toBe(count);
      const mails = await db.selectFrom('mail_outbox').select('to_address').execute();
      expect(mails).toHaveLength(count);
      expect(new Set(mails.map((mail) => mail.to_address)).size).toBe(count);
    } finally {
      await other?.close();
    }
  });

  it('lets only the run that holds the lease finish a job: one whose lease ran out is undone', async () => {
    const job = mailingJob();
    await scheduleJob(db, job.kind, { key: 'slow', runAt: START, payload: { to: 'slow@north.edu' } });
    const [stalled] = await claimDueJobs(db, { at: START, limit: 1, leaseMs: 1_000 });
    expect(await claimDueJobs(db, { at: START + 999, limit: 1, leaseMs: 1_000 })).toHaveLength(0);
    // The stalled run's lease ran out; another instance takes the job over.
    const [takenOver] = await claimDueJobs(db, { at: START + 1_001, limit: 1, leaseMs: 1_000 });
    if (!stalled || !takenOver) throw new Error('both claims should have taken the job');
    expect(await finishJob(db, stalled, START + 1_500)).toBe(false);
    expect(await finishJob(db, takenOver, START + 1_500)).toBe(true);
    expect(await finishJob(db, takenOver, START + 1_600)).toBe(false);
    expect(await jobRow(db, 'slow')).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('keeps the lease of a batch under way with a heartbeat, and lets it run out once the heartbeat stops', async () => {
    const job = mailingJob();
    for (const n of [1, 2])
      await scheduleJob(db, job.kind, {
        key: `held:${n}`,
        runAt: START,
        payload: { to: `held${n}@north.edu` },
      });
    const claimed = await claimDueJobs(db, { at: START, limit: 2, leaseMs: JOB_LEASE_MS });
    expect(claimed).toHaveLength(2);
    // The batch has been running for most of a lease when the heartbeat beats.
    const later = START + JOB_LEASE_MS - 1;
    const heartbeat = holdLeases({
      db,
      leaseToken: (claimed[0] as { lease_token: string }).lease_token,
      clock: () => later,
      everyMs: 5,
    });
    const leases = async () =>
      (await db.selectFrom('jobs').select('lease_until').where('key', 'like', 'held:%').execute()).map(
        (row) => row.lease_until,
      );
    // Woken by each renewal it makes, not by a clock.
    while ((await leases()).some((until) => until !== later + JOB_LEASE_MS)) await heartbeat.renewed();
    await heartbeat.stop();
    // Past the first lease, another instance finds nothing to take; past the renewed one, both.
    expect(
      await claimDueJobs(db, { at: START + JOB_LEASE_MS + 1, limit: 2, leaseMs: JOB_LEASE_MS }),
    ).toHaveLength(0);
    expect(
      await claimDueJobs(db, { at: later + JOB_LEASE_MS + 1, limit: 2, leaseMs: JOB_LEASE_MS }),
    ).toHaveLength(2);
  });
});
