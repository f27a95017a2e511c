/**
 * The outbox against a relay that takes some mails and then hangs, in a real server process:
 * killed with SIGKILL in mid-batch, no mail the relay accepted goes out twice; stopped with
 * SIGTERM, the instance exits within its grace period and gives back the mails it held.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { enqueueMails } from '../../src/server/lib/mail/outbox';
import { TEST_DIALECTS } from '../helpers/databases';
import { freshProcessStore, type ProcessStore, waitUntil } from '../helpers/process-store';
import { type ServerProcess, startServer, stopServer } from '../helpers/server-process';
import { startSmtpListener } from '../helpers/smtp';

/** Only stops a hung run on a busy machine; nothing is timed. */
const TEST_LIMIT_MS = 120_000;

const recipient = (n: number) => `student-${n}@mail-faults.test`;

async function queueMails(store: ProcessStore, count: number) {
  const mails = Array.from({ length: count }, (_, n) => ({
    to: recipient(n),
    subject: `Mail ${n}`,
    text: `Mail number ${n}.`,
  }));
  await enqueueMails(store.db.kysely, mails, Date.now());
}

const outbox = (store: ProcessStore) =>
  store.db.kysely
    .selectFrom('mail_outbox')
    .select(['id', 'to_address', 'status', 'attempts', 'lease_until', 'created_at'])
    .orderBy('id')
    .execute();

describe.each(TEST_DIALECTS)('mail delivery under faults on %s', (dialect) => {
  let store: ProcessStore;
  let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
  const servers: ServerProcess[] = [];

  afterEach(async () => {
    for (const server of servers.splice(0)) await stopServer(server, 'SIGKILL');
    await smtp.close();
    await store.drop();
  });

  it(
    'sends no accepted mail twice when the instance is killed in mid-batch',
    async () => {
      const MAILS = 20;
      const ACCEPTED = 5;
      store = await freshProcessStore(dialect, 'mailkill');
      await queueMails(store, MAILS);
      // The relay takes five mails of the batch, then hangs on the rest.
      smtp = await startSmtpListener({
        onMail: () => {
          if (smtp.received.length === ACCEPTED) smtp.hang();
        },
      });
      const first = await startServer({ ...store.env, SMTP_URL: smtp.url });
      servers.push(first);
      await smtp.waitForReceived(ACCEPTED);
      await smtp.waitForHeld(1);
      // Each mail is recorded sent as the relay accepts it, not once the whole batch is done.
      await waitUntil(
        async () => (await outbox(store)).filter((row) => row.status === 'sent').length === ACCEPTED,
        'the accepted mails to be recorded sent while the batch is still out',
        5_000,
      );
      await stopServer(first, 'SIGKILL');

      // The dead instance's leases run out (as two minutes would see to); another instance sends the rest.
      await store.db.kysely
        .updateTable('mail_outbox')
        .set({ lease_until: 0 })
        .where('status', '=', 'pending')
        .execute();
      smtp.resume();
      servers.push(await startServer({ ...store.env, SMTP_URL: smtp.url }));
      await smtp.waitForReceived(MAILS);
      await waitUntil(
        async () => (await outbox(store)).every((row) => row.status === 'sent'),
        'every mail to be sent',
      );

      const rows = await outbox(store);
      const deliveries = rows.map((row) => smtp.received.filter((mail) => mail.to.includes(row.to_address)));
      expect(deliveries.map((copies) => copies.length)).toEqual(rows.map(() => 1));
      // Every attempt at a row carries its own Message-ID, so a relay can drop a repeat.
      expect(deliveries.map((copies) => copies[0]?.messageId)).toEqual(
        rows.map((row) => `<outbox.${row.id}.${row.created_at}@localhost>`),
      );
    },
    TEST_LIMIT_MS,
  );

  it(
    'stops claiming on SIGTERM while the relay hangs, and gives back the mails it held',
    async () => {
      // More than one batch (50), so a claim after the first would show.
      const MAILS = 60;
      store = await freshProcessStore(dialect, 'mailterm');
      await queueMails(store, MAILS);
      smtp = await startSmtpListener();
      smtp.hang();
      const server = await startServer({ ...store.env, SMTP_URL: smtp.url });
      servers.push(server);
      await smtp.waitForHeld(1);

      const exit = await stopServer(server, 'SIGTERM');
      expect(exit).toEqual({ code: 0, signal: null });
      const rows = await outbox(store);
      // Nothing sent, nothing held: every mail is due again at once, its unfinished attempt uncounted.
      expect(rows.filter((row) => row.status !== 'pending' || row.lease_until !== null)).toEqual([]);
      expect(rows.filter((row) => row.attempts !== 0)).toEqual([]);
      expect(server.output()).not.toContain('mail delivery failed');
    },
    TEST_LIMIT_MS,
  );
});
