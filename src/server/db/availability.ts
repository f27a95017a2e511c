import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult } from 'kysely';
import type { Dialect } from './index';

/**
 * Why the database cannot serve right now, worded for the person who asked. A request that hits
 * one of these is answered 503 with Retry-After: the condition is the server's, and passes.
 */
interface Unavailability {
  message: string;
  /** A short name for the operator's log, e.g. the driver's error code. */
  reason: string;
}

const GENERIC = 'The service is briefly unavailable. Please try again in a few seconds.';

const SQLITE_CONDITIONS: Record<string, string> = {
  SQLITE_BUSY: 'The database is busy. Please try again in a few seconds.',
  SQLITE_LOCKED: 'The database is busy. Please try again in a few seconds.',
  SQLITE_FULL: 'The server has run out of storage space, so nothing was saved. Please try again later.',
  SQLITE_READONLY:
    'The database cannot be written to at the moment, so nothing was saved. Please try again later.',
  SQLITE_IOERR: 'The server could not reach its storage, so nothing was saved. Please try again later.',
  SQLITE_CANTOPEN: 'The server could not reach its storage. Please try again later.',
};

/**
 * PostgreSQL states that mean "not now" rather than "wrong": connection exceptions (class 08),
 * too many connections or out of resources (class 53), the server shutting down or starting up
 * (57P01-57P03), and the session timeouts that keep one stranded instance from holding the
 * others: a lock not granted in time (55P03), a statement cancelled (57014), a transaction
 * abandoned too long (25P03).
 */
function isPostgresOutageState(code: string): boolean {
  return /^(08|53)/.test(code) || ['57P01', '57P02', '57P03', '55P03', '57014', '25P03'].includes(code);
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Messages node-postgres gives lost or never-made connections, which carry no code. */
const LOST_CONNECTION =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|Client was closed|Query read timeout)/;

const FROM_POSTGRES = Symbol('from PostgreSQL');

/**
 * Marks an error as PostgreSQL's own (its connection or its answer). A refused or reset
 * connection means a database outage only when it was the database's connection: the same codes
 * from a mail server or a sign-in provider are those services' trouble, not a reason for 503.
 */
export function fromPostgres<T>(error: T): T {
  if (error && typeof error === 'object' && !(FROM_POSTGRES in error)) {
    Object.defineProperty(error, FROM_POSTGRES, { value: true });
  }
  return error;
}

/** Whether an error means the database is unreachable or unable to serve, and how to say so. */
export function databaseUnavailability(error: unknown): Unavailability | null {
  if (!error || typeof error !== 'object') return null;
  const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : '';
  // better-sqlite3 reports extended codes (SQLITE_IOERR_WRITE, SQLITE_BUSY_SNAPSHOT...).
  const sqliteBase = /^SQLITE_[A-Z]+/.exec(code)?.[0];
  if (sqliteBase && SQLITE_CONDITIONS[sqliteBase]) {
    return { message: SQLITE_CONDITIONS[sqliteBase], reason: code };
  }
  if (!(FROM_POSTGRES in error)) return null;
  if (code && (NETWORK_CODES.has(code) || isPostgresOutageState(code)))
    return { message: GENERIC, reason: code };
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string' && LOST_CONNECTION.test(message)) {
    return { message: GENERIC, reason: message.slice(0, 80) };
  }
  return null;
}

export type HealthEvent = { state: 'down'; reason: string } | { state: 'up'; downForMs: number };

/**
 * Whether the database is serving, as seen by this process: down at the first failure that means
 * an outage, up again at the first success after it. Observers hear each change once, so an
 * outage is one log line going down and one coming back, however many requests failed meanwhile.
 */
export class DatabaseHealth {
  private downSince: number | null = null;
  private readonly observers = new Set<(event: HealthEvent) => void>();

  constructor(private readonly clock: () => number = Date.now) {}

  get isDown(): boolean {
    return this.downSince !== null;
  }

  observe(observer: (event: HealthEvent) => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** Records a failure; returns how to answer it, or null when it is not an outage. */
  failed(error: unknown): Unavailability | null {
    const unavailable = databaseUnavailability(error);
    if (unavailable && this.downSince === null) {
      this.downSince = this.clock();
      this.emit({ state: 'down', reason: unavailable.reason });
    }
    return unavailable;
  }

  succeeded(): void {
    if (this.downSince === null) return;
    const downForMs = this.clock() - this.downSince;
    this.downSince = null;
    this.emit({ state: 'up', downForMs });
  }

  private emit(event: HealthEvent) {
    for (const observer of this.observers) observer(event);
  }
}

/**
 * Tells the health record about every query that worked. On SQLite only writes count: reads go
 * on while the disk is full or the file read-only, and would announce a recovery every time.
 */
export function healthRecordingPlugin(health: DatabaseHealth, dialect: Dialect): KyselyPlugin {
  return {
    transformQuery: (args: PluginTransformQueryArgs) => args.node,
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<Record<string, unknown>>> {
      if (health.isDown && (dialect === 'postgres' || args.result.numAffectedRows !== undefined)) {
        health.succeeded();
      }
      return args.result;
    },
  };
}
