import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { MAX_ATTEMPTS, retryDelay } from '../backoff';
import { yieldToEventLoop } from '../event-loop';
import { type Poller, startPoller } from '../poller';
import { MINUTE, now } from '../time';
import { claimDueMail, markFailed, markSent, type OutboxRow } from './outbox';
import type { MailTransport } from './transport';

/** Longer than any SMTP attempt can take (the transport times out well before). */
const LEASE_MS = 2 * MINUTE;
const BATCH = 50;

/**
 * Delivers the mail that is due, one batch after another until none is left; returns how many
 * were sent. The mails of a batch go out side by side over the transport's pooled connections
 * (one connection per mail cost about 100 ms each, so an alert could wait behind a long queue).
 * The mails of a batch that went out are marked sent together once the batch is done, by the
 * attempt that holds them (one write per batch rather than one per mail); alerts are claimed
 * first (the outbox's priority).
 */
export async function deliverDueMail(options: {
  db: Kysely<Database>;
  transport: MailTransport;
  at?: () => number;
  onError?: (row: OutboxRow, error: unknown) => void;
}): Promise<number> {
  const { db, transport } = options;
  const clock = options.at ?? now;
  const deliver = async (row: OutboxRow): Promise<OutboxRow | null> => {
    try {
      await transport.send({ to: row.to_address, subject: row.subject, text: row.body });
      return row;
    } catch (error) {
      options.onError?.(row, error);
      await markFailed(db, row, {
        error: error instanceof Error ? error.message : String(error),
        retryAt: row.attempts >= MAX_ATTEMPTS ? null : clock() + retryDelay(row.attempts),
      });
      return null;
    }
  };
  let sent = 0;
  for (;;) {
    const rows = await claimDueMail(db, { at: clock(), limit: BATCH, leaseMs: LEASE_MS });
    if (rows.length === 0) return sent;
    const delivered = (await Promise.all(rows.map(deliver))).filter((row) => row !== null);
    await markSent(db, delivered, clock());
    sent += delivered.length;
    await yieldToEventLoop();
  }
}

export type MailWorker = Poller;

/**
 * Polls the outbox and delivers due mail. Every instance runs one; the outbox's leases keep them
 * from sending the same mail twice, and the poll picks up mail queued by other instances.
 */
export function startMailWorker(options: {
  db: Kysely<Database>;
  transport: MailTransport;
  pollMs: number;
  onError: (error: unknown) => void;
}): MailWorker {
  const { db, transport, onError } = options;
  const poller = startPoller({
    work: () => deliverDueMail({ db, transport, onError: (_row, error) => onError(error) }),
    pollMs: options.pollMs,
    onError,
  });
  return {
    wake: poller.wake,
    async stop() {
      await poller.stop();
      transport.close();
    },
  };
}
