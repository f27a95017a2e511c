import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { databaseUnavailability } from './availability';
import { patientPool } from './patient-pool';

/**
 * A client on a link that went silent: its first query is given up (node-postgres's query
 * timeout), and anything asked after it would queue behind that unanswered query.
 */
function silentClient() {
  const sent: string[] = [];
  let released: unknown = 'not released';
  const client = {
    query(text: string) {
      sent.push(text);
      return sent.length === 1
        ? Promise.reject(new Error('Query read timeout'))
        : new Promise(() => {
            // Never answered.
          });
    },
    release(error?: unknown) {
      released = error;
    },
  };
  const pool = { connect: async () => client, end: async () => undefined } as unknown as pg.Pool;
  return { pool, sent, released: () => released };
}

describe('a pooled client whose query went unanswered', () => {
  it('fails every later query at once (the rollback too), and is closed when released', async () => {
    const { pool, sent, released } = silentClient();
    const client = (await patientPool(pool, 1_000).connect()) as unknown as {
      query(text: string, values: unknown[]): Promise<unknown>;
      release(): void;
    };
    const first = await client.query('select 2', []).catch((error: unknown) => error);
    expect(databaseUnavailability(first)).not.toBeNull();
    // Without this, the rollback would wait behind the unanswered query for a timeout of its own.
    const rollback = await client.query('rollback', []).catch((error: unknown) => error);
    expect(rollback).toBe(first);
    expect(sent).toEqual(['select 2']);
    client.release();
    expect(released()).toBe(first);
  });
});
