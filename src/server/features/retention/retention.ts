import { type Kysely, sql } from 'kysely';
import type { RetentionConfig } from '../../config';
import type { DatabaseClock } from '../../db/clock';
import type { Database } from '../../db/types';
import { type Poller, startPoller } from '../../lib/poller';
import { HOUR, now } from '../../lib/time';
import { PROOF_LIFETIME } from '../verify';

/**
 * Deletes what has served its moment: the rows of mails delivered or given up on (their words
 * went when they left, see markSent), one-time codes once expired or used, and proofs of an
 * address once they no longer prove it. A database copied later holds as little as it can.
 * Mail a case caused stays: its row is that case's record of the alert (case_mails).
 * Idempotent, so every instance may run it on its own clock without any lease.
 */
export async function deleteExpiredRecords(
  db: Kysely<Database>,
  retention: RetentionConfig,
  at: number,
): Promise<{ mails: number; codes: number; proofs: number }> {
  const mails = await db
    .deleteFrom('mail_outbox')
    .where('status', 'in', ['sent', 'failed'])
    // A given-up mail has no sent_at: its creation dates it (its retries end within a day).
    .where(sql<number>`coalesce(sent_at, created_at)`, '<', at - retention.outboxMs)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('case_mails').select('mail_id').whereRef('case_mails.mail_id', '=', 'mail_outbox.id'),
        ),
      ),
    )
    .executeTakeFirst();
  const codeCutoff = at - retention.expiredCodesMs;
  const codes = await db
    .deleteFrom('verification_codes')
    .where((eb) => eb.or([eb('expires_at', '<', codeCutoff), eb('used_at', '<', codeCutoff)]))
    .executeTakeFirst();
  const proofs = await db
    .deleteFrom('address_proofs')
    .where('proven_at', '<', codeCutoff - PROOF_LIFETIME)
    .executeTakeFirst();
  return {
    mails: Number(mails.numDeletedRows),
    codes: Number(codes.numDeletedRows),
    proofs: Number(proofs.numDeletedRows),
  };
}

/** How often each instance runs the retention pass: the ages it keeps are days and hours. */
const RETENTION_POLL_MS = HOUR;

/**
 * Runs the retention pass at start and then hourly, until stopped. Ages follow the database's
 * clock when given (as leases do): an instance whose own clock runs ahead deletes nothing early.
 */
export function startRetention(options: {
  db: Kysely<Database>;
  retention: RetentionConfig;
  databaseClock?: DatabaseClock;
  onError: (error: unknown) => void;
}): Poller {
  const { databaseClock } = options;
  return startPoller({
    work: async () => {
      await databaseClock?.sync();
      return deleteExpiredRecords(options.db, options.retention, databaseClock ? databaseClock.now() : now());
    },
    pollMs: RETENTION_POLL_MS,
    onError: options.onError,
  });
}
