import type { Executor } from '../../db/executor';

/** The addresses (lower case) of the institution's students under a legal hold. */
export async function heldEmails(db: Executor, institutionId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('legal_holds')
    .select('email')
    .where('institution_id', '=', institutionId)
    .execute();
  return rows.map((row) => row.email);
}

export async function holdOf(db: Executor, institutionId: number, email: string) {
  return db
    .selectFrom('legal_holds')
    .select('id')
    .where('institution_id', '=', institutionId)
    .where('email', '=', email)
    .executeTakeFirst();
}

export function listHolds(db: Executor, institutionId: number) {
  return db
    .selectFrom('legal_holds')
    .leftJoin('users', 'users.id', 'legal_holds.placed_by')
    .select([
      'legal_holds.id',
      'legal_holds.email',
      'legal_holds.reason',
      'legal_holds.placed_at',
      'users.name as placed_by',
    ])
    .where('legal_holds.institution_id', '=', institutionId)
    .orderBy('legal_holds.placed_at', 'desc')
    .orderBy('legal_holds.id', 'desc')
    .execute();
}

/** Inserts the hold unless the student has one already; the new id, or undefined. */
export async function insertHold(
  db: Executor,
  hold: { institution_id: number; email: string; reason: string; placed_by: number; placed_at: number },
): Promise<number | undefined> {
  const row = await db
    .insertInto('legal_holds')
    .values(hold)
    .onConflict((conflict) => conflict.columns(['institution_id', 'email']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function deleteHold(db: Executor, institutionId: number, id: number) {
  return db
    .deleteFrom('legal_holds')
    .where('institution_id', '=', institutionId)
    .where('id', '=', id)
    .returning(['id', 'email'])
    .executeTakeFirst();
}
