import crypto from 'node:crypto';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../../src/server/db';

/** Where the global set-up tells the test workers the name of the migrated template database. */
export const TEMPLATE_DATABASE_VARIABLE = 'TEST_TEMPLATE_DATABASE';

async function run(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * A database migrated once for the whole run, which the tests clone (CREATE DATABASE ...
 * TEMPLATE): a copy costs a fraction of running every migration again. Named for this run, so
 * runs side by side never share one; the returned function drops it and every clone of it.
 */
export async function createTemplateDatabase(url: string): Promise<{ name: string; drop(): Promise<void> }> {
  const prefix = `wellspring_run_${crypto.randomBytes(4).toString('hex')}`;
  const name = `${prefix}_template`;
  await run(url, `CREATE DATABASE ${name}`);
  const db = openDatabase({ kind: 'postgres', url: withDatabase(url, name), poolSize: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.close();
  }
  return {
    name,
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ datname: string }>(
          `select datname from pg_database where datname like $1 order by datname = $2`,
          [`${prefix}\\_%`, name],
        );
        for (const row of rows) await client.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
