import type {
  CompiledQuery,
  DatabaseConnection,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import type { DatabaseHealth } from './availability';

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

/** Whether a statement changed rows (RETURNING statements say so by their rows). */
function wroteRows(query: CompiledQuery, result: QueryResult<unknown>): boolean {
  return WRITES.has(query.query.kind) && (Number(result.numAffectedRows ?? 0) > 0 || result.rows.length > 0);
}

/**
 * A connection that notes the writes it runs: outside a transaction a write is committed as it
 * returns; inside one it counts only once the transaction commits.
 */
class RecordingConnection implements DatabaseConnection {
  inTransaction = false;
  wrote = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly health: DatabaseHealth,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.inner.executeQuery<R>(query);
    if (wroteRows(query, result)) {
      if (this.inTransaction) this.wrote = true;
      else this.health.committed();
    }
    return result;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }

  endTransaction(): boolean {
    const wrote = this.wrote;
    this.inTransaction = false;
    this.wrote = false;
    return wrote;
  }
}

/**
 * Tells the health record (DatabaseHealth) of every write the database committed, and of
 * nothing else: the only evidence that the database serves again after an outage.
 */
export class HealthRecordingDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, RecordingConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly health: DatabaseHealth,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let recording = this.wrapped.get(connection);
    if (!recording) {
      recording = new RecordingConnection(connection, this.health);
      this.wrapped.set(connection, recording);
    }
    return recording;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.inner.beginTransaction(connection, settings);
    const recording = connection as RecordingConnection;
    recording.inTransaction = true;
    recording.wrote = false;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const recording = connection as RecordingConnection;
    try {
      await this.inner.commitTransaction(connection);
    } catch (error) {
      recording.endTransaction();
      throw error;
    }
    if (recording.endTransaction()) this.health.committed();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as RecordingConnection).endTransaction();
    await this.inner.rollbackTransaction(connection);
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.inner.savepoint?.(connection, name, compile);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ) {
    await this.inner.rollbackToSavepoint?.(connection, name, compile);
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ) {
    await this.inner.releaseSavepoint?.(connection, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    // The inner driver releases its own connection object (PostgreSQL's carries a private key).
    return this.inner.releaseConnection((connection as RecordingConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
