// A send-now campaign to 5,000 roster students: the time from the campaign's first job until
// every invitation is written with its mail queued in the outbox (delivery itself is the mail
// worker's, measured elsewhere), as mails queued per second. The baseline, measured in the same
// run on the same database, is the outbox alone: the same number of mails inserted in one
// transaction with nothing else. The jobs run on the real app (its job worker, driven directly).
//
// SQLite file database (WAL, synchronous=FULL), and PostgreSQL too when BENCH_DATABASE_URL is
// set (in a schema of its own, dropped after). BENCH_CAMPAIGN_STUDENTS overrides the size.
import crypto from 'node:crypto';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import type { Db } from '../../src/server/db';
import { enqueueMails } from '../../src/server/lib/mail/outbox';
import { TestAgent } from '../helpers/app';
import { makeInstitution, makeUser, TEST_PASSWORD } from '../helpers/factories';
import { BENCH_SECRET, benchPostgresUrl, openBenchDatabase } from './support/databases';

const STUDENTS = Number(process.env.BENCH_CAMPAIGN_STUDENTS ?? 5_000);

async function countOf(db: Db, table: 'mail_outbox' | 'campaign_invitations'): Promise<number> {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

async function benchOn(kind: 'sqlite' | 'postgres') {
  const { db, drop } = await openBenchDatabase(kind, 'campaign');
  const config = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: '0' });
  const app = await buildApp({
    db,
    config,
    secret: BENCH_SECRET,
    webRoot: '/nonexistent',
    mail: { worker: false },
    jobs: { poll: false },
  });
  const label = kind === 'sqlite' ? 'SQLite file (WAL, synchronous=FULL)' : 'PostgreSQL';
  try {
    // Baseline: the outbox alone, the same number of mails in one transaction.
    const mails = Array.from({ length: STUDENTS }, (_, index) => ({
      to: `baseline${index}@bench.edu`,
      subject: 'Your Wellspring Health wellness check-in',
      text: `Hello Student ${index},\n\nhttps://example.edu/survey/invite/${crypto.randomBytes(32).toString('base64url')}/\n`,
    }));
    const baselineStarted = performance.now();
    await db.kysely.transaction().execute((trx) => enqueueMails(trx, mails, Date.now()));
    const baselineSeconds = (performance.now() - baselineStarted) / 1000;
    await db.kysely.deleteFrom('mail_outbox').execute();

    const institution = await makeInstitution(db.kysely, 'Bench University', ['bench.edu']);
    const admin = await makeUser(db.kysely, {
      email: 'admin@bench.edu',
      role: 'institution_admin',
      institutionId: institution.id,
    });
    const agent = new TestAgent(app);
    await agent.login(admin.email, TEST_PASSWORD);
    const lines = ['name,email,group'];
    for (let index = 0; index < STUDENTS; index += 1)
      lines.push(`Student ${index},student${index}@bench.edu,Everyone`);
    const upload = await agent.request({
      method: 'POST',
      url: '/api/roster/',
      payload: lines.join('\n'),
      headers: { 'content-type': 'text/csv' },
    });
    if (upload.status !== 200) throw new Error(`roster upload failed: ${upload.text}`);
    const template = await db.kysely
      .selectFrom('active_templates')
      .select('template_id')
      .where('institution_id', '=', institution.id)
      .executeTakeFirstOrThrow();
    const created = await agent.post('/api/campaigns/', {
      template_id: template.template_id,
      groups: ['Everyone'],
      day: 'Monday',
      hour: 9,
      minute: 0,
      ampm: 'AM',
      recurring: true,
      send_now: true,
      reminder_after_days: 2,
    });
    if (created.status !== 201) throw new Error(`campaign failed: ${created.text}`);

    // Signing the admin in queued a mail of its own (the notice of a new second factor).
    const queuedBefore = await countOf(db, 'mail_outbox');
    const started = performance.now();
    const jobs = await app.jobs.runDue();
    const seconds = (performance.now() - started) / 1000;
    const queued = (await countOf(db, 'mail_outbox')) - queuedBefore;
    const invited = await countOf(db, 'campaign_invitations');
    const rate = queued / seconds;
    console.log(
      `${label}: ${queued.toLocaleString('en-US')} invitations (${invited.toLocaleString('en-US')} rows) queued by ${jobs} jobs in ${seconds.toFixed(2)} s: ` +
        `${Math.round(rate).toLocaleString('en-US')} mails/s; the outbox alone: ${Math.round(STUDENTS / baselineSeconds).toLocaleString('en-US')} mails/s ` +
        `(campaign at ${((rate * baselineSeconds) / STUDENTS).toFixed(2)}x the outbox alone)` +
        `${queued === STUDENTS && invited === STUDENTS ? '' : ' -- WRONG COUNT'}`,
    );
  } finally {
    await app.close();
    await drop();
  }
}

export async function run(): Promise<void> {
  await benchOn('sqlite');
  if (benchPostgresUrl) await benchOn('postgres');
  else console.log('PostgreSQL: set BENCH_DATABASE_URL=postgres://... to measure it too');
}
