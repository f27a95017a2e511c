import type { Kysely } from 'kysely';

/**
 * A browser that never saw the reply to its anonymous answer sends it again: the answer stored
 * keeps a hash of the link and of the sending tab's own random id for it, so the resend is
 * answered as the first time was instead of "already answered". Neither the link's token nor the
 * tab's id is kept anywhere, so the hash ties the answer to no invitation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('anonymous_submissions').addColumn('retry_key', 'varchar(64)').execute();
  await db.schema
    .createIndex('anonymous_submissions_retry_key_unique')
    .on('anonymous_submissions')
    .columns(['campaign_id', 'retry_key'])
    .unique()
    .execute();
}
