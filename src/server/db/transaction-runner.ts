import type { ControlledTransaction, Kysely, Transaction } from 'kysely';
import type { Db } from '../../db';
import type { Database } from '../../db/types';
import { PendingCounters } from '../dashboard/pending-counters';

/**
 * A unit of work: its transaction, and the dashboard counters it adds to, which are written
 * once per transaction just before the commit.
 */
type UnitOfWork<T> = (trx: Transaction<Database>, counters: PendingCounters) => Promise<T>;

/** Runs a unit of work in a transaction and settles only once that work is committed (or failed). */
export type TransactionRunner = <T>(work: UnitOfWork<T>) => Promise<T>;

/** One transaction per unit of work: what PostgreSQL, with its own group commit, needs. */
export function transactionPerCall(db: Kysely<Database>): TransactionRunner {
  return (work) =>
    db.transaction().execute(async (trx) => {
      const counters = new PendingCounters();
      const value = await work(trx, counters);
      await counters.write(trx);
      return value;
    });
}

interface Pending {
  work: UnitOfWork<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const SAVEPOINT = 'unit_of_work';

/**
 * Group commit for SQLite. With synchronous=FULL every commit waits for the disk, so one
 * transaction per submission caps throughput at the disk's flush rate. Instead, work that
 * arrives while a group is being written waits in a queue and the next group commits it all
 * at once: one flush for many submissions. Each unit runs in its own savepoint, so a failing
 * one is rolled back alone, and each caller hears back only after the commit that made its
 * work durable (or, if that commit fails, that nothing of the group was kept). The units'
 * counter increments are summed, those of failed units left out, and written once per group.
 */
export function groupCommit(
  db: Kysely<Database>,
  options: { maxGroupSize?: number } = {},
): TransactionRunner {
  const maxGroupSize = options.maxGroupSize ?? 100;
  const queue: Pending[] = [];
  let draining = false;

  async function drain() {
    while (queue.length > 0) await commitGroup(db, queue.splice(0, maxGroupSize));
    draining = false;
  }

  return <T>(work: UnitOfWork<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (draining) return;
      draining = true;
      // Let the requests already read from the sockets join this group before it starts.
      setImmediate(() => void drain());
    });
}

async function commitGroup(db: Kysely<Database>, group: Pending[]): Promise<void> {
  let trx: ControlledTransaction<Database>;
  try {
    trx = await db.startTransaction().execute();
  } catch (error) {
    for (const pending of group) pending.reject(error);
    return;
  }
  const outcomes: Outcome[] = [];
  const counters = new PendingCounters();
  try {
    for (const pending of group) outcomes.push(await runInSavepoint(trx, pending.work, counters));
    await counters.write(trx);
    await trx.commit().execute();
  } catch (error) {
    // The transaction itself failed (not one unit): nothing of this group was kept.
    await trx
      .rollback()
      .execute()
      .catch(() => undefined);
    for (const pending of group) pending.reject(error);
    return;
  }
  group.forEach((pending, index) => {
    const outcome = outcomes[index] as Outcome;
    if (outcome.ok) pending.resolve(outcome.value);
    else pending.reject(outcome.error);
  });
}

/**
 * A unit's own failure is its outcome; only a failure to roll it back escapes (and sinks the
 * group). Every unit works on the group's transaction itself, so what it reads there can be
 * shared with the other units of the group (see the surveys read once per transaction).
 */
async function runInSavepoint(
  trx: ControlledTransaction<Database>,
  work: UnitOfWork<unknown>,
  groupCounters: PendingCounters,
): Promise<Outcome> {
  const unit = await trx.savepoint(SAVEPOINT).execute();
  const counters = new PendingCounters();
  try {
    const value = await work(trx, counters);
    await unit.releaseSavepoint(SAVEPOINT).execute();
    groupCounters.absorb(counters);
    return { ok: true, value };
  } catch (error) {
    await unit.rollbackToSavepoint(SAVEPOINT).execute();
    await unit.releaseSavepoint(SAVEPOINT).execute();
    return { ok: false, error };
  }
}

/** The submission path's transactions: grouped on SQLite, one per call on PostgreSQL. */
export function submissionTransactions(db: Db): TransactionRunner {
  return db.dialect === 'sqlite' ? groupCommit(db.kysely) : transactionPerCall(db.kysely);
}
