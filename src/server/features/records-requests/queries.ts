import type { Executor } from '../../db/executor';

export function listRequests(db: Executor, institutionId: number) {
  return db
    .selectFrom('records_requests')
    .leftJoin('users', 'users.id', 'records_requests.opened_by')
    .select([
      'records_requests.id',
      'records_requests.email',
      'records_requests.note',
      'records_requests.opened_at',
      'records_requests.due_at',
      'records_requests.fulfilled_at',
      'users.name as opened_by',
    ])
    .where('records_requests.institution_id', '=', institutionId)
    .orderBy('records_requests.opened_at', 'desc')
    .orderBy('records_requests.id', 'desc')
    .execute();
}

export type RequestRow = Awaited<ReturnType<typeof listRequests>>[number];

/** The student's request still waiting to be fulfilled, if any (one at a time). */
export function openRequestOf(db: Executor, institutionId: number, email: string) {
  return db
    .selectFrom('records_requests')
    .select('id')
    .where('institution_id', '=', institutionId)
    .where('email', '=', email)
    .where('fulfilled_at', 'is', null)
    .executeTakeFirst();
}

export function requestsOf(db: Executor, institutionId: number, email: string) {
  return db
    .selectFrom('records_requests')
    .select(['opened_at', 'due_at', 'fulfilled_at'])
    .where('institution_id', '=', institutionId)
    .where('email', '=', email)
    .orderBy('opened_at')
    .execute();
}

export async function insertRequest(
  db: Executor,
  request: {
    institution_id: number;
    email: string;
    note: string | null;
    opened_by: number;
    opened_at: number;
    due_at: number;
  },
): Promise<number> {
  const row = await db
    .insertInto('records_requests')
    .values(request)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Marks an open request fulfilled; undefined when there is no such open request. */
export function markFulfilled(db: Executor, institutionId: number, id: number, by: number, at: number) {
  return db
    .updateTable('records_requests')
    .set({ fulfilled_at: at, fulfilled_by: by })
    .where('institution_id', '=', institutionId)
    .where('id', '=', id)
    .where('fulfilled_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
}

/** After an erasure, the student's past requests name them by their hashed identifier only. */
export function relabelRequests(db: Executor, institutionId: number, email: string, label: string) {
  return db
    .updateTable('records_requests')
    .set({ email: label })
    .where('institution_id', '=', institutionId)
    .where('email', '=', email)
    .execute();
}
