import { sql } from 'kysely';
import type { Executor } from '../../db/executor';

export async function pingDatabase(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}
