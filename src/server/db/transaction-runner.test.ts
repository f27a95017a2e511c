import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Transaction } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countersBeforeCommit } from '../features/dashboard';
import { type Db, migrateToLatest, openDatabase } from './index';
import {
  type CommitHooks,
  groupCommit,
  type TransactionRunner,
  writerFor,
  writeTransaction,
} from './transaction-runner';
import type { Database } from './types';

/** A file database (group commit is about what reaches the disk) and a second connection to watch it. */
describe('group commit on SQLite', () => {
  let dir: string;
  let db: Db;
  let observer: SqliteDatabase.Database;

  const committedNames = () =>
    (observer.prepare('select name from institutions order by id').all() as { name: string }[]).map(
      (row) => row.name,
    );

  const insert = (name: string) => async (trx: Transaction<Database>) => {
    await trx.insertInto('institutions').values({ name, crisis_resources: null, created_at: 0 }).execute();
    return name;
  };

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'group-commit-'));
    db = openDatabase({ kind: 'sqlite', file: path.join(dir, 'test.sqlite') });
    await migrateToLatest(db);
    observer = new SqliteDatabase(path.join(dir, 'test.sqlite'), { readonly: true });
  });

  afterEach(async () => {
    observer.close();
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('commits concurrent units together, in one transaction', async () => {
    const run = groupCommit(db.kysely);
    const seenByOthers: number[] = [];
    const results = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        run(async (trx) => {
          await insert(name)(trx);
          // Earlier units of the group are written but not yet committed: other connections do not see them.
          seenByOthers.push(committedNames().length);
          return name;
        }),
      ),
    );
    expect(results).toEqual(['a', 'b', 'c']);
    expect(seenByOthers).toEqual([0, 0, 0]);
    expect(committedNames()).toEqual(['a', 'b', 'c']);
  });

  it("gives every unit of a group the group's transaction, so reads can be shared between them", async () => {
    const run = groupCommit(db.kysely);
    const transactions = await Promise.all([1, 2, 3].map(() => run(async (trx) => trx)));
    expect(new Set(transactions).size).toBe(1);
  });

  it("puts every write of the database in one queue: the submission path's and any other feature's share a commit", async () => {
    const submissions = writerFor(db.kysely);
    expect(writerFor(db.kysely)).toBe(submissions);
    const transactions = await Promise.all([
      submissions(async (trx) => trx),
      writeTransaction(db.kysely, async (trx) => trx),
      writeTransaction(db.kysely, async (trx) => trx),
    ]);
    expect(new Set(transactions).size).toBe(1);
  });

  it('settles each unit only once its work is committed', async () => {
    const run = groupCommit(db.kysely);
    const visibleAtSettlement = await Promise.all(
      ['a', 'b'].map((name) => run(insert(name)).then((settled) => committedNames().includes(settled))),
    );
    expect(visibleAtSettlement).toEqual([true, true]);
  });

  it('rolls back a failing unit alone and tells only its caller', async () => {
    const run = groupCommit(db.kysely);
    const failing = run(async (trx) => {
      await insert('doomed')(trx);
      throw new Error('invalid answers');
    });
    const outcomes = await Promise.allSettled([run(insert('a')), failing, run(insert('b'))]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('invalid answers'));
    expect(committedNames()).toEqual(['a', 'b']);
  });

  it('rolls back a unit that breaks a constraint without touching the others', async () => {
    const run = groupCommit(db.kysely);
    const outcomes = await Promise.allSettled([
      run(insert('same')),
      run(insert('same')),
      run(insert('other')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(committedNames()).toEqual(['same', 'other']);
  });

  it('fails the whole group, keeping none of it, when the transaction itself breaks', async () => {
    const run = groupCommit(db.kysely);
    const breaking = async (trx: Transaction<Database>) => {
      await sql`rollback`.execute(trx);
    };
    const outcomes = await Promise.allSettled([run(insert('a')), run(breaking), run(insert('b'))]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(committedNames()).toEqual([]);
    // The next group starts afresh.
    await run(insert('c'));
    expect(committedNames()).toEqual(['c']);
  });

  it("sums the units' dashboard counters, leaving out a failed unit's, and writes them with the group", async () => {
    const { id: institutionId } = await db.kysely
      .insertInto('institutions')
      .values({ name: 'Counted', crisis_resources: null, created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const run = groupCommit(db.kysely);
    const count = (month: number) => async (_trx: Transaction<Database>, hooks: CommitHooks) => {
      const counters = hooks.beforeCommit(countersBeforeCommit);
      counters.addToMonth(institutionId, month, { responses: 1 });
      counters.addToTotals(institutionId, { responses: 1, students: month === 5 ? 1 : 0 });
    };
    const failing = async (_trx: Transaction<Database>, hooks: CommitHooks) => {
      const counters = hooks.beforeCommit(countersBeforeCommit);
      counters.addToTotals(institutionId, { responses: 100 });
      throw new Error('invalid answers');
    };
    const outcomes = await Promise.allSettled([run(count(5)), run(failing), run(count(6)), run(count(5))]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(
      observer
        .prepare('select responses, students from dashboard_totals where institution_id = ?')
        .all(institutionId),
    ).toEqual([{ responses: 3, students: 2 }]);
    expect(
      observer
        .prepare('select month, responses from dashboard_months where institution_id = ? order by month')
        .all(institutionId),
    ).toEqual([
      { month: 5, responses: 2 },
      { month: 6, responses: 1 },
    ]);
  });

  it("runs after-commit hooks once the group's work is visible, and never those of a failed unit", async () => {
    const run = groupCommit(db.kysely);
    const heard: { name: string; committed: string[] }[] = [];
    const announcing =
      (name: string, fail = false) =>
      async (trx: Transaction<Database>, hooks: CommitHooks) => {
        await insert(name)(trx);
        hooks.afterCommit(() => {
          heard.push({ name, committed: committedNames() });
        });
        if (fail) throw new Error('invalid answers');
        return name;
      };
    const outcomes = await Promise.allSettled([
      run(announcing('a')),
      run(announcing('b', true)),
      run(announcing('c')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(heard).toEqual([
      { name: 'a', committed: ['a', 'c'] },
      { name: 'c', committed: ['a', 'c'] },
    ]);
  });

  it('runs no hook of a group whose transaction fails', async () => {
    const run = groupCommit(db.kysely);
    const heard: string[] = [];
    const written: string[] = [];
    const hook = {
      start: () => [] as string[],
      merge: (into: string[], from: string[]) => {
        into.push(...from);
      },
      write: async (_trx: Transaction<Database>, names: string[]) => {
        written.push(...names);
      },
    };
    const announcing = async (trx: Transaction<Database>, hooks: CommitHooks) => {
      hooks.beforeCommit(hook).push('a');
      hooks.afterCommit(() => {
        heard.push('a');
      });
      return insert('a')(trx);
    };
    const breaking = async (trx: Transaction<Database>) => {
      await sql`rollback`.execute(trx);
    };
    await Promise.allSettled([run(announcing), run(breaking)]);
    expect(heard).toEqual([]);
    expect(committedNames()).toEqual([]);
    expect(written).toEqual([]);
  });

  it('writes the shared counters after every other before-commit hook, whichever a unit asked for first', async () => {
    const order: string[] = [];
    const recording = (name: string, writtenLast?: boolean) => ({
      ...(writtenLast ? { writtenLast } : {}),
      start: () => null,
      merge: () => undefined,
      write: async () => {
        order.push(name);
      },
    });
    const counters = recording('shared counters', true);
    const cases = recording('cases');
    await writeTransaction(db.kysely, async (_trx, hooks) => {
      hooks.beforeCommit(counters);
      hooks.beforeCommit(cases);
    });
    expect(order).toEqual(['cases', 'shared counters']);
    expect(countersBeforeCommit.writtenLast).toBe(true);
  });

  it('splits a long queue into groups of at most maxGroupSize', async () => {
    const run: TransactionRunner = groupCommit(db.kysely, { maxGroupSize: 2 });
    const groups: number[][] = [];
    const names = ['a', 'b', 'c', 'd', 'e'];
    await Promise.all(
      names.map((name) =>
        run(async (trx) => {
          await insert(name)(trx);
          const committed = committedNames().length;
          if (!groups.some((group) => group[0] === committed)) groups.push([committed]);
          return name;
        }),
      ),
    );
    expect(committedNames()).toEqual(names);
    // Units saw 0, 2 and 4 committed rows: three groups, of 2, 2 and 1.
    expect(groups).toEqual([[0], [2], [4]]);
  });
});
