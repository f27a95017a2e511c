import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/helpers/databases';
import type { Executor } from './executor';
import { reusableQuery } from './reusable-query';

describe.each(TEST_DIALECTS)('reusable queries on %s', (dialect) => {
  let database: TestDatabase;
  let db: Executor;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    db = database.db.kysely;
  });
  afterEach(() => database.drop());

  const insertInstitution = (build = vi.fn()) =>
    reusableQuery((db, values: { name: string; created_at: number; crisis_resources?: string | null }) => {
      build();
      return db.insertInto('institutions').values(values).returning(['id', 'name', 'crisis_resources']);
    });

  it('builds once per shape and runs each time with that call’s values', async () => {
    const build = vi.fn();
    const insert = insertInstitution(build);
    const first = await insert(db, { name: 'North', created_at: 1 });
    const second = await insert(db, { name: 'South', created_at: 2 });
    expect(build).toHaveBeenCalledTimes(1);
    expect(first.rows[0]).toMatchObject({ name: 'North', crisis_resources: null });
    expect(second.rows[0]).toMatchObject({ name: 'South', crisis_resources: null });
    expect(second.rows[0]?.id).not.toBe(first.rows[0]?.id);

    // Another set of given values is another shape, compiled once in its turn.
    const third = await insert(db, { name: 'East', created_at: 3, crisis_resources: '[]' });
    await insert(db, { name: 'West', created_at: 4, crisis_resources: undefined });
    expect(third.rows[0]).toMatchObject({ name: 'East', crisis_resources: '[]' });
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('fills every row of a multi-row insert, whatever the number of rows', async () => {
    const insertMany = reusableQuery((db, rows: { name: string; created_at: number }[]) =>
      db.insertInto('institutions').values(rows),
    );
    await insertMany(db, [
      { name: 'A', created_at: 1 },
      { name: 'B', created_at: 2 },
    ]);
    await insertMany(db, [{ name: 'C', created_at: 3 }]);
    await insertMany(db, [
      { name: 'D', created_at: 4 },
      { name: 'E', created_at: 5 },
    ]);
    const rows = await db.selectFrom('institutions').select(['name', 'created_at']).orderBy('name').execute();
    expect(rows).toEqual(['A', 'B', 'C', 'D', 'E'].map((name, index) => ({ name, created_at: index + 1 })));
  });

  it('keeps values as values, never as SQL', async () => {
    const insert = insertInstitution();
    const hostile = "x'); drop table institutions; --";
    await insert(db, { name: hostile, created_at: 1 });
    const byName = reusableQuery((db, values: { name: string }) =>
      db.selectFrom('institutions').select('name').where('name', '=', values.name),
    );
    expect((await byName(db, { name: hostile })).rows).toEqual([{ name: hostile }]);
    expect((await byName(db, { name: 'nobody' })).rows).toEqual([]);
  });

  it('runs inside a transaction, and is rolled back with it', async () => {
    const insert = insertInstitution();
    await database.db.kysely
      .transaction()
      .execute(async (trx) => {
        await insert(trx, { name: 'Rolled back', created_at: 1 });
        throw new Error('abort');
      })
      .catch(() => undefined);
    expect(await db.selectFrom('institutions').select('name').execute()).toEqual([]);
  });
});
