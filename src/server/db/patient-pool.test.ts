/**
 * Near PostgreSQL's connection limit, an instance that could open only a few connections must
 * still serve every request with them, instead of failing each one whose new connection the
 * server refuses. The limit is real: a role with CONNECTION LIMIT, shared by two "instances".
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '.';

const postgresUrl = process.env.TEST_DATABASE_URL;
const ROLE_CONNECTION_LIMIT = 5;

describe.skipIf(!postgresUrl)('PostgreSQL at its connection limit', () => {
  const role = `limited_${crypto.randomBytes(4).toString('hex')}`;
  const admin = () => new pg.Client({ connectionString: postgresUrl });

  beforeAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT ${ROLE_CONNECTION_LIMIT}`);
    await client.end();
  });

  afterAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`, [role]);
    await client.query(`DROP ROLE IF EXISTS ${role}`);
    await client.end();
  });

  it('serves every request of the instance that holds few connections, with the ones it has', async () => {
    const url = new URL(postgresUrl as string);
    url.username = role;
    url.password = '';
    const first: Db = openDatabase({ kind: 'postgres', url: url.toString() });
    const second: Db = openDatabase({ kind: 'postgres', url: url.toString() });
    const slowQuery = (db: Db) => sql`select pg_sleep(0.05)`.execute(db.kysely);
    try {
      // The first instance takes most of the slots and keeps them in its pool.
      await Promise.all(Array.from({ length: ROLE_CONNECTION_LIMIT - 2 }, () => slowQuery(first)));
      // The second may open only the two left, and is asked sixty requests at once.
      const outcomes = await Promise.allSettled(Array.from({ length: 60 }, () => slowQuery(second)));
      const failures = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(failures.map((failure) => String((failure as PromiseRejectedResult).reason))).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
