import { sql } from 'kysely';
import type { Executor } from '../../db/executor';
import { isPostgres } from '../../db/executor';

/**
 * How long the readiness write may wait for a lock or run, on PostgreSQL, before it gives up:
 * inside the probe's own limit (PROBE_LIMIT_MS), so a probe that meets a lock ends with the
 * database's reason rather than the limit's.
 */
const PROBE_STATEMENT_MS = 1_500;
/** Shorter still for a lock, so that a probe stuck behind one says so (55P03). */
const PROBE_LOCK_MS = 1_000;

/**
 * Upserts this instance's heartbeat row. Called in a transaction of its own: on PostgreSQL that
 * transaction is bounded by short lock and statement timeouts of its own.
 */
export async function writeHeartbeat(trx: Executor, instanceId: string, at: number): Promise<void> {
  if (isPostgres(trx)) {
    await sql.raw(`set local lock_timeout = ${PROBE_LOCK_MS}`).execute(trx);
    await sql.raw(`set local statement_timeout = ${PROBE_STATEMENT_MS}`).execute(trx);
  }
  await trx
    .insertInto('instance_heartbeats')
    .values({ instance_id: instanceId, beat_at: at })
    .onConflict((conflict) => conflict.column('instance_id').doUpdateSet({ beat_at: at }))
    .execute();
}

/** Forgets instances that stopped long ago (every restart is a new instance). */
export async function deleteHeartbeatsBefore(db: Executor, before: number): Promise<void> {
  await db.deleteFrom('instance_heartbeats').where('beat_at', '<', before).execute();
}
