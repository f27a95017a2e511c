import { type ControlledTransaction, type Kysely, SqliteAdapter, type Transaction } from 'kysely';
import type { Database } from './types';

/**
 * What a unit of work builds up and its transaction writes once, just before committing. The
 * units committed together (group commit) each get their own state; those that succeed are
 * merged, so the transaction writes one sum instead of one write per unit.
 */
export interface BeforeCommit<State> {
  /**
   * Written after the hooks without it: for rows every transaction contends for (shared
   * counters), whose locks should be held for the least time before the commit.
   */
  writtenLast?: boolean;
  start(): State;
  merge(into: State, from: State): void;
  write(trx: Transaction<Database>, state: State): Promise<void>;
}

/** What a unit of work asks to happen with its commit; nothing of it happens if the unit fails. */
export interface CommitHooks {
  /** This unit's state for `hook`: started on the first call, the same object on every later one. */
  beforeCommit<State>(hook: BeforeCommit<State>): State;
  /**
   * Runs once the unit's work is committed, before its caller hears back. The work is durable by
   * then and cannot be undone, so a hook's failure is its own to handle: it is not reported.
   */
  afterCommit(hook: AfterCommit): void;
}

/** Given the database the transaction committed to (the transaction itself is over). */
type AfterCommit = (db: Kysely<Database>) => void | Promise<void>;

/** A unit of work: its transaction, and the hooks it registers for that transaction's commit. */
export type UnitOfWork<T> = (trx: Transaction<Database>, hooks: CommitHooks) => Promise<T>;

/** Runs a unit of work in a transaction and settles only once that work is committed (or failed). */
export type TransactionRunner = <T>(work: UnitOfWork<T>) => Promise<T>;

class UnitHooks implements CommitHooks {
  readonly states = new Map<BeforeCommit<unknown>, unknown>();
  readonly afterCommits: AfterCommit[] = [];

  beforeCommit<State>(hook: BeforeCommit<State>): State {
    if (!this.states.has(hook)) this.states.set(hook, hook.start());
    return this.states.get(hook) as State;
  }

  afterCommit(hook: AfterCommit): void {
    this.afterCommits.push(hook);
  }
}

/** The hooks of every unit that succeeded in one transaction. */
class TransactionHooks {
  readonly #states = new Map<BeforeCommit<unknown>, unknown>();
  readonly #afterCommits: AfterCommit[] = [];

  absorb(unit: UnitHooks): void {
    for (const [hook, state] of unit.states) {
      if (this.#states.has(hook)) hook.merge(this.#states.get(hook), state);
      else this.#states.set(hook, state);
    }
    this.#afterCommits.push(...unit.afterCommits);
  }

  async beforeCommit(trx: Transaction<Database>): Promise<void> {
    const hooks = [...this.#states];
    for (const [hook, state] of hooks) if (!hook.writtenLast) await hook.write(trx, state);
    for (const [hook, state] of hooks) if (hook.writtenLast) await hook.write(trx, state);
  }

  async afterCommit(db: Kysely<Database>): Promise<void> {
    await Promise.allSettled(this.#afterCommits.map(async (hook) => hook(db)));
  }
}

/** One transaction per unit of work: what PostgreSQL, with its own group commit, needs. */
export function transactionPerCall(db: Kysely<Database>): TransactionRunner {
  return async (work) => {
    const hooks = new TransactionHooks();
    const value = await db.transaction().execute(async (trx) => {
      const unit = new UnitHooks();
      const result = await work(trx, unit);
      hooks.absorb(unit);
      await hooks.beforeCommit(trx);
      return result;
    });
    await hooks.afterCommit(db);
    return value;
  };
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
 * work durable (or, if that commit fails, that nothing of the group was kept). The hooks of
 * failed units are dropped; those of the others run once for the whole group.
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
  const hooks = new TransactionHooks();
  try {
    for (const pending of group) outcomes.push(await runInSavepoint(trx, pending.work, hooks));
    await hooks.beforeCommit(trx);
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
  await hooks.afterCommit(db);
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
  groupHooks: TransactionHooks,
): Promise<Outcome> {
  const savepoint = await trx.savepoint(SAVEPOINT).execute();
  const unit = new UnitHooks();
  try {
    const value = await work(trx, unit);
    await savepoint.releaseSavepoint(SAVEPOINT).execute();
    groupHooks.absorb(unit);
    return { ok: true, value };
  } catch (error) {
    await savepoint.rollbackToSavepoint(SAVEPOINT).execute();
    await savepoint.releaseSavepoint(SAVEPOINT).execute();
    return { ok: false, error };
  }
}

const writersByDatabase = new WeakMap<Kysely<Database>, TransactionRunner>();

/**
 * The runner every write transaction of this database goes through: on SQLite one group-commit
 * queue for the whole database (one connection and one writer, so every write waits its turn
 * anyway, and waiting in one queue lets it share a disk flush); on PostgreSQL a transaction per
 * call, which the server groups itself.
 */
export function writerFor(db: Kysely<Database>): TransactionRunner {
  let runner = writersByDatabase.get(db);
  if (!runner) {
    runner = db.getExecutor().adapter instanceof SqliteAdapter ? groupCommit(db) : transactionPerCall(db);
    writersByDatabase.set(db, runner);
  }
  return runner;
}

/**
 * The one way to open a write transaction: its commit hooks always there, so a write can
 * announce what it changed, and one queue per database (see writerFor).
 */
export function writeTransaction<T>(db: Kysely<Database>, work: UnitOfWork<T>): Promise<T> {
  return writerFor(db)(work);
}

/** A consistent read of several queries, which can write nothing (repeatable read, read only). */
export function readSnapshot<T>(
  db: Kysely<Database>,
  read: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(read);
}
