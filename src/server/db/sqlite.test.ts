import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase, withStatementCache } from '.';

describe('SQLite statement cache', () => {
  let sqlite: SqliteDatabase.Database;

  beforeEach(() => {
    sqlite = new SqliteDatabase(':memory:');
  });
  afterEach(() => sqlite.close());

  it('prepares a statement once and hands the same one back', () => {
    const cached = withStatementCache(sqlite);
    const first = cached.prepare('select 1 as one');
    expect(cached.prepare('select 1 as one')).toBe(first);
    expect(cached.prepare('select 2 as two')).not.toBe(first);
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    const cached = withStatementCache(sqlite, 2);
    const one = cached.prepare('select 1');
    const two = cached.prepare('select 2');
    cached.prepare('select 1'); // now the most recently used
    cached.prepare('select 3'); // evicts "select 2"
    expect(cached.prepare('select 1')).toBe(one);
    expect(cached.prepare('select 2')).not.toBe(two);
  });
});

describe('SQLite transactions', () => {
  let dir: string;
  let db: Db;
  let otherProcess: SqliteDatabase.Database;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-sqlite-'));
    const file = path.join(dir, 'db.sqlite');
    db = openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(db);
    // Another connection to the same file, like the manage command beside a running server.
    otherProcess = new SqliteDatabase(file);
    otherProcess.pragma('busy_timeout = 0');
  });

  afterEach(async () => {
    otherProcess.close();
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const writeElsewhere = () =>
    otherProcess.prepare("insert into institutions (name, created_at) values ('Elsewhere', 0)").run();

  it('hold the write lock from their first statement, so a read-then-write cannot be refused midway', async () => {
    await db.kysely.transaction().execute(async (trx) => {
      await trx.selectFrom('institutions').select('id').execute();
      expect(writeElsewhere).toThrow(/locked|busy/i);
      await trx.insertInto('institutions').values({ name: 'Here', created_at: 0 }).execute();
    });
    writeElsewhere();
    const names = await db.kysely.selectFrom('institutions').select('name').orderBy('id').execute();
    expect(names.map((row) => row.name)).toEqual(['Here', 'Elsewhere']);
  });
});
