import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPostgresSchema,
  createTestDatabase,
  type PostgresSchema,
  TEST_DIALECTS,
  type TestDatabase,
} from '../../../test/helpers/databases';
import { type Db, migrateToLatest, openDatabase } from '.';
import { migrations } from './migrations';

const MIGRATION_NAMES = Object.keys(migrations).sort();

async function appliedMigrations(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
    db.kysely,
  );
  return rows.map((row) => row.name);
}

/** Our tables only: on PostgreSQL, introspection also lists every other schema's tables. */
async function tableNames(db: Db): Promise<string[]> {
  const tables = await db.kysely.introspection.getTables();
  if (db.dialect === 'sqlite') return tables.map((table) => table.name).sort();
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db.kysely);
  return tables
    .filter((table) => table.schema === rows[0]?.schema)
    .map((table) => table.name)
    .sort();
}

describe.each(TEST_DIALECTS)('migrations on %s', (dialect) => {
  let database: TestDatabase | undefined;

  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('migrates an empty database, records every migration once and changes nothing when run again', async () => {
    database = await createTestDatabase(dialect, { migrateFromEmpty: true });
    const { db } = database;
    expect(await appliedMigrations(db)).toEqual(MIGRATION_NAMES);
    const tablesBefore = await tableNames(db);
    expect(tablesBefore).toEqual(
      expect.arrayContaining(['institutions', 'users', 'sessions', 'submissions']),
    );

    await db.kysely
      .insertInto('institutions')
      .values({ name: 'Kept University', crisis_resources: null, created_at: 1 })
      .execute();
    await migrateToLatest(db);
    await migrateToLatest(db);

    expect(await appliedMigrations(db)).toEqual(MIGRATION_NAMES);
    expect(await tableNames(db)).toEqual(tablesBefore);
    const kept = await db.kysely.selectFrom('institutions').select('name').execute();
    expect(kept).toEqual([{ name: 'Kept University' }]);
  });
});

describe('migrations on a SQLite file across restarts', () => {
  let dir: string | undefined;

  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('migrates at every start without redoing anything', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-migrations-'));
    const file = path.join(dir, 'nested', 'wellness.sqlite');
    for (let start = 0; start < 3; start++) {
      const db = openDatabase({ kind: 'sqlite', file });
      try {
        await migrateToLatest(db);
        expect(await appliedMigrations(db)).toEqual(MIGRATION_NAMES);
        await db.kysely
          .insertInto('institutions')
          .values({ name: `Start ${start}`, crisis_resources: null, created_at: start })
          .execute();
        const names = await db.kysely
          .selectFrom('institutions')
          .select('name')
          .orderBy('created_at')
          .execute();
        expect(names.map((row) => row.name)).toEqual(
          Array.from({ length: start + 1 }, (_, i) => `Start ${i}`),
        );
      } finally {
        await db.close();
      }
    }
  });
});

const postgresUrl = process.env.TEST_DATABASE_URL;

describe.each(TEST_DIALECTS.filter((dialect) => dialect === 'postgres'))(
  'migrations on %s with other schemas',
  () => {
    const schemas: PostgresSchema[] = [];
    const opened: Db[] = [];

    async function emptySchema(): Promise<string> {
      const schema = await createPostgresSchema('test');
      schemas.push(schema);
      return schema.schema;
    }

    function open(schema: string): Db {
      const db = openDatabase({ kind: 'postgres', url: postgresUrl as string }, { schema });
      opened.push(db);
      return db;
    }

    afterEach(async () => {
      for (const db of opened.splice(0)) await db.close();
      for (const schema of schemas.splice(0)) await schema.drop();
    });

    it("migrates its own schema even when another schema already holds Kysely's bookkeeping", async () => {
      const first = open(await emptySchema());
      await migrateToLatest(first);
      const second = open(await emptySchema());
      await migrateToLatest(second);
      expect(await appliedMigrations(second)).toEqual(MIGRATION_NAMES);
      expect(await tableNames(second)).toEqual(expect.arrayContaining(['institutions', 'users', 'sessions']));
    });

    it('migrates while other schemas of the database are being created and dropped', async () => {
      // Kysely's stock introspector read every schema and failed when one vanished mid-read.
      const churn = new pg.Client({ connectionString: postgresUrl });
      await churn.connect();
      let stop = false;
      const churning = (async () => {
        while (!stop) {
          const other = `churn_${crypto.randomBytes(6).toString('hex')}`;
          await churn.query(
            `CREATE SCHEMA ${other}; CREATE TABLE ${other}.t (id serial primary key, note text)`,
          );
          await churn.query(`DROP SCHEMA ${other} CASCADE`);
        }
      })();
      try {
        for (let start = 0; start < 5; start++) {
          const db = open(await emptySchema());
          await migrateToLatest(db);
          expect(await appliedMigrations(db)).toEqual(MIGRATION_NAMES);
        }
      } finally {
        stop = true;
        await churning;
        await churn.end();
      }
    });

    it('lets several instances migrate the same database at once', async () => {
      const schema = await emptySchema();
      const instances = [open(schema), open(schema), open(schema)];
      await Promise.all(instances.map((db) => migrateToLatest(db)));
      for (const db of instances) expect(await appliedMigrations(db)).toEqual(MIGRATION_NAMES);
    });
  },
);
