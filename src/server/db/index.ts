import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Driver,
  Kysely,
  Migrator,
  PostgresDialect,
  type PostgresDialectConfig,
  type SchemaMetadata,
  SqliteDialect,
  type SqliteDialectConfig,
  type SqliteDatabase as SqliteDialectDatabase,
  SqliteDriver,
  sql,
  type TableMetadata,
} from 'kysely';
import pg from 'pg';
import type { DatabaseTarget, PostgresTimeouts } from '../config';
import { prepareSqliteFiles } from '../lib/private-files';
import { DatabaseHealth, fromPostgres } from './availability';
import { HealthRecordingDriver } from './health-recording-driver';
import { migrations } from './migrations';
import { patientPool } from './patient-pool';
import type { Database } from './types';

export type Dialect = 'sqlite' | 'postgres';

export interface PoolState {
  max: number;
  open: number;
  idle: number;
  waiting: number;
}

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** Whether the database is serving; requests and background work report to it. */
  health: DatabaseHealth;
  close(): Promise<void>;
  /** PostgreSQL only: a new client outside the pool, for long-lived sessions such as LISTEN. */
  newClient?: () => pg.Client;
  /** PostgreSQL only: the pool's connections and the requests waiting for one, right now. */
  poolState?: () => PoolState;
  /** SQLite only, on a file: its write-ahead log, which checkpoints copy back into the file. */
  walFile?: string;
  /** SQLite only: the whole database as bytes, which `openSqliteImage` opens as a copy. */
  serialize?: () => Buffer;
}

// int8 (bigint) columns hold epoch milliseconds and counts; they fit a JS number exactly.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/**
 * Kysely prepares every query it runs anew, and preparing (SQLite compiling the statement) costs
 * more than running most of ours. The same few dozen statements come back all the time, so
 * prepared ones are kept and reused, the least recently used dropped past a bound. Reuse is safe:
 * Kysely runs one query at a time on the connection, so no statement is ever in use twice.
 */
export function withStatementCache(sqlite: SqliteDatabase.Database, capacity = 500): SqliteDialectDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(source: string) {
      let statement = statements.get(source);
      if (statement) {
        statements.delete(source);
      } else {
        statement = sqlite.prepare(source);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
      }
      statements.set(source, statement);
      return statement;
    },
  };
}

/**
 * Transactions take SQLite's write lock as they begin (BEGIN IMMEDIATE). A plain BEGIN reads
 * first and asks for the lock at its first write; if another process (the manage command, a
 * second server) wrote in between, SQLite fails at once with "database is locked" instead of
 * waiting busy_timeout for its turn. Asking first makes every writer wait in line.
 */
class WriteLockingSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class WriteLockingSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig,
    private readonly health: DatabaseHealth,
  ) {
    super(settings);
  }

  override createDriver(): Driver {
    return new HealthRecordingDriver(new WriteLockingSqliteDriver(this.settings), this.health);
  }
}

function openSqlite(file: string, busyTimeoutMs: number, health: DatabaseHealth): Db {
  if (file === ':memory:') return sqliteDb(new SqliteDatabase(file), busyTimeoutMs, health);
  prepareSqliteFiles(file);
  return { ...sqliteDb(new SqliteDatabase(file), busyTimeoutMs, health), walFile: `${file}-wal` };
}

/**
 * An in-memory SQLite database that starts as a copy of a serialized one (`serialize()` of
 * another): a migrated schema is copied in microseconds, where migrating it anew takes a while.
 */
export function openSqliteImage(image: Buffer, busyTimeoutMs = 5_000): Db {
  return sqliteDb(new SqliteDatabase(image), busyTimeoutMs, new DatabaseHealth());
}

function sqliteDb(sqlite: SqliteDatabase.Database, busyTimeoutMs: number, health: DatabaseHealth): Db {
  sqlite.pragma('journal_mode = WAL');
  // FULL: a submission that was acknowledged survives a power cut, not only a process crash.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // A writer waits this long for another's lock, then the request is answered 503.
  sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
  sqlite.pragma('cache_size = -65536');
  const kysely = new Kysely<Database>({
    dialect: new WriteLockingSqliteDialect({ database: withStatementCache(sqlite) }, health),
  });
  return {
    kysely,
    dialect: 'sqlite',
    health,
    close: () => kysely.destroy(),
    serialize: () => sqlite.serialize(),
  };
}

interface ColumnRow {
  table: string;
  table_type: string;
  column: string;
  not_null: boolean;
  has_default: boolean;
  type: string;
  type_schema: string;
  comment: string | null;
  sequence: string | null;
}

