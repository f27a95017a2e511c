import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../../../../test/helpers/databases';
import { turnsTakenDuring } from '../../../../test/helpers/event-loop';
import { startSmtpListener } from '../../../../test/helpers/smtp';
import { loadConfig } from '../../config';
import { MAX_ATTEMPTS, retryDelay } from '../backoff';
import { MINUTE } from '../time';
import { claimDueMail, enqueueMail, type OutgoingMail } from './outbox';
import { createMailTransport, type MailTransport } from './transport';
import { deliverDueMail } from './worker';

const mailConfig = (smtpUrl: string | null) => ({
  ...loadConfig({}).mail,
  smtpUrl,
  from: 'Wellspring Health <no-reply@wellspring.test>',
});

function mail(n: number): OutgoingMail {
  return { to: `student${n}@north.edu`, subject: `Your code ${n}`, text: `Your code is 00000${n}.` };
}

describe.each(TEST_DIALECTS)('mail outbox on %s', (dialect) => {
  let test: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpListener>>;

  beforeEach(async () => {
    test = await createTestDatabase(dialect);
    smtp = await startSmtpListener();
  });
  afterEach(async () => {
    await smtp.close();
    await test.drop();
  });

  it('delivers mail committed with its cause over SMTP, and nothing of a rolled-back cause', async () => {
    const db = test.db.kysely;
    await db.transaction().execute((trx) => enqueueMail(trx, mail(1), Date.now()));
    await expect(
      db.transaction().execute(async (trx) => {
        await enqueueMail(trx, mail(2), Date.now());
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');

    const transport = createMailTransport(mailConfig(smtp.url), () => undefined);
    expect(await deliverDueMail({ db, transport })).toBe(1);
    // Delivered once: a second pass finds nothing left to send.
    expect(await deliverDueMail({ db, transport })).toBe(0);
    transport.close();

    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({
      to: ['student1@north.edu'],
      subject: 'Your code 1',
      text: 'Your code is 000001.',
    });
    expect(smtp.received[0]?.from).toContain('no-reply@wellspring.test');
  });

  it('claims alerts before bulk mail queued earlier, and marks every delivered mail sent', async () => {
    const db = test.db.kysely;
    const at = Date.now();
    for (let n = 0; n < 30; n += 1) await enqueueMail(db, mail(n), at, 'bulk');
    const alertId = await enqueueMail(
      db,
      { to: 'duty@north.edu', subject: 'Alert', text: 'Sign in.' },
      at,
      'alert',
    );
    // The batch goes out side by side, so what counts is that the alert is in the first one.
    const claimed = await claimDueMail(db, { at, limit: 20, leaseMs: MINUTE });
    expect(claimed).toHaveLength(20);
    expect(claimed.map((row) => row.id)).toContain(alertId);

    const transport = createMailTransport(mailConfig(smtp.url), () => undefined);
    // The claimed rows are leased for a minute; the rest go now, and the leased ones after it.
    expect(await deliverDueMail({ db, transport })).toBe(11);
    expect(await deliverDueMail({ db, transport, at: () => at + 2 * MINUTE })).toBe(20);
    transport.close();
    const sent = await db.selectFrom('mail_outbox').select(['status', 'sent_at']).execute();
    expect(sent.every((row) => row.status === 'sent' && row.sent_at !== null)).toBe(true);
    expect(smtp.received).toHaveLength(31);
  });

  it('retries a failed delivery after a growing delay, then gives up', async () => {
    const db = test.db.kysely;
    await enqueueMail(db, mail(3), 0);
    let clock = 0;
    let failures = 0;
    const failing: MailTransport = {
      async send() {
        failures += 1;
        throw new Error('connection refused');
      },
      close() {},
    };
    expect(await deliverDueMail({ db, transport: failing, at: () => clock })).toBe(0);
    expect(failures).toBe(1);
    // Not due again before its delay is up.
    clock = retryDelay(1) - 1;
    await deliverDueMail({ db, transport: failing, at: () => clock });
    expect(failures).toBe(1);
    clock = retryDelay(1);
    await deliverDueMail({ db, transport: failing, at: () => clock });
    expect(failures).toBe(2);
    expect(retryDelay(3)).toBe(2 * retryDelay(2));
    expect(retryDelay(2)).toBeGreaterThan(retryDelay(1));

    for (let attempt = 3; attempt <= MAX_ATTEMPTS + 2; attempt++) {
      clock += 24 * 60 * MINUTE;
      await deliverDueMail({ db, transport: failing, at: () => clock });
    }
    expect(failures).toBe(MAX_ATTEMPTS);
    const row = await db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    // Given up on, it keeps no words either: a code that never went out still must not sit on disk.
    expect(row).toMatchObject({ status: 'failed', last_error: 'connection refused', subject: '', body: '' });

    // A mail that fails once and then goes through is sent once.
    await enqueueMail(db, mail(4), clock);
    let calls = 0;
    const flaky: MailTransport = {
      async send() {
        calls += 1;
        if (calls === 1) throw new Error('try later');
      },
      close() {},
    };
    await deliverDueMail({ db, transport: flaky, at: () => clock });
    clock += retryDelay(1);
    expect(await deliverDueMail({ db, transport: flaky, at: () => clock })).toBe(1);
    clock += 24 * 60 * MINUTE;
    expect(await deliverDueMail({ db, transport: flaky, at: () => clock })).toBe(0);
    expect(calls).toBe(2);
  });

  it('writes the whole mail to the server log when no SMTP_URL is set', async () => {
    const lines: { fields: Record<string, unknown>; message: string }[] = [];
    const transport = createMailTransport(mailConfig(null), (fields, message) =>
      lines.push({ fields, message }),
    );
    await enqueueMail(test.db.kysely, mail(5), Date.now());
    expect(await deliverDueMail({ db: test.db.kysely, transport })).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.message).toContain('student5@north.edu');
    expect(lines[0]?.message).toContain('Your code is 000005.');
    expect(smtp.received).toHaveLength(0);
  });

  it('lets the event loop take turns between batches, even when every send is settled at once', async () => {
    const db = test.db.kysely;
    const at = Date.now();
    await db.transaction().execute(async (trx) => {
      for (let n = 0; n < 200; n += 1) await enqueueMail(trx, mail(n), at);
    });
    // A logged mail is written at once: without a turn between batches, nothing else (no request,
    // no timer) would run until the whole outbox was through.
    const transport = createMailTransport(mailConfig(null), () => undefined);
    const { result, turns } = await turnsTakenDuring(() => deliverDueMail({ db, transport }));
    expect(result).toBe(200);
    // Four batches of 50, and a turn for other work after each.
    expect(turns).toBeGreaterThanOrEqual(4);
  });
});

describe.each(TEST_DIALECTS.filter((dialect) => dialect === 'postgres'))(
  'mail outbox on two %s instances',
  (dialect) => {
    let test: TestDatabase;
    let smtp: Awaited<ReturnType<typeof startSmtpListener>>;

    beforeEach(async () => {
      test = await createTestDatabase(dialect);
      smtp = await startSmtpListener();
    });
    afterEach(async () => {
      await smtp.close();
      await test.drop();
    });

    it('delivers each mail once when two instances deliver at the same time', async () => {
      const other = test.openAnother?.();
      if (!other) throw new Error('a second instance needs PostgreSQL');
      try {
        const count = 60;
        for (let n = 0; n < count; n++) await enqueueMail(test.db.kysely, mail(n), Date.now());
        const transports = [0, 1].map(() => createMailTransport(mailConfig(smtp.url), () => undefined));
        const [first, second] = await Promise.all([
          deliverDueMail({ db: test.db.kysely, transport: transports[0] as MailTransport }),
          deliverDueMail({ db: other.kysely, transport: transports[1] as MailTransport }),
        ]);
        for (const transport of transports) transport.close();
        expect((first ?? 0) + (second ?? 0)).toBe(count);
        expect(smtp.received).toHaveLength(count);
        const subjects = new Set(smtp.received.map((received) => received.subject));
        expect(subjects.size).toBe(count);
      } finally {
        await other.close();
      }
    });
  },
);
