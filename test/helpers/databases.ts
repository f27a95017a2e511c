import crypto from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { type Db, migrateToLatest, openDatabase, openSqliteImage } from '../../src/server/db';
import { TEMPLATE_DATABASE_VARIABLE } from './postgres-template';

export type TestDialect = 'sqlite' | 'postgres';

const postgresUrl = process.env.TEST_DATABASE_URL;

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it and forbids the skip). */
export const TEST_DIALECTS: TestDialect[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase {
  db: Db;
  drop(): Promise<void>;
  /** PostgreSQL only: another connection pool on the same database, as a second instance would have. */
  openAnother?: () => Db;
}

export interface TestDatabaseOptions {
  /**
   * Run every migration on an empty database instead of starting from the migrated copy: for the
   * suite about migrating itself.
   */
  migrateFromEmpty?: boolean;
}

/**
 * A fresh, migrated, empty database. Migrating costs far more than a test's own queries
 * (PostgreSQL above all), so it is done once and copied: on SQLite each test opens an in-memory
 * copy of a migrated image; on PostgreSQL each gets a database cloned from the migrated template
 * the global set-up made, emptied and handed to the next test of the same file when dropped.
 */
export async function createTestDatabase(
  dialect: TestDialect,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    if (options.migrateFromEmpty) {
      const db = openDatabase({ kind: 'sqlite', file: ':memory:' });
      await migrateToLatest(db);
      return { db, drop: () => db.close() };
    }
    const db = openSqliteImage(await migratedSqliteImage());
    return { db, drop: () => db.close() };
  }
  const template = process.env[TEMPLATE_DATABASE_VARIABLE];
  if (template && !options.migrateFromEmpty) return clonedPostgresDatabase(template);
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

let sqliteImage: Promise<Buffer> | undefined;

/** The migrated, empty SQLite database as bytes, made once per test file. */
function migratedSqliteImage(): Promise<Buffer> {
  sqliteImage ??= (async () => {
    const db = openDatabase({ kind: 'sqlite', file: ':memory:' });
    await migrateToLatest(db);
    const image = (db.serialize as () => Buffer)();
    await db.close();
    return image;
  })();
  return sqliteImage;
}

/** Databases of this file that a finished test handed back, to be emptied and used again. */
const idlePostgresDatabases: string[] = [];
let emptyingStatement: string | undefined;

/** The test database's URL with another database name. */
export function postgresDatabaseUrl(database: string): string {
  const url = new URL(postgresUrl as string);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs one statement on the test database (where CREATE DATABASE is issued). */
async function runOnTestDatabase(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl as string });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Every table the migrations made emptied and every sequence restarted, in one round trip: what a
 * fresh database has. The migrations' own bookkeeping stays. DELETE rather than TRUNCATE: a test
 * leaves a few rows, and TRUNCATE's new files and their syncing cost far more than deleting them
 * (foreign keys are not checked meanwhile: every table is emptied).
 */
async function emptyDatabase(db: Db): Promise<void> {
  if (!emptyingStatement) {
    const tables = await sql<{ name: string }>`
      select tablename as name from pg_catalog.pg_tables
      where schemaname = current_schema() and tablename not like 'kysely_migration%'`.execute(db.kysely);
    const sequences = await sql<{ name: string }>`
      select sequencename as name from pg_catalog.pg_sequences
      where schemaname = current_schema() and sequencename not like 'kysely_migration%'`.execute(db.kysely);
    emptyingStatement = [
      'begin',
      'set local session_replication_role = replica',
      ...tables.rows.map((row) => `delete from "${row.name}"`),
      ...sequences.rows.map((row) => `alter sequence "${row.name}" restart`),
      'commit',
    ].join(';\n');
  }
  await sql.raw(emptyingStatement).execute(db.kysely);
}

async function clonedPostgresDatabase(template: string): Promise<TestDatabase> {
  let name = idlePostgresDatabases.pop();
  const reused = name !== undefined;
  if (!name) {
    name = `${template.replace(/_template$/, '')}_${crypto.randomBytes(6).toString('hex')}`;
    await runOnTestDatabase(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  }
  const url = postgresDatabaseUrl(name);
  const db = openDatabase({ kind: 'postgres', url });
  if (reused) await emptyDatabase(db);
  const database = name;
  return {
    db,
    openAnother: () => openDatabase({ kind: 'postgres', url }),
    async drop() {
      await db.close();
      idlePostgresDatabases.push(database);
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
  await runOnTestDatabase(`CREATE SCHEMA ${schema}`);
  const url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return { schema, url, drop: () => runOnTestDatabase(`DROP SCHEMA IF EXISTS ${schema} CASCADE`) };
}
