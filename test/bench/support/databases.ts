// The databases the benchmarks run on: a fresh SQLite file, or, with BENCH_DATABASE_URL, a fresh
// schema of that PostgreSQL database; migrated, and dropped again after the run.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Db, migrateToLatest, openDatabase } from '../../../src/server/db';

/** The server secret of every benchmark's app: any long value will do, nothing it signs is kept. */
export const BENCH_SECRET = 'benchmark-secret-that-is-long-enough-0123456789';

/** PostgreSQL to measure on as well as SQLite; unset, the benchmarks run on SQLite alone. */
export const benchPostgresUrl = process.env.BENCH_DATABASE_URL;

export interface BenchDatabase {
  db: Db;
  /** Where the figures were measured, for the report. */
  where: string;
  drop(): Promise<void>;
}

async function onPostgres(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A migrated, empty database of `kind`; PostgreSQL only when BENCH_DATABASE_URL is set. */
export async function openBenchDatabase(kind: 'sqlite' | 'postgres', name: string): Promise<BenchDatabase> {
  if (kind === 'postgres') {
    const url = benchPostgresUrl;
    if (!url) throw new Error('BENCH_DATABASE_URL is not set');
    const schema = `bench_${crypto.randomBytes(5).toString('hex')}`;
    await onPostgres(url, `CREATE SCHEMA ${schema}`);
    const db = openDatabase({ kind: 'postgres', url }, { schema });
    await migrateToLatest(db);
    return {
      db,
      where: `PostgreSQL schema ${schema}`,
      async drop() {
        await db.close();
        await onPostgres(url, `DROP SCHEMA ${schema} CASCADE`);
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-bench-`));
  const db = openDatabase({ kind: 'sqlite', file: path.join(dir, 'bench.sqlite') });
  await migrateToLatest(db);
  return {
    db,
    where: 'SQLite file (WAL, synchronous=FULL)',
    async drop() {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
