import fs from 'node:fs';
import { sql } from 'kysely';
import type { Db } from './index';

/** How often the write-ahead log is copied back into the database file (and the outcome seen). */
export const CHECKPOINT_INTERVAL_MS = 10_000;

export interface CheckpointEvents {
  /** Once per episode: the first checkpoint that failed after one that worked. */
  onFailing(error: unknown, walBytes: number): void;
  /** Once per episode: the first checkpoint that worked after failing ones. */
  onRecovered(walBytes: number): void;
}

/**
 * SQLite's write-ahead log is copied back into the database file by checkpoints, which SQLite
 * runs after commits and keeps quiet about when they fail: with the main file read-only, every
 * commit still went into the log, the log grew without bound and nothing said so. This runs a
 * PASSIVE checkpoint (it never waits for readers or writers) on its own schedule, says once when
 * checkpoints start failing and once when they work again, and tells readiness when they keep
 * failing while the log has grown past its limit.
 */
export class WalCheckpoints {
  private failing = false;

  constructor(
    private readonly options: {
      checkpoint: () => Promise<void>;
      walBytes: () => number;
      limitBytes: number;
      events: CheckpointEvents;
    },
  ) {}

  async run(): Promise<void> {
    try {
      await this.options.checkpoint();
    } catch (error) {
      if (!this.failing) this.options.events.onFailing(error, this.options.walBytes());
      this.failing = true;
      return;
    }
    if (this.failing) this.options.events.onRecovered(this.options.walBytes());
    this.failing = false;
  }

  /** Why the instance cannot be counted on to keep its writes, or null. */
  trouble(): string | null {
    if (!this.failing) return null;
    const walBytes = this.options.walBytes();
    if (walBytes <= this.options.limitBytes) return null;
    return `checkpoints keep failing and the write-ahead log holds ${Math.round(walBytes / 2 ** 20)} MB`;
  }
}

/** The size of a file, 0 when it does not exist (no log yet, or just truncated). */
function fileBytes(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** Checkpoints of an SQLite database file; null for PostgreSQL or an in-memory database. */
export function walCheckpointsOf(
  db: Db,
  limitBytes: number,
  events: CheckpointEvents,
): WalCheckpoints | null {
  const walFile = db.walFile;
  if (db.dialect !== 'sqlite' || !walFile) return null;
  return new WalCheckpoints({
    // Through Kysely, so it waits its turn on the connection rather than landing inside a transaction.
    checkpoint: async () => {
      await sql`pragma wal_checkpoint(PASSIVE)`.execute(db.kysely);
    },
    walBytes: () => fileBytes(walFile),
    limitBytes,
    events,
  });
}
