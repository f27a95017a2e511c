import type { Executor } from '../../db/executor';
import type { ContactRequestsTable } from '../../db/types';

export async function insertContactRequest(db: Executor, request: Omit<ContactRequestsTable, 'id'>) {
  await db.insertInto('contact_requests').values(request).execute();
}
