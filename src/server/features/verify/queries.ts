import { type Insertable, PostgresAdapter } from 'kysely';
import type { Executor } from '../../db/executor';
import type { VerificationCodesTable } from '../../db/types';

/** Codes sent to the address since then, to one browser when `visitorHash` is given. */
export async function countCodesSince(
  db: Executor,
  options: { email: string; visitorHash?: string; since: number },
): Promise<number> {
  const row = await db
    .selectFrom('verification_codes')
    .select((eb) => eb.fn.countAll<number>().as('codes'))
    .where('email', '=', options.email)
    .$if(options.visitorHash !== undefined, (query) =>
      query.where('visitor_hash', '=', options.visitorHash as string),
    )
    .where('created_at', '>=', options.since)
    .executeTakeFirst();
  return Number(row?.codes ?? 0);
}

/** Whether the browser holds a code for the address it can still use. */
export async function holdsLiveCode(
  db: Executor,
  options: { email: string; visitorHash: string; at: number; tries: number },
): Promise<boolean> {
  const row = await db
    .selectFrom('verification_codes')
    .select('id')
    .where('email', '=', options.email)
    .where('visitor_hash', '=', options.visitorHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', options.at)
    .where('attempts', '<', options.tries)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertCode(
  db: Executor,
  code: Omit<Insertable<VerificationCodesTable>, 'id' | 'attempts'>,
) {
  await db.insertInto('verification_codes').values(code).execute();
}

/** The browser's newest unused, unexpired code for the address, locked for the check on PostgreSQL. */
export function lockLiveCode(db: Executor, options: { email: string; visitorHash: string; at: number }) {
  return db
    .selectFrom('verification_codes')
    .select(['id', 'code_hash', 'attempts', 'purpose'])
    .where('email', '=', options.email)
    .where('visitor_hash', '=', options.visitorHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', options.at)
    .orderBy('id', 'desc')
    .limit(1)
    .$if(db.getExecutor().adapter instanceof PostgresAdapter, (query) => query.forUpdate())
    .executeTakeFirst();
}

export async function countFailedTry(db: Executor, codeId: number) {
  await db
    .updateTable('verification_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', codeId)
    .execute();
}

export async function markCodeUsed(db: Executor, codeId: number, at: number) {
  await db.updateTable('verification_codes').set({ used_at: at }).where('id', '=', codeId).execute();
}

export async function recordProof(db: Executor, proof: { visitorHash: string; email: string; at: number }) {
  await db
    .insertInto('address_proofs')
    .values({ visitor_hash: proof.visitorHash, email: proof.email, proven_at: proof.at })
    .onConflict((oc) => oc.columns(['visitor_hash', 'email']).doUpdateSet({ proven_at: proof.at }))
    .execute();
}

export async function provenSince(
  db: Executor,
  proof: { visitorHash: string; email: string; since: number },
): Promise<boolean> {
  const row = await db
    .selectFrom('address_proofs')
    .select('proven_at')
    .where('visitor_hash', '=', proof.visitorHash)
    .where('email', '=', proof.email)
    .where('proven_at', '>=', proof.since)
    .executeTakeFirst();
  return row !== undefined;
}

/** The institution whose students use this email domain, if any. */
export function institutionOfDomain(db: Executor, domain: string) {
  return db
    .selectFrom('institution_domains')
    .innerJoin('institutions', 'institutions.id', 'institution_domains.institution_id')
    .select(['institutions.id', 'institutions.name'])
    .where('institution_domains.domain', '=', domain)
    .executeTakeFirst();
}
