import { type Kysely, sql } from 'kysely';
import type { Dialect } from './index';
import type { Database } from './types';

/** Past this, an instance's clock is said to differ from the database's (logged once). */
export const CLOCK_SKEW_WARNING_MS = 5_000;

/**
 * The database's clock, as every instance sharing a PostgreSQL database must read it for leases
 * and due times: with each instance on its own clock, one running minutes ahead took the leases
 * of the others' mails (sending them twice) and ran escalations before they were due. The offset
 * from this machine's clock is measured at each `sync()` (a worker's pass) and `now()` applies it;
 * on SQLite the database is on this machine, and its clock is ours.
 */
export class DatabaseClock {
  private offsetMs = 0;
  private skewed = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    /** Told when this machine's clock comes to differ by more than CLOCK_SKEW_WARNING_MS. */
    private readonly onSkew: (offsetMs: number) => void = () => undefined,
  ) {}

  async sync(): Promise<void> {
    if (this.dialect !== 'postgres') return;
    const before = Date.now();
    const { rows } = await sql<{ now: number }>`
      select (extract(epoch from clock_timestamp()) * 1000)::bigint as now`.execute(this.db);
    const after = Date.now();
    const databaseNow = rows[0]?.now;
    if (databaseNow === undefined) return;
    // The database read its clock about halfway through the round trip.
    this.offsetMs = databaseNow - (before + after) / 2;
    const skewed = Math.abs(this.offsetMs) > CLOCK_SKEW_WARNING_MS;
    if (skewed && !this.skewed) this.onSkew(this.offsetMs);
    this.skewed = skewed;
  }

  /** The database's time as of the last sync, in epoch milliseconds. */
  readonly now = (): number => Math.round(Date.now() + this.offsetMs);
}
