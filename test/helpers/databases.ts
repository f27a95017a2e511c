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
  const { schema, drop } = await createPostgresSchema('test');
  const url = postgresUrl as string;
  const db = openDatabase({ kind: 'postgres', url }, { schema });
  await migrateToLatest(db);
  return {
    db,
    openAnother: () => openDatabase({ kind: 'postgres', url }, { schema }),
    async drop() {
      await db.close();
      await drop();
    },
  };
}

export interface PostgresSchema {
  schema: string;
  /**
   * The test database with this schema as the connection's search_path: how an operator hands a
   * schema to a server process in DATABASE_URL, the migrations' own tables inside it.
   */
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty schema of the PostgreSQL test database, named `<prefix>_<random>`. */
export async function createPostgresSchema(prefix: string): Promise<PostgresSchema> {
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is not set');
  const base = postgresUrl;
  const schema = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await run(`CREATE SCHEMA ${schema}`);
  const url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return { schema, url, drop: () => run(`DROP SCHEMA IF EXISTS ${schema} CASCADE`) };
}
