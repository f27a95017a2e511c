/**
 * Limits that hold with several instances: rate-limit counters (per client address, per account,
 * per address being verified...) and live-dashboard stream slots live in the database, which
 * every instance already shares. The database rather than Redis because every deployment has
 * one (SQLite for a single instance, PostgreSQL for several) and Redis would be one more service
 * to run and secure; a counter is one atomic upsert on a primary key, cheap next to the requests
 * it guards. Counts kept in process memory would let each added instance multiply every limit.
 *
 * Three ways to use them:
 * - On a route, `config: { rateLimit: { max, timeWindow } }`: counts per client address, through
 *   the shared store that app.ts gives @fastify/rate-limit (see sharedRateLimitStore).
 * - In a service, `enforceLimit(db, key, rule, message?)` for anything else (an email address, an
 *   account), answering 429 once the rule's count is passed.
 * - `clearLimit(db, key)` forgets a count (e.g. after a successful login).
 *
 * Keys are free text up to 400 characters; prefix them with what they count, e.g.
 * `verify:address:<email>`, so that two rules never share a counter.
 */
import crypto from 'node:crypto';
import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import { sql } from 'kysely';
import type { Executor } from '../db/executor';
import { LIMITS, routeLimit } from '../limit-table';
import { AppError, TOO_MANY_REQUESTS_MESSAGE } from './errors';
import { now } from './time';

interface LimitRule {
  /** Hits allowed inside one window; the next one is refused. */
  max: number;
  windowMs: number;
}

interface Count {
  hits: number;
  /** When the window ends and counting starts again. */
  resetsAt: number;
}

/** Expired counters are deleted every this many counts (per process), so the table stays small. */
const SWEEP_EVERY = 500;
let countsSinceSweep = 0;

/**
 * Counts one hit in a single statement, so hits arriving at the same moment on different
 * instances cannot all read the same count; a window that has run out starts again at 1.
 */
export async function countHit(db: Executor, key: string, windowMs: number, at = now()): Promise<Count> {
  const open = sql<boolean>`limit_counters.expires_at > ${at}`;
  const row = await db
    .insertInto('limit_counters')
    .values({ key, hits: 1, window_started_at: at, expires_at: at + windowMs })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`case when ${open} then limit_counters.hits + 1 else 1 end`,
        window_started_at: sql<number>`case when ${open} then limit_counters.window_started_at else ${at} end`,
        expires_at: sql<number>`case when ${open} then limit_counters.expires_at else ${at + windowMs} end`,
      }),
    )
    .returning(['hits', 'expires_at'])
    .executeTakeFirstOrThrow();
  countsSinceSweep += 1;
  if (countsSinceSweep >= SWEEP_EVERY) {
    countsSinceSweep = 0;
    await db.deleteFrom('limit_counters').where('expires_at', '<=', at).execute();
  }
  return { hits: Number(row.hits), resetsAt: Number(row.expires_at) };
}

/**
 * Counts one hit and refuses it (429) once the rule's maximum is passed, with the usual message
 * unless the caller has something more useful to say (how long an account stays locked).
 */
export async function enforceLimit(
  db: Executor,
  key: string,
  rule: LimitRule,
  message = TOO_MANY_REQUESTS_MESSAGE,
): Promise<Count> {
  const count = await countHit(db, key, rule.windowMs);
  if (count.hits > rule.max) throw new AppError('TOO_MANY_REQUESTS', message);
  return count;
}

export async function clearLimit(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('limit_counters').where('key', '=', key).execute();
}

/**
 * A store for @fastify/rate-limit that keeps its counts in limit_counters, so a route's
 * `config.rateLimit` holds across instances. Each route counts under its own method and path.
 */
export function sharedRateLimitStore(
  db: Executor,
): new (
  options: FastifyRateLimitOptions,
) => FastifyRateLimitStore {
  class SharedStore implements FastifyRateLimitStore {
    constructor(
      _options: FastifyRateLimitOptions,
      private readonly prefix = 'rate:',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ) {
      const at = now();
      countHit(db, `${this.prefix}${key}`, timeWindow, at).then(
        (count) => callback(null, { current: count.hits, ttl: Math.max(0, count.resetsAt - at) }),
        (error: Error) => callback(error),
      );
    }

    // At run time the plugin hands over the route's merged settings, the route under routeInfo.
    child(routeOptions: unknown) {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: string } }).routeInfo ?? {};
      return new SharedStore({}, `rate:${String(route.method ?? '')}:${route.url ?? ''}:`);
    }
  }
  return SharedStore;
}

/**
 * Live-dashboard streams a user may hold open at once, counted across instances: each open stream
 * holds one of the user's numbered slots in the database, renews it while it lives and frees it
 * when it ends. A slot whose instance died unannounced expires on its own after `leaseMs`.
 */
interface StreamSlots {
  /** Takes a free (or expired) slot; null when all are held. */
  acquire(userId: number): Promise<StreamSlot | null>;
}

interface StreamSlot {
  renew(): Promise<void>;
  release(): Promise<void>;
}

export function streamSlots(db: Executor, options: { perUser: number; leaseMs: number }): StreamSlots {
  return {
    async acquire(userId) {
      const holder = crypto.randomUUID();
      for (let slot = 0; slot < options.perUser; slot++) {
        const at = now();
        // Taken only if free or expired: one atomic statement per slot, whichever instance asks.
        const taken = await db
          .insertInto('stream_slots')
          .values({ user_id: userId, slot, holder, expires_at: at + options.leaseMs })
          .onConflict((oc) =>
            oc
              .columns(['user_id', 'slot'])
              .doUpdateSet({ holder, expires_at: at + options.leaseMs })
              .where('stream_slots.expires_at', '<=', at),
          )
          .returning('slot')
          .executeTakeFirst();
        if (!taken) continue;
        return {
          async renew() {
            await db
              .updateTable('stream_slots')
              .set({ expires_at: now() + options.leaseMs })
              .where('user_id', '=', userId)
              .where('slot', '=', slot)
              .where('holder', '=', holder)
              .execute();
          },
          async release() {
            await db
              .deleteFrom('stream_slots')
              .where('user_id', '=', userId)
              .where('slot', '=', slot)
              .where('holder', '=', holder)
              .execute();
          },
        };
      }
      return null;
    },
  };
}

/** The per-client limit every CSV export route shares, so all exports keep one rule. */
export function csvExportLimit(config: { limits: { csvExportsPerIpPerMinute: number } }) {
  return routeLimit({ ...LIMITS.csvExportsPerClient, max: config.limits.csvExportsPerIpPerMinute });
}
