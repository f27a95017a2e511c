import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type Db, migrateToLatest, openDatabase } from '../../src/server/db';
import { createPostgresSchema, type TestDialect } from './databases';

/** The data a server process runs on: its environment, and a way in for the test itself. */
export interface ProcessStore {
  env: Record<string, string>;
  /** The test's own connection, migrated. */
  db: Db;
  /** PostgreSQL only: the database URL the server processes are given. */
  url?: string;
  drop(): Promise<void>;
}

/** A fresh data folder and database (an SQLite file, or a PostgreSQL schema of its own). */
export async function freshProcessStore(dialect: TestDialect, prefix: string): Promise<ProcessStore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `wellness-${prefix}-`));
  if (dialect === 'sqlite') {
    const db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'wellness.sqlite') });
    await migrateToLatest(db);
    return {
      env: { DATA_DIR: dataDir },
      db,
      async drop() {
        await db.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const { url, drop } = await createPostgresSchema(prefix);
  const db = openDatabase({ kind: 'postgres', url });
  await migrateToLatest(db);
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url },
    db,
    url,
    async drop() {
      await db.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Resolves once `check` holds, asking every `pollMs`: for a state only the database shows. The
 * limit only stops a wait for something that is not coming; the error names it.
 */
export async function waitUntil(
  check: () => Promise<boolean> | boolean,
  what: string,
  limitMs = 15_000,
  pollMs = 50,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await delay(pollMs);
  }
}
