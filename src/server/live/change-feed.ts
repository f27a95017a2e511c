import { EventEmitter } from 'node:events';
import { type Executor, isPostgres } from '../db/executor';
import type { CommitHooks } from '../db/transaction-runner';
import { notifyChange } from './queries';

/**
 * "Institution N's dashboard changed", told to every app instance watching. PostgreSQL carries it
 * with NOTIFY (to every instance listening on the same database and schema); SQLite has one process, so an in-process
 * emitter does. SQLite feeds are keyed by Kysely's dialect adapter, the one object a database
 * and all its transactions share, so two databases in one process (tests) never mix.
 */
const localFeeds = new WeakMap<object, EventEmitter>();

export const LOCAL_CHANGE_EVENT = 'change';

export function localFeed(db: Executor): EventEmitter {
  const key = db.getExecutor().adapter;
  let feed = localFeeds.get(key);
  if (!feed) {
    feed = new EventEmitter();
    // Every open dashboard stream of the process may listen; that is not a leak.
    feed.setMaxListeners(0);
    localFeeds.set(key, feed);
  }
  return feed;
}

/**
 * Called once the change is committed (an after-commit hook), so whoever reacts reads the new
 * numbers, on both databases alike. A notice that cannot be sent because the database just went
 * away is dropped rather than failing work already committed; open dashboards catch up with the
 * next change, or when their listener reconnects after the outage.
 */
export async function announceChange(db: Executor, institutionId: number): Promise<void> {
  if (isPostgres(db)) await notifyChange(db, institutionId).catch(() => undefined);
  else localFeed(db).emit(LOCAL_CHANGE_EVENT, institutionId);
}

/** Open dashboards of the institution refresh once the transaction commits, never before. */
export function announceChangeAfterCommit(hooks: CommitHooks, institutionId: number): void {
  hooks.afterCommit((db) => announceChange(db, institutionId));
}
