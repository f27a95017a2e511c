/**
 * An instance whose clock runs five minutes ahead of the database's, in a real server process on
 * PostgreSQL: it must neither send mail before it is due nor take a lease another instance holds.
 */
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { describeOnPostgres } from '../helpers/postgres-only';
import { freshProcessStore, type ProcessStore } from '../helpers/process-store';
import { type ServerProcess, startServer, stopServer } from '../helpers/server-process';
import { startSmtpListener } from '../helpers/smtp';

const AHEAD_MS = 5 * 60_000;
/** Only stops a hung run on a busy machine; nothing is timed. */
const TEST_LIMIT_MS = 120_000;

describeOnPostgres('an instance whose clock is ahead', () => {
  let store: ProcessStore;
  let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
  let server: ServerProcess | undefined;

  afterEach(async () => {
    if (server) await stopServer(server, 'SIGKILL');
    await smtp.close();
    await store.drop();
  });

  it(
    "follows the database's clock for due times and leases, and says its own is off",
    async () => {
      store = await freshProcessStore('postgres', 'clockskew');
      smtp = await startSmtpListener();
      const db = store.db.kysely;
      const { rows } = await sql<{ now: number }>`
        select (extract(epoch from clock_timestamp()) * 1000)::bigint as now`.execute(db);
      const now = rows[0]?.now as number;
      const mail = (to: string, due: number) => ({
        to_address: to,
        subject: 'Alert',
        body: 'Sign in.',
        status: 'pending' as const,
        next_attempt_at: due,
        created_at: now,
      });
      await db
        .insertInto('mail_outbox')
        .values([
          mail('due@skew.test', now - 1_000),
          // Due in two minutes, by the database's clock.
          mail('later@skew.test', now + 2 * 60_000),
          // Being sent by another instance, which holds it for another minute.
          {
            ...mail('held@skew.test', now - 1_000),
            lease_token: 'another',
            lease_until: now + 60_000,
            attempts: 1,
          },
        ])
        .execute();

      server = await startServer({ ...store.env, SMTP_URL: smtp.url }, { clockOffsetMs: AHEAD_MS });
      await smtp.mailTo('due@skew.test');

      // The pass that sent the due mail left the other two alone (one claim takes all it sees as due).
      const others = await db
        .selectFrom('mail_outbox')
        .select(['to_address', 'attempts', 'lease_token'])
        .where('to_address', '!=', 'due@skew.test')
        .orderBy('id')
        .execute();
      expect(others).toEqual([
        { to_address: 'later@skew.test', attempts: 0, lease_token: null },
        { to_address: 'held@skew.test', attempts: 1, lease_token: 'another' },
      ]);
      expect(server.output()).toContain("this machine's clock differs from the database's");
    },
    TEST_LIMIT_MS,
  );
});
