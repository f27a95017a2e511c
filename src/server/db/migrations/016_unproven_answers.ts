import type { Kysely } from 'kysely';

/**
 * Answers from senders who have not proven their address (design section 8) get their own limits:
 * a case opened by one remembers the client address it came from (a hash, for counting only) and
 * whether its alert went out at once or was folded into the hourly digest of such cases, so a
 * burst of invented names cannot mail every alert contact once per name. A submission sent
 * unproven keeps the hash of a secret that only the sending tab holds: a proof promotes only the
 * submissions whose secrets the proving tab presents, not every one sent under its visitor id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cases').addColumn('unproven_client', 'varchar(64)').execute();
  // 'mail' (alerted at once) or 'digest' (told of in the hourly digest); null for proven cases.
  await db.schema.alterTable('cases').addColumn('unproven_alert', 'varchar(10)').execute();
  await db.schema.alterTable('cases').addColumn('unproven_alert_at', 'bigint').execute();
  await db.schema
    .createIndex('cases_unproven_alert_idx')
    .on('cases')
    .columns(['institution_id', 'unproven_alert_at'])
    .execute();
  await db.schema.alterTable('submissions').addColumn('proof_token_hash', 'varchar(64)').execute();
}
