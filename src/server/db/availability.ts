/**
 * Why the database cannot serve right now, worded for the person who asked. A request that hits
 * one of these is answered 503 with Retry-After: the condition is the server's, and passes.
 */
export interface Unavailability {
  message: string;
  /** A short name for the operator's log, e.g. the driver's error code. */
  reason: string;
  /**
   * False when the database serves and this request only waited too long (a lock held by another
   * instance, a statement past its time): answered 503 all the same, but not an outage of this
   * instance's database, so it neither logs one nor takes the instance out of rotation.
   */
  outage: boolean;
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
 * abandoned too long (25P03); and a database that takes no writes (25006: a read-only server
 * or session, such as a standby or `default_transaction_read_only`).
 */
function isPostgresOutageState(code: string): boolean {
  return (
    /^(08|53)/.test(code) || ['57P01', '57P02', '57P03', '55P03', '57014', '25P03', '25006'].includes(code)
  );
}

/** A lock not granted in time, a statement cancelled: the database serves, this request waited. */
const POSTGRES_WAITED_TOO_LONG = new Set(['55P03', '57014']);

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
    return { message: SQLITE_CONDITIONS[sqliteBase], reason: code, outage: true };
  }
  if (!(FROM_POSTGRES in error)) return null;
  if (code && (NETWORK_CODES.has(code) || isPostgresOutageState(code)))
    return { message: GENERIC, reason: code, outage: !POSTGRES_WAITED_TOO_LONG.has(code) };
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string' && LOST_CONNECTION.test(message)) {
    return { message: GENERIC, reason: message.slice(0, 80), outage: true };
  }
  return null;
}

export type HealthEvent = { state: 'down'; reason: string } | { state: 'up'; downForMs: number };

/**
 * How long no failure must have been seen before a committed write counts as the database being
 * back. A full disk lets a small commit through now and then between failing ones; without this
 * pause each of those announced a recovery, and 20 s of a full disk logged 73 outages.
 */
export const RECOVERY_SETTLE_MS = 1_000;

/**
 * Whether the database is serving, as seen by this process, and the one place that decides it:
 * down at the first failure that means an outage; back only once a write has been committed (a
 * request's, a worker's or the readiness probe's) with no failure for RECOVERY_SETTLE_MS. A read
 * that works proves nothing (reads go on from a full disk, a read-only file or a read-only
 * PostgreSQL), nor does a statement inside a transaction whose commit may still fail. Observers
 * hear each change once: an outage is one log line going down and one coming back.
 */
export class DatabaseHealth {
  private downSince: number | null = null;
  private lastFailureAt = Number.NEGATIVE_INFINITY;
  private reason: string | null = null;
  private readonly observers = new Set<(event: HealthEvent) => void>();

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly settleMs: number = RECOVERY_SETTLE_MS,
  ) {}

  get isDown(): boolean {
    return this.downSince !== null;
  }

  /** The driver's short name for the failure that took it down (e.g. SQLITE_FULL), while down. */
  get downReason(): string | null {
    return this.isDown ? this.reason : null;
  }

  observe(observer: (event: HealthEvent) => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** Records a failure; returns how to answer it, or null when it is not an outage. */
  failed(error: unknown): Unavailability | null {
    const unavailable = databaseUnavailability(error);
    if (!unavailable?.outage) return unavailable;
    this.lastFailureAt = this.clock();
    if (this.downSince === null) {
      this.downSince = this.lastFailureAt;
      this.reason = unavailable.reason;
      this.emit({ state: 'down', reason: unavailable.reason });
    }
    return unavailable;
  }

  /** A write reached the database for good (its transaction committed). */
  committed(): void {
    if (this.downSince === null) return;
    const at = this.clock();
    if (at - this.lastFailureAt < this.settleMs) return;
    const downForMs = at - this.downSince;
    this.downSince = null;
    this.reason = null;
    this.emit({ state: 'up', downForMs });
  }

  private emit(event: HealthEvent) {
    for (const observer of this.observers) observer(event);
  }
}
