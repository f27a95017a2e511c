import { setImmediate } from 'node:timers/promises';

/**
 * Gives waiting requests and timers their turn. A loop of awaited work whose every step is
 * already settled (better-sqlite3 answers at once; without SMTP a mail is logged at once) runs on
 * microtasks alone and reads no socket until it ends: sending a 60,000-student campaign on
 * SQLite without SMTP held every request for 13 s. The job and mail loops call this between
 * their units of work.
 */
export function yieldToEventLoop(): Promise<void> {
  return setImmediate();
}
