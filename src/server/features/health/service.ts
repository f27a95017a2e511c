import crypto from 'node:crypto';
import type { NOT_READY_CODES } from '../../../common/endpoints/health';
import { type Db, pendingMigrations } from '../../db';
import { databaseUnavailability } from '../../db/availability';
import { writeTransaction } from '../../db/transaction-runner';
import type { WalCheckpoints } from '../../db/wal-checkpoints';
import { HOUR, now, SECOND } from '../../lib/time';
import { deleteHeartbeatsBefore, writeHeartbeat } from './queries';

export type NotReadyCode = (typeof NOT_READY_CODES)[number];

export interface NotReady {
  code: NotReadyCode;
  /** For the operator reading the probe: what failed, never data. */
  reason: string;
}

/** A probe that has not answered in this long answers "not ready" (a balancer waits a few seconds). */
export const PROBE_LIMIT_MS = 2 * SECOND;
/** Heartbeats of instances gone this long are deleted, at most once per PRUNE_EVERY_MS. */
const FORGET_AFTER_MS = 24 * HOUR;
const PRUNE_EVERY_MS = HOUR;

/**
 * Ready means this instance can do its job now, not that the database answers `select 1` (that
 * held through a full disk, a read-only database and a partition): every migration has run, the
 * pool is not swamped, a write of its own commits within PROBE_LIMIT_MS, writes are not failing
 * (DatabaseHealth, with its settling time), and SQLite's checkpoints are not failing with the
 * write-ahead log past its limit.
 */
export class Readiness {
  private readonly instanceId = crypto.randomUUID();
  private migrated = false;
  private lastPrunedAt = Number.NEGATIVE_INFINITY;
  /** The write under way: a probe stuck on a cut link is waited for, never joined by more. */
  private probing: Promise<NotReady | null> | null = null;

  constructor(
    private readonly db: Db,
    private readonly walCheckpoints: WalCheckpoints | null = null,
    private readonly clock: () => number = now,
  ) {}

  async check(): Promise<NotReady | null> {
    const at = this.clock();
    const pool = this.db.poolState?.();
    // A pool's worth of requests already queued for a connection: this instance is swamped.
    if (pool && pool.idle === 0 && pool.open >= pool.max && pool.waiting >= pool.max)
      return {
        code: 'DATABASE_POOL_EXHAUSTED',
        reason: `${pool.waiting} requests are waiting for one of ${pool.max} database connections`,
      };
    const probe = await this.probeWithin(PROBE_LIMIT_MS, at);
    if (probe) return probe;
    const health = this.db.health;
    if (health.isDown)
      return { code: 'DATABASE_RECOVERING', reason: `writes failed moments ago (${health.downReason})` };
    const checkpoints = this.walCheckpoints?.trouble();
    if (checkpoints) return { code: 'CHECKPOINTS_FAILING', reason: checkpoints };
    return null;
  }

  private probeWithin(limitMs: number, at: number): Promise<NotReady | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<NotReady>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            code: 'DATABASE_UNAVAILABLE',
            reason: `the write probe did not finish within ${limitMs} ms`,
          }),
        limitMs,
      );
    });
    // Probes that arrive while one is writing share its write (several balancers, a stuck link).
    this.probing ??= this.probe(at).finally(() => {
      this.probing = null;
    });
    return Promise.race([this.probing, late]).finally(() => clearTimeout(timer));
  }

  private async probe(at: number): Promise<NotReady | null> {
    try {
      if (!this.migrated) {
        const pending = await pendingMigrations(this.db);
        if (pending.length > 0)
          return { code: 'MIGRATIONS_PENDING', reason: `${pending.length} migrations have not run` };
        // Migrations never un-run: once seen applied, only the write remains.
        this.migrated = true;
      }
      await writeTransaction(this.db.kysely, (trx) => writeHeartbeat(trx, this.instanceId, at));
      if (at - this.lastPrunedAt >= PRUNE_EVERY_MS) {
        this.lastPrunedAt = at;
        await deleteHeartbeatsBefore(this.db.kysely, at - FORGET_AFTER_MS);
      }
      return null;
    } catch (error) {
      // An outage is recorded like any request's; anything else is a bug and must not look healthy.
      this.db.health.failed(error);
      const unavailable = databaseUnavailability(error);
      return {
        code: 'DATABASE_UNAVAILABLE',
        reason: unavailable ? `the write probe failed (${unavailable.reason})` : 'the write probe failed',
      };
    }
  }
}
