import { type Kysely, PostgresAdapter, type Transaction } from 'kysely';
import type { Database } from './types';

/** Queries accept either the database or an open transaction, so callers decide atomicity. */
export type Executor = Kysely<Database> | Transaction<Database>;

export function isPostgres(db: Executor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
