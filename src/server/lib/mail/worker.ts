import { setTimeout as delay } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { DatabaseClock } from '../../db/clock';
import type { Database } from '../../db/types';
import { MAX_ATTEMPTS, retryDelay } from '../backoff';
import { yieldToEventLoop } from '../event-loop';
import { startPoller } from '../poller';
import { MINUTE, now, SECOND } from '../time';
import { claimDueMail, markFailed, markSent, messageKey, type OutboxRow, releaseMail } from './outbox';
import type { MailTransport } from './transport';

/** Longer than any SMTP attempt can take (the transport times out well before). */
const LEASE_MS = 2 * MINUTE;
const BATCH = 50;
/** How long a stopping instance lets the mails it is sending finish before it gives them back. */
export const STOP_GRACE_MS = 5 * SECOND;

/**
 * Records mails sent as soon as the relay accepts each one: an instance that dies, or loses the
 * database, after the relay took a mail sends it again once the lease runs out, so the moments
 * between the two are kept as short as a write. Mails accepted while a write is under way go
 * together in the next one, so a busy batch costs a few writes, not one per mail. A write that
 * fails (the database is away) is tried again at the next pass, while the lease still holds them.
 */
class SentLedger {
  private queued: OutboxRow[] = [];
  private writing: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number,
  ) {}

  /** Resolves once the row is written sent, or kept for the next pass when the write failed. */
  record(row: OutboxRow): Promise<void> {
    this.queued.push(row);
    this.writing ??= this.writeQueued();
    return this.writing;
  }

  /** Writes what an earlier pass could not; throws (the database is still away) and keeps them. */
  async retryUnwritten(): Promise<void> {
    await this.writing;
    const rows = this.queued.splice(0);
    try {
      await markSent(this.db, rows, this.clock());
    } catch (error) {
      this.queued.unshift(...rows);
      throw error;
    }
  }

  /** Waits for the write under way, if any. */
  settled(): Promise<void> {
    return this.writing ?? Promise.resolve();
  }

  private async writeQueued(): Promise<void> {
    let failed: OutboxRow[] = [];
    while (this.queued.length > 0) {
      const rows = this.queued.splice(0);
      try {
        await markSent(this.db, rows, this.clock());
      } catch {
        failed = failed.concat(rows);
      }
    }
    // No await between the loop's last check and here: a row recorded now starts a new write.
    this.queued = failed;
    this.writing = null;
  }
}

/** One instance's delivery of the outbox: what it holds, and how it stops. */
export interface MailDelivery {
  /** Delivers the mail that is due, one batch after another until none is left; returns how many were sent. */
  deliverDue(): Promise<number>;
  /**
   * Claims no more mail, lets the mails being sent finish for up to `graceMs`, closes the
   * transport, and gives back the mails it could not send, due again at once for another instance.
   */
  stop(options: { graceMs: number; running?: Promise<unknown> }): Promise<void>;
}

/**
 * The mails of a batch go out side by side over the transport's pooled connections (one
 * connection per mail cost about 100 ms each, so an alert could wait behind a long queue); each
 * is recorded sent as soon as the relay accepts it (SentLedger); alerts are claimed first (the
 * outbox's priority). A mail carries the same Message-ID at every attempt.
 */
export function mailDelivery(options: {
  db: Kysely<Database>;
  transport: MailTransport;
  /** The time (tests move it); else the database's clock when given, else this machine's. */
  at?: () => number;
  databaseClock?: DatabaseClock;
  onError?: (row: OutboxRow, error: unknown) => void;
}): MailDelivery {
  const { db, transport } = options;
  const clock = options.at ?? options.databaseClock?.now ?? now;
  const ledger = new SentLedger(db, clock);
  /** Claimed by this instance and neither accepted nor failed yet. */
  const sending = new Set<OutboxRow>();
  let stopping = false;

  const deliver = async (row: OutboxRow): Promise<boolean> => {
    sending.add(row);
    try {
      await transport.send({ to: row.to_address, subject: row.subject, text: row.body }, messageKey(row));
    } catch (error) {
      // A stopping instance ended the send itself: the row is given back, not failed.
      if (stopping) return false;
      sending.delete(row);
      options.onError?.(row, error);
      await markFailed(db, row, {
        error: error instanceof Error ? error.message : String(error),
        retryAt: row.attempts >= MAX_ATTEMPTS ? null : clock() + retryDelay(row.attempts),
      });
      return false;
    }
    sending.delete(row);
    await ledger.record(row);
    return true;
  };

  return {
    async deliverDue() {
      if (!options.at) await options.databaseClock?.sync();
      await ledger.retryUnwritten();
      let sent = 0;
      while (!stopping) {
        const rows = await claimDueMail(db, { at: clock(), limit: BATCH, leaseMs: LEASE_MS });
        if (rows.length === 0) break;
        const delivered = await Promise.all(rows.map(deliver));
        sent += delivered.filter(Boolean).length;
        await yieldToEventLoop();
      }
      return sent;
    },
    async stop({ graceMs, running }) {
      stopping = true;
      const grace = new AbortController();
      await Promise.race([
        running?.catch(() => undefined),
        delay(graceMs, undefined, { signal: grace.signal }).catch(() => undefined),
      ]);
      grace.abort();
      transport.close();
      await ledger.settled();
      const unsent = [...sending];
      sending.clear();
      await releaseMail(db, unsent);
    },
  };
}

/** One pass over the due mail (tests drive the outbox with it). */
export function deliverDueMail(options: Parameters<typeof mailDelivery>[0]): Promise<number> {
  return mailDelivery(options).deliverDue();
}

export interface MailWorker {
  /** Delivers now (after a commit that queued mail) instead of at the next poll. */
  wake(): void;
  /** See MailDelivery.stop: bounded by the grace period however the relay behaves. */
  stop(): Promise<void>;
}

/**
 * Polls the outbox and delivers due mail. Every instance runs one; the outbox's leases keep them
 * from sending the same mail twice, and the poll picks up mail queued by other instances.
 */
export function startMailWorker(options: {
  db: Kysely<Database>;
  transport: MailTransport;
  pollMs: number;
  onError: (error: unknown) => void;
  databaseClock?: DatabaseClock;
  stopGraceMs?: number;
}): MailWorker {
  const { db, transport, onError } = options;
  const delivery = mailDelivery({
    db,
    transport,
    ...(options.databaseClock ? { databaseClock: options.databaseClock } : {}),
    onError: (_row, error) => onError(error),
  });
  let running: Promise<unknown> | undefined;
  const poller = startPoller({
    work: () => {
      running = delivery.deliverDue();
      return running;
    },
    pollMs: options.pollMs,
    onError,
  });
  return {
    wake: poller.wake,
    async stop() {
      // The poller runs no more passes; the one under way has the grace period to end.
      void poller.stop();
      await delivery.stop({ graceMs: options.stopGraceMs ?? STOP_GRACE_MS, running }).catch(onError);
    },
  };
}
