import { setTimeout as delay } from 'node:timers/promises';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { fromPostgres } from './availability';

/**
 * PostgreSQL is at its connection limit (53300), out of connection slots (53000 class) or still
 * starting (57P03): a slot usually frees within moments.
 */
function isBusyServer(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('53') || code === '57P03');
}

/**
 * The pool, asking again for a connection while the server is merely busy. Near the server's
 * connection limit, an instance that holds few connections would otherwise fail every request
 * whose new connection is refused, while an instance that opened its connections earlier serves
 * all of its own: waiting a moment lets the refused request take a connection this instance
 * releases, or a slot another one frees. Gives up after the connect timeout (then: 503).
 */
export function patientPool(pool: pg.Pool, timeoutMs: number): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const deadline = Date.now() + timeoutMs;
      for (let attempt = 0; ; attempt++) {
        try {
          return markingErrors(await pool.connect());
        } catch (error) {
          const wait = Math.min(25 * 2 ** attempt, 200) * (0.5 + Math.random());
          if (!isBusyServer(error) || Date.now() + wait > deadline) throw fromPostgres(error);
          await delay(wait);
        }
      }
    },
    end: () => pool.end(),
  };
}

const marked = new WeakSet<pg.PoolClient>();

/** node-postgres gave up waiting for an answer (query_timeout); the query may still be running. */
const UNANSWERED = /^Query read timeout/;

/**
 * The client, its failed queries marked as PostgreSQL's (see `fromPostgres`). A client whose
 * query went unanswered fails every later query at once and is closed when released: it still
 * waits for that answer, and every query given to it after would wait behind it (on a cut link,
 * for ever).
 */
function markingErrors(client: pg.PoolClient): pg.PoolClient {
  if (marked.has(client)) return client;
  marked.add(client);
  let unanswered: Error | null = null;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  // Kysely passes text and values (a promise comes back) or a cursor (returned as it is).
  (client as { query: unknown }).query = (...args: unknown[]) => {
    // Nothing more can be answered on it: the rollback that follows a timed-out statement would
    // wait out a query timeout of its own, doubling the time a cut-off instance takes to answer.
    if (unanswered) return Promise.reject(fromPostgres(unanswered));
    const result = query(...args);
    return result instanceof Promise
      ? result.catch((error: unknown) => {
          if (error instanceof Error && UNANSWERED.test(error.message)) unanswered = error;
          return Promise.reject(fromPostgres(error));
        })
      : result;
  };
  const release = client.release.bind(client);
  client.release = (error?: Error | boolean) => release(error ?? unanswered ?? undefined);
  return client;
}
