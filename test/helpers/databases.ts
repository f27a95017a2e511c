import crypto from 'node:crypto';
import pg from 'pg';
import { type Db, migrateToLatest, openDatabase } from '../../src/server/db';

export type TestDialect = 'sqlite' | 'postgres';

const postgresUrl = process.env.TEST_DATABASE_URL;

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it and forbids the skip). */
export const TEST_DIALECTS: TestDialect[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase {
  db: Db;
  drop(): Promise<void>;
  /** PostgreSQL only: another connection pool on the same schema, as a second instance would have. */
  openAnother?: () => Db;
}

/** A fresh, migrated, empty database: in-memory SQLite, or a private PostgreSQL schema. */
export async function createTestDatabase(dialect: TestDialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const db = openDatabase({ kind: 'sqlite', file: ':memory:' });
    await migrateToLatest(db);
    return { db, drop: () => db.close() };
  }
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = openDatabase({ kind: 'postgres', url: postgresUrl }, { schema });
  await migrateToLatest(db);
  return {
    db,
    openAnother: () => openDatabase({ kind: 'postgres', url: postgresUrl }, { schema }),
    async drop() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: postgresUrl });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
}