/**
 * Kysely's own PostgreSQL introspector reads the columns of every schema in the database and
 * fails ("schema ... does not exist") when any of them is dropped meanwhile. The migrator asks it
 * at every start, so a neighbour dropping a schema (another deployment's, a test run's) made our
 * start fail. This one reads our own schema, the first of the search path, and nothing else.
 */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  // biome-ignore lint/suspicious/noExplicitAny: Kysely hands introspectors an untyped instance.
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<SchemaMetadata>`select nspname as name from pg_catalog.pg_namespace`.execute(
      this.db,
    );
    return rows;
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow & { schema: string }>`
      select c.relname as "table", c.relkind as table_type, ns.nspname as schema, a.attname as "column",
        a.attnotnull as not_null, a.atthasdef as has_default, typ.typname as type, dtns.nspname as type_schema,
        col_description(a.attrelid, a.attnum) as comment,
        pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) as sequence
      from pg_catalog.pg_namespace ns
      join pg_catalog.pg_class c on c.relnamespace = ns.oid
      join pg_catalog.pg_attribute a on a.attrelid = c.oid
      join pg_catalog.pg_type typ on typ.oid = a.atttypid
      join pg_catalog.pg_namespace dtns on dtns.oid = typ.typnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p') and a.attnum >= 0 and not a.attisdropped
      order by c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && row.table.startsWith('kysely_migration')) continue;
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.table_type === 'v', columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.sequence !== null,
        ...(row.comment === null ? {} : { comment: row.comment }),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

class OwnSchemaPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly health: DatabaseHealth,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new HealthRecordingDriver(super.createDriver(), this.health);
  }

  // biome-ignore lint/suspicious/noExplicitAny: the signature Kysely's Dialect declares.
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

/** How long a request waits for a database connection before it is answered 503. */
const CONNECT_TIMEOUT_MS = 3_000;

/** The defaults of the configuration (see PostgresTimeouts), for databases opened without it. */
export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = {
  statementMs: 15_000,
  lockMs: 3_000,
  idleInTransactionMs: 5_000,
  queryMs: 20_000,
  keepAliveMs: 10_000,
};

function openPostgres(
  url: string,
  poolSize: number,
  timeouts: PostgresTimeouts,
  health: DatabaseHealth,
  schema?: string,
): Db {
  const clientConfig: pg.ClientConfig = {
    connectionString: url,
    // A database that does not answer must not hold requests (or the change listener) forever.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: timeouts.keepAliveMs,
    statement_timeout: timeouts.statementMs,
    lock_timeout: timeouts.lockMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    query_timeout: timeouts.queryMs,
    // Tests isolate themselves in a schema of their own.
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  };
  const pool = new pg.Pool({ ...clientConfig, application_name: 'wellspring', max: poolSize });
  // PostgreSQL ends every connection when it shuts down or restarts. An idle pooled connection
  // reports that through the pool, a busy one on itself; unheard, either event ends the process.
  // The pool has already dropped the connection; the next request opens a new one.
  pool.on('error', (error) => health.failed(fromPostgres(error)));
  pool.on('connect', (client) => client.on('error', (error) => health.failed(fromPostgres(error))));
  const kysely = new Kysely<Database>({
    dialect: new OwnSchemaPostgresDialect({ pool: patientPool(pool, CONNECT_TIMEOUT_MS) }, health),
  });
  return {
    kysely,
    dialect: 'postgres',
    health,
    close: () => kysely.destroy(),
    newClient: () => new pg.Client({ ...clientConfig, application_name: 'wellspring-listen' }),
    poolState: () => ({
      max: poolSize,
      open: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
  };
}

interface OpenOptions {
  /** PostgreSQL: the schema to work in (tests isolate themselves this way). */
  schema?: string;
  /** SQLite: how long a write waits for another writer's lock. */
  busyTimeoutMs?: number;
  /** How long after its last failure a committed write counts as the database being back. */
  recoverySettleMs?: number;
}

export function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Db {
  const health = new DatabaseHealth(Date.now, options.recoverySettleMs);
  return target.kind === 'sqlite'
    ? openSqlite(target.file, options.busyTimeoutMs ?? 5_000, health)
    : openPostgres(
        target.url,
        target.poolSize ?? 10,
        target.timeouts ?? DEFAULT_POSTGRES_TIMEOUTS,
        health,
        options.schema,
      );
}

/**
 * Kysely looks for its migration tables in every schema it can see unless told which one to use,
 * so another schema's bookkeeping (another app or instance in the same database) would make it
 * skip creating ours. On PostgreSQL, pin them to the schema our tables are created in.
 */
async function migrationTableSchema(db: Db): Promise<{ migrationTableSchema?: string }> {
  if (db.dialect !== 'postgres') return {};
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db.kysely);
  const schema = rows[0]?.schema;
  return schema ? { migrationTableSchema: schema } : {};
}

async function migratorFor(db: Db): Promise<Migrator> {
  return new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
    ...(await migrationTableSchema(db)),
  });
}

/** Names of the migrations this code has that the database has not run. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const all = await (await migratorFor(db)).getMigrations();
  return all.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}

/** Brings the schema up to date. Safe to run at every start and from several instances at once. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = await migratorFor(db);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
