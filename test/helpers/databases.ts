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
  /**
   * Closes the database and keeps it, as it stands, as an image that `createTestDatabase` copies
   * (`from`): for a costly starting state that many tests share. Absent on a PostgreSQL schema.
   */
  keepAsImage?: () => Promise<DatabaseImage>;
}

/** A database's contents, kept for copying: SQLite's bytes, or a PostgreSQL template database. */
export type DatabaseImage = { dialect: 'sqlite'; bytes: Buffer } | { dialect: 'postgres'; template: string };

export interface TestDatabaseOptions {
  /**
   * Run every migration on an empty database instead of starting from the migrated copy: for the
   * suite about migrating itself.
   */
  migrateFromEmpty?: boolean;
  /** Start as a copy of this image rather than of the migrated, empty database. */
  from?: DatabaseImage;
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
  if (options.from) return copyOfImage(options.from);
  if (dialect === 'sqlite') {
    if (options.migrateFromEmpty) {
      const db = openDatabase({ kind: 'sqlite', file: ':memory:' });
      await migrateToLatest(db);
      return { db, drop: () => db.close() };
    }
    return sqliteCopy(await migratedSqliteImage());
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

function sqliteCopy(bytes: Buffer): TestDatabase {
  const db = openSqliteImage(bytes);
  return {
    db,
    drop: () => db.close(),
    async keepAsImage() {
      const image = (db.serialize as () => Buffer)();
      await db.close();
      return { dialect: 'sqlite', bytes: image };
    },
  };
}

/**
 * A copy of an image. On PostgreSQL a copy is a database of its own (the template is never
 * written to), dropped when the test is done without holding up the next one.
 */
async function copyOfImage(image: DatabaseImage): Promise<TestDatabase> {
  if (image.dialect === 'sqlite') return sqliteCopy(image.bytes);
  const name = `${image.template.replace(/_image_[0-9a-f]+$/, '')}_${crypto.randomBytes(6).toString('hex')}`;
  await runOnTestDatabase(`CREATE DATABASE ${name} TEMPLATE ${image.template}`);
  const url = postgresDatabaseUrl(name);
  const db = openDatabase({ kind: 'postgres', url });
  return {
    db,
    openAnother: () => openDatabase({ kind: 'postgres', url }),
    async drop() {
      await db.close();
      dropInBackground(name);
    },
  };
}

/** Drops a database while tests go on; the run's teardown drops any this could not. */
export function dropInBackground(database: string): void {
  runOnTestDatabase(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
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
    async keepAsImage() {
      await db.close();
      // Renamed for what it now is: no later test takes it for an empty one, and copies of it
      // are named after the run, which the teardown drops whole.
      const kept = `${template.replace(/_template$/, '')}_image_${crypto.randomBytes(4).toString('hex')}`;
      await runOnTestDatabase(`ALTER DATABASE ${database} RENAME TO ${kept}`);
      return { dialect: 'postgres', template: kept };
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
