import crypto from 'node:crypto';
import { PostgresAdapter } from 'kysely';
import type { Executor } from '../../db/executor';

/** A mail as the product writes it: plain text, to one address. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** A mail claimed for one delivery attempt; `attempts` counts this one. */
export interface OutboxRow {
  id: number;
  to_address: string;
  subject: string;
  body: string;
  attempts: number;
  created_at: number;
  lease_token: string;
}

/**
 * The same for every attempt at one outbox row and never shared with another row: the local part
 * of the mail's Message-ID, so a relay or mail client that drops repeats drops a second copy.
 */
export function messageKey(row: Pick<OutboxRow, 'id' | 'created_at'>): string {
  return `outbox.${row.id}.${row.created_at}`;
}

/** Alerts about a student go out before anything queued in bulk (a campaign's invitations). */
const MAIL_PRIORITY = { bulk: 0, normal: 1, alert: 2 } as const;
type MailPriority = keyof typeof MAIL_PRIORITY;

/**
 * Queues a mail and returns its id. Call it with the transaction of what causes the mail: the
 * mail is kept exactly when its cause is, and a rolled-back cause sends nothing.
 */
export async function enqueueMail(
  trx: Executor,
  mail: OutgoingMail,
  at: number,
  priority: MailPriority = 'normal',
): Promise<number> {
  const row = await trx
    .insertInto('mail_outbox')
    .values({
      to_address: mail.to,
      subject: mail.subject,
      body: mail.text,
      status: 'pending',
      next_attempt_at: at,
      created_at: at,
      priority: MAIL_PRIORITY[priority],
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Queues many mails with one statement per chunk, in the caller's transaction (see enqueueMail). */
export async function enqueueMails(trx: Executor, mails: readonly OutgoingMail[], at: number): Promise<void> {
  const CHUNK = 500;
  for (let start = 0; start < mails.length; start += CHUNK) {
    await trx
      .insertInto('mail_outbox')
      .values(
        mails.slice(start, start + CHUNK).map((mail) => ({
          to_address: mail.to,
          subject: mail.subject,
          body: mail.text,
          status: 'pending' as const,
          next_attempt_at: at,
          created_at: at,
        })),
      )
      .execute();
  }
}

/**
 * Takes up to `limit` due mails for one delivery attempt, under a lease of `leaseMs`. On
 * PostgreSQL the rows are picked with FOR UPDATE SKIP LOCKED, so instances claiming at the same
 * moment take different rows; SQLite has one writer at a time anyway. A lease that ran out (its
 * instance died mid-attempt) makes the row due again.
 */
export async function claimDueMail(
  db: Executor,
  options: { at: number; limit: number; leaseMs: number },
): Promise<OutboxRow[]> {
  const { at, limit, leaseMs } = options;
  const leaseToken = crypto.randomBytes(16).toString('hex');
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const rows = await db
    .updateTable('mail_outbox')
    .set((eb) => ({
      lease_token: leaseToken,
      lease_until: at + leaseMs,
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('mail_outbox')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', at)
        .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', at)]))
        .orderBy('priority', 'desc')
        .orderBy('id')
        .limit(limit)
        .$if(isPostgres, (query) => query.forUpdate().skipLocked()),
    )
    .returning(['id', 'to_address', 'subject', 'body', 'attempts', 'created_at', 'lease_token'])
    .execute();
  return rows.map((row) => ({ ...row, lease_token: leaseToken }));
}

/**
 * What a mail that will never be sent again keeps: its recipient, times and id (its Message-ID
 * follows from id and created_at), never its words. Subjects and bodies carry one-time codes,
 * invitation and sign-in links: a copy of the database must not hold a credential still usable.
 */
const CONTENT_DROPPED = { subject: '', body: '' } as const;

/**
 * Marks mails the relay accepted sent, those their attempt still holds, in one statement that
 * also drops their words (CONTENT_DROPPED): no moment where a sent mail's code sits on disk.
 */
export async function markSent(db: Executor, rows: readonly OutboxRow[], at: number): Promise<void> {
  const [first] = rows;
  if (!first) return;
  await db
    .updateTable('mail_outbox')
    .set({
      status: 'sent',
      sent_at: at,
      lease_token: null,
      lease_until: null,
      last_error: null,
      ...CONTENT_DROPPED,
    })
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .where('lease_token', 'in', [...new Set(rows.map((row) => row.lease_token))])
    .execute();
}

/** Puts a failed mail back for a later attempt, or gives up on it (`retryAt` null) and drops its words. */
export async function markFailed(
  db: Executor,
  row: OutboxRow,
  failure: { error: string; retryAt: number | null },
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({
      status: failure.retryAt === null ? 'failed' : 'pending',
      next_attempt_at: failure.retryAt ?? 0,
      lease_token: null,
      lease_until: null,
      last_error: failure.error.slice(0, 1000),
      ...(failure.retryAt === null ? CONTENT_DROPPED : {}),
    })
    .where('id', '=', row.id)
    .where('lease_token', '=', row.lease_token)
    .execute();
}

/**
 * Gives back mails claimed but not sent (the instance is stopping): due again at once for any
 * instance, and the attempt that never ran is not counted.
 */
export async function releaseMail(db: Executor, rows: readonly OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .updateTable('mail_outbox')
    .set((eb) => ({ lease_token: null, lease_until: null, attempts: eb('attempts', '-', 1) }))
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .where('lease_token', 'in', [...new Set(rows.map((row) => row.lease_token))])
    .where('status', '=', 'pending')
    .execute();
}
