import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { MINUTE, now, SECOND } from '../time';
import { claimDueMail, markFailed, markSent, type OutboxRow } from './outbox';
import type { MailTransport } from './transport';

/** After this many failed attempts (about a day of backoff) a mail is given up and kept as failed. */
export const MAX_ATTEMPTS = 10;
/** Longer than any SMTP attempt can take (the transport times out well before). */
const LEASE_MS = 2 * MINUTE;
const BATCH = 20;

/** Wait before attempt n + 1 after n failures: 30 s, 1 min, 2 min, ... at most 4 hours. */
export function retryDelay(failures: number): number {
  return Math.min(30 * SECOND * 2 ** Math.max(0, failures - 1), 4 * 60 * MINUTE);
}

/**
 * Delivers the mail that is due, one batch after another until none is left; returns how many
 * were sent. Each mail is marked sent right after its delivery, by the attempt that holds it.
 */
export async function deliverDueMail(options: {
  db: Kysely<Database>;
  transport: MailTransport;
  at?: () => number;
  onError?: (row: OutboxRow, error: unknown) => void;
}): Promise<number> {
  const { db, transport } = options;
  const clock = options.at ?? now;
  let sent = 0;
  for (;;) {
    const rows = await claimDueMail(db, { at: clock(), limit: BATCH, leaseMs: LEASE_MS });
    if (rows.length === 0) return sent;
    for (const row of rows) {
      try {
        await transport.send({ to: row.to_address, subject: row.subject, text: row.body });
      } catch (error) {
        options.onError?.(row, error);
        await markFailed(db, row, {
          error: error instanceof Error ? error.message : String(error),
          retryAt: row.attempts >= MAX_ATTEMPTS ? null : clock() + retryDelay(row.attempts),
        });
        continue;
      }
      await markSent(db, row, clock());
      sent += 1;
    }
  }
}

export interface MailWorker {
  /** Looks for due mail now (after a commit that queued some) instead of at the next poll. */
  wake(): void;
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
}): MailWorker {
  const { db, transport, pollMs, onError } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = deliverDueMail({ db, transport, onError: (_row, error) => onError(error) })
      .then(
        () => undefined,
        (error) => onError(error),
      )
      .finally(() => {
        running = undefined;
        if (stopped) return;
        if (again) {
          again = false;
          run();
        } else {
          timer = setTimeout(run, pollMs);
          timer.unref();
        }
      });
  };
  run();

  return {
    wake: run,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      transport.close();
    },
  };
}
