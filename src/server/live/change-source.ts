import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Db } from '../db';
import { LOCAL_CHANGE_EVENT, localFeed } from './change-feed';
import { CHANGE_CHANNEL, currentSchema } from './queries';

/** Where an app instance hears that an institution's dashboard changed. */
export interface ChangeSource {
  /** `onChange` for each change; `onResync` after notices may have been missed (reconnect). */
  start(onChange: (institutionId: number) => void, onResync: () => void): Promise<void>;
  stop(): Promise<void>;
}

/** SQLite: one process, one in-process feed. */
class LocalChangeSource implements ChangeSource {
  private handler: ((institutionId: number) => void) | null = null;

  constructor(private readonly db: Db) {}

  async start(onChange: (institutionId: number) => void) {
    this.handler = onChange;
    localFeed(this.db.kysely).on(LOCAL_CHANGE_EVENT, onChange);
  }

  async stop() {
    if (this.handler) localFeed(this.db.kysely).off(LOCAL_CHANGE_EVENT, this.handler);
    this.handler = null;
  }
}

/**
 * Short and capped: the listener is one connection per instance, so trying four times a second
 * costs the database nothing, and live updates resume within a quarter second of its return.
 */
export const RECONNECT_DELAYS_MS = [50, 100, 200, 250];

/** What the listener needs of its connection: a node-postgres client outside the pool. */
export interface ListenClient {
  on(event: 'notification', listener: (message: pg.Notification) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}

interface PostgresChangeSourceOptions {
  /** The schema whose notices are ours: instances sharing a database but not a schema are apart. */
  schema: () => Promise<string>;
  /** A new, not yet connected client for each attempt. */
  newClient: () => ListenClient;
  log: FastifyBaseLogger;
}

/**
 * PostgreSQL: LISTEN on a dedicated client (a pooled one would be handed to other queries), so
 * every instance hears every committed change. Reconnects on its own after a drop.
 */
export class PostgresChangeSource implements ChangeSource {
  private client: ListenClient | null = null;
  private schema = '';
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private onChange: (institutionId: number) => void = () => {};
  private onResync: () => void = () => {};

  private readonly log: FastifyBaseLogger;

  constructor(private readonly options: PostgresChangeSourceOptions) {
    this.log = options.log;
  }

  async start(onChange: (institutionId: number) => void, onResync: () => void) {
    this.onChange = onChange;
    this.onResync = onResync;
    this.schema = await this.options.schema();
    await this.connect();
  }

  async stop() {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async connect() {
    const client = this.options.newClient();
    client.on('notification', (message) => this.heard(message));
    client.on('error', (error) => {
      this.log.warn(
        { reason: errorReason(error) },
        'dashboard change listener lost its connection; reconnecting',
      );
      this.dropped(client);
    });
    client.on('end', () => this.dropped(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.failures = 0;
  }

  private heard(message: pg.Notification) {
    if (message.channel !== CHANGE_CHANNEL || !message.payload) return;
    const separator = message.payload.lastIndexOf(':');
    if (message.payload.slice(0, separator) !== this.schema) return;
    const institutionId = Number(message.payload.slice(separator + 1));
    if (Number.isInteger(institutionId)) this.onChange(institutionId);
  }

  private dropped(client: ListenClient) {
    if (this.client !== client) return;
    this.client = null;
    void client.end().catch(() => {});
    this.reconnectLater();
  }

  private reconnectLater() {
    if (this.stopped || this.retryTimer) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(this.failures, RECONNECT_DELAYS_MS.length - 1)];
    this.retryTimer = setTimeout(async () => {
      this.retryTimer = null;
      try {
        await this.connect();
        this.log.info('dashboard change listener reconnected');
        // Changes made while we were deaf: everyone gets fresh numbers.
        this.onResync();
      } catch (error) {
        // Said once when the connection was lost; an outage is not a log line per attempt.
        this.failures += 1;
        this.log.debug({ reason: errorReason(error) }, 'dashboard change listener could not reconnect yet');
        this.reconnectLater();
      }
    }, delay);
  }
}

function errorReason(error: unknown): string {
  return error instanceof Error ? ((error as { code?: string }).code ?? error.message) : String(error);
}

export function changeSourceFor(db: Db, log: FastifyBaseLogger): ChangeSource {
  if (db.dialect === 'postgres') {
    if (!db.newClient) throw new Error('PostgreSQL database without a dedicated client factory');
    return new PostgresChangeSource({ schema: () => currentSchema(db.kysely), newClient: db.newClient, log });
  }
  return new LocalChangeSource(db);
}
