import type { ColumnDataType, ColumnDefinitionBuilder, Kysely } from 'kysely';
import { SqliteAdapter } from 'kysely';

type ColumnSpec = [ColumnDataType, (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder];

/** Integer primary key that the database numbers itself, spelled the way each dialect wants it. */
export function autoIncrementId(db: Kysely<unknown>): ColumnSpec {
  const isSqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  return isSqlite ? ['integer', (c) => c.primaryKey().autoIncrement()] : ['serial', (c) => c.primaryKey()];
}

/** Epoch milliseconds; bigint because they outgrow 32 bits. */
export function millis(): ColumnSpec {
  return ['bigint', (c) => c.notNull()];
}
