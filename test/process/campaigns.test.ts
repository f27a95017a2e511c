/**
 * Campaign sending as real server processes: killed with SIGKILL while a send-now campaign is
 * sending, restarted, and every student ends up invited exactly once (one invitation row and one
 * queued mail each); and two instances on one PostgreSQL database, sharing the jobs and the
 * outbox, deliver each invitation to a real SMTP listener once.
 */

import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type ExpressionBuilder, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../src/server/db';
import type { Database } from '../../src/server/db/types';
import { createStaffAccount } from '../../src/server/features/auth';
import { createCampaign } from '../../src/server/features/campaigns';
import { createInstitution } from '../../src/server/features/institutions';
import { importRoster } from '../../src/server/features/roster';
import { JOB_LEASE_MS } from '../../src/server/lib/jobs';
import { campaignRequest } from '../helpers/campaigns';
import { createPostgresSchema, TEST_DIALECTS } from '../helpers/databases';
import { FaultProxy } from '../helpers/fault-proxy';
import { describeOnPostgres } from '../helpers/postgres-only';
import { type ServerProcess, startServer, stopServer } from '../helpers/server-process';
import { startSmtpListener } from '../helpers/smtp';

/**
 * An instance writes its leases on its estimate of the database's clock, which may be off by half
 * a round trip to the database (seconds on a loaded machine); a lease no later than this past one
 * lease from the kill still proves the killed instance held nothing beyond its lease.
 */
const CLOCK_ESTIMATE_MARGIN_MS = 2_000;

/** Only stops a hung run; nothing is timed. */
const TEST_LIMIT_MS = 600_000;

interface Store {
  env: Record<string, string>;
  open(): Db;
  drop(): Promise<void>;
}

async function freshStore(dialect: string): Promise<Store> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-campaigns-'));
  if (dialect === 'sqlite') {
    const file = path.join(dataDir, 'wellness.sqlite');
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: `sqlite:${file}` },
      open: () => openDatabase({ kind: 'sqlite', file }),
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const { url, drop } = await createPostgresSchema('campaigns');
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url },
    open: () => openDatabase({ kind: 'postgres', url }),
    async drop() {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An institution with a roster of `students` in one group and a send-now campaign for it, due at once. */
async function seedCampaign(db: Db, students: number) {
  await migrateToLatest(db);
  const institution = await createInstitution(db.kysely, { name: 'Kill University', domains: ['kill.edu'] });
  const admin = await createStaffAccount({
    db: db.kysely,
    role: 'institution_admin',
    institutionName: 'Kill University',
    name: 'Kim Admin',
    email: 'admin@kill.edu',
    password: 'sturdy-campaign-passphrase-5',
  });
  const actor = { institutionId: institution.id, userId: admin.id, email: 'admin@kill.edu', address: null };
  const lines = ['name,email,group'];
  for (let index = 0; index < students; index += 1)
    lines.push(`Student ${index},s${index}@kill.edu,Everyone`);
  const imported = await importRoster({ db: db.kysely, actor, csv: lines.join('\n') });
  expect(imported.imported).toBe(students);
  const template = await db.kysely
    .selectFrom('active_templates')
    .select('template_id')
    .where('institution_id', '=', institution.id)
    .executeTakeFirstOrThrow();
  const campaign = await createCampaign({
    db: db.kysely,
    actor,
    request: campaignRequest(template.template_id, ['Everyone'], { send_now: true }),
  });
  return campaign.id;
}

/**
 * Mail to a roster student: the invitations, in these tests (a sent mail keeps no text to search,
 * only its address).
 */
const invitationMail = (eb: ExpressionBuilder<Database, 'mail_outbox'>) =>
  eb('to_address', 'in', eb.selectFrom('roster_students').select('email'));

async function counts(db: Db) {
  const invitations = await db.kysely
    .selectFrom('campaign_invitations')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('rows'),
      eb.fn.count<number | string>('student_id').distinct().as('students'),
    ])
    .executeTakeFirstOrThrow();
  const mails = await db.kysely
    .selectFrom('mail_outbox')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('mails'),
      eb.fn.count<number | string>('to_address').distinct().as('addresses'),
    ])
    .where(invitationMail)
    .executeTakeFirstOrThrow();
  const pendingJobs = await db.kysely
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'pending')
    .where('kind', 'in', ['campaign.round', 'campaign.batch'])
    .executeTakeFirstOrThrow();
  return {
    rows: Number(invitations.rows),
    students: Number(invitations.students),
    mails: Number(mails.mails),
    addresses: Number(mails.addresses),
    pendingSendJobs: Number(pendingJobs.n),
  };
}

/** Invitation rows and the send jobs still to run: what says the campaign is done, without reading mails. */
async function progress(db: Db): Promise<{ rows: number; pendingSendJobs: number }> {
  const invitations = await db.kysely
    .selectFrom('campaign_invitations')
    .select((eb) => eb.fn.countAll<number | string>().as('rows'))
    .executeTakeFirstOrThrow();
  const pendingJobs = await db.kysely
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'pending')
    .where('kind', 'in', ['campaign.round', 'campaign.batch'])
    .executeTakeFirstOrThrow();
  return { rows: Number(invitations.rows), pendingSendJobs: Number(pendingJobs.n) };
}

/** The database's clock (leases follow it), in epoch milliseconds. */
async function databaseNow(db: Db): Promise<number> {
  if (db.dialect === 'sqlite') return Date.now();
  const { rows } = await sql<{ now: number }>`
    select (extract(epoch from clock_timestamp()) * 1000)::bigint as now`.execute(db.kysely);
  return Number(rows[0]?.now);
}

/**
 * Until when the killed instance's claims keep the send jobs from everyone else, as a new
 * connection sees them now (a long-lived one may keep reading a snapshot).
 */
async function leasesOfSendJobs(store: Store): Promise<number[]> {
  const db = store.open();
  try {
    const rows = await db.kysely
      .selectFrom('jobs')
      .select(['lease_until', 'status', 'kind'])
      .where('kind', 'in', ['campaign.round', 'campaign.batch'])
      .execute();
    return rows
      .filter((row) => row.status === 'pending' && row.lease_until !== null)
      .map((row) => Number(row.lease_until));
  } finally {
    await db.close();
  }
}

/** Invitation mails still waiting in the outbox (queued, leased or retrying). */
async function unsentInvitations(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(invitationMail)
    .where('status', '<>', 'sent')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Invitation rows as a new connection sees them now (a long-lived one may keep reading a snapshot). */
async function rowsNow(store: Store): Promise<number> {
  const db = store.open();
  try {
    const row = await db.kysely
      .selectFrom('campaign_invitations')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await db.close();
  }
}

/**
 * Probes until `done`. Every 5 ms where the moment matters (a kill must land while the campaign
 * sends); a probe that only waits for the end, and scans more, can come less often (`pollMs`).
 */
async function waitFor<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  pollMs = 5,
): Promise<T> {
  const deadline = Date.now() + TEST_LIMIT_MS / 2;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}: ${JSON.stringify(value)}`);
    await delay(pollMs);
  }
}

/** How often a wait for the end of a send probes: a scan of thousands of rows each time. */
const SETTLE_POLL_MS = 100;

describe.each(TEST_DIALECTS)('campaign sending on %s', (dialect) => {
  it(
    'killed with SIGKILL while sending, then restarted: every student invited exactly once',
    async () => {
      // Ten batches: the kill lands after the first and long before the last.
      const STUDENTS = 5_000;
      const store = await freshStore(dialect);
      const watcher = store.open();
      let server: ServerProcess | null = null;
      try {
        await seedCampaign(watcher, STUDENTS);
        const env = { ...store.env, SESSION_SECRET: crypto.randomBytes(32).toString('hex') };
        // Jobs due at start run as the server starts, before it listens: watch from the spawn on.
        let child: ChildProcess | null = null;
        const starting = startServer(env, {
          onSpawn: (spawned) => {
            child = spawned;
          },
        }).catch((error: unknown) => error);
        // The first batches are committed: the send is under way, and far from over.
        const atKill = await waitFor(
          () => rowsNow(store),
          (rows) => rows > 0,
          'the first invitations',
        );
        (child as ChildProcess | null)?.kill('SIGKILL');
        // Whether the start had finished when the kill came does not matter here.
        await starting;
        const afterKill = await counts(watcher);
        console.log(
          `campaign on ${dialect}: killed with ${afterKill.rows.toLocaleString('en-US')} of ${STUDENTS.toLocaleString('en-US')} invited`,
        );
        expect(atKill, 'the kill came while the campaign was sending').toBeLessThan(STUDENTS);
        // What a killed run committed is whole: every invitation row has its one mail.
        expect(afterKill.mails).toBe(afterKill.rows);
        // Whatever the dead instance had claimed (the next batch may not be claimed yet) is free
        // within one short lease (its heartbeat renewed it while it lived), not after minutes:
        // any instance takes the jobs over soon after.
        const leases = await leasesOfSendJobs(store);
        const killedAt = await databaseNow(watcher);
        expect(leases.filter((until) => until > killedAt + JOB_LEASE_MS + CLOCK_ESTIMATE_MARGIN_MS)).toEqual(
          [],
        );

        const restarted = performance.now();
        server = await startServer(env);
        // Watched through the cheap counts; the mails are counted (a scan of every body) once, at the end.
        await waitFor(
          () => progress(watcher),
          (p) => p.rows >= STUDENTS && p.pendingSendJobs === 0,
          'the campaign to finish after the restart',
          SETTLE_POLL_MS,
        );
        console.log(
          `campaign on ${dialect}: the restarted instance finished the campaign ${Math.round((performance.now() - restarted) / 1000)} s after it was started ` +
            `(the killed instance's ${leases.length} leases ran out at most ${Math.round((Math.max(killedAt, ...leases) - killedAt) / 1000)} s after the kill)`,
        );
        const final = await counts(watcher);
        expect(final).toEqual({
          rows: STUDENTS,
          students: STUDENTS,
          mails: STUDENTS,
          addresses: STUDENTS,
          pendingSendJobs: 0,
        });
      } finally {
        if (server) await stopServer(server, 'SIGKILL');
        await watcher.close();
        await store.drop();
      }
    },
    TEST_LIMIT_MS,
  );
});

/**
 * The backend running (or that just ran) a send job, by the port its client connected from; null
 * before the first. Preferred: one whose transaction holds a row lock on `campaign_invitations`
 * now. A fast machine sends a whole batch between two probes, so a backend whose latest statement
 * wrote invitations counts too: the campaign is still being sent by that instance's jobs.
 */
async function portRunningSendJob(db: Db): Promise<number | null> {
  const { rows } = await sql<{ port: number }>`
    select a.client_port as port
    from pg_stat_activity a
    left join pg_locks l on l.pid = a.pid and l.relation = to_regclass('campaign_invitations')
      and l.mode = 'RowExclusiveLock'
    where a.pid <> pg_backend_pid() and a.backend_type = 'client backend'
      and (l.pid is not null or a.query ilike 'insert into "campaign_invitations"%')
    order by (l.pid is not null) desc, a.state_change desc
    limit 1`.execute(db.kysely);
  return rows[0]?.port ?? null;
}

describeOnPostgres('two instances on PostgreSQL', () => {
  it(
    'SIGKILL the instance running a send job: the other takes the campaign over within a lease and invites each student once',
    async () => {
      const STUDENTS = 5_000;
      const store = await freshStore('postgres');
      const watcher = store.open();
      const upstream = new URL(process.env.TEST_DATABASE_URL as string);
      // One instance reaches the database through a proxy, so its backends can be told apart.
      const proxy = await FaultProxy.start(upstream.hostname, Number(upstream.port || 5432));
      const servers: ServerProcess[] = [];
      try {
        const env = { ...store.env, SESSION_SECRET: crypto.randomBytes(32).toString('hex') };
        servers.push(
          ...(await Promise.all([
            startServer({ ...env, DATABASE_URL: proxy.route(store.env.DATABASE_URL as string) }),
            startServer(env),
          ])),
        );
        const [proxied, direct] = servers as [ServerProcess, ServerProcess];
        // The campaign comes once both instances run: on a loaded machine one of them can take
        // seconds to start, and the other would have sent the whole campaign meanwhile.
        await seedCampaign(watcher, STUDENTS);
        const running = await waitFor(
          () => portRunningSendJob(watcher),
          (port) => port !== null,
          'a send job to be running',
        );
        const victim = proxy.upstreamPorts().has(running as number) ? proxied : direct;
        const survivor = victim === proxied ? direct : proxied;
        victim.child.kill('SIGKILL');
        await victim.exited;
        const killed = performance.now();
        const atKill = await rowsNow(store);
        const leases = await leasesOfSendJobs(store);
        const killedAt = await databaseNow(watcher);
        expect(atKill, 'the kill came while the campaign was sending').toBeLessThan(STUDENTS);
        expect(leases.filter((until) => until > killedAt + JOB_LEASE_MS + CLOCK_ESTIMATE_MARGIN_MS)).toEqual(
          [],
        );

        await waitFor(
          () => rowsNow(store),
          (rows) => rows > atKill,
          'the other instance to send the next batch',
        );
        const pickedUpMs = Math.round(performance.now() - killed);
        await waitFor(
          () => progress(watcher),
          (p) => p.rows >= STUDENTS && p.pendingSendJobs === 0,
          'the other instance to finish the campaign',
          SETTLE_POLL_MS,
        );
        const finishedMs = Math.round(performance.now() - killed);
        expect(survivor.child.exitCode, 'the other instance lives').toBeNull();
        expect(await counts(watcher)).toEqual({
          rows: STUDENTS,
          students: STUDENTS,
          mails: STUDENTS,
          addresses: STUDENTS,
          pendingSendJobs: 0,
        });
        console.log(
          `campaign, two instances: killed the one sending at ${atKill.toLocaleString('en-US')} of ${STUDENTS.toLocaleString('en-US')}; ` +
            `the other sent the next batch ${(pickedUpMs / 1000).toFixed(1)} s after the kill and finished ${(finishedMs / 1000).toFixed(1)} s after it`,
        );
      } finally {
        await Promise.all(servers.map((server) => stopServer(server, 'SIGKILL')));
        proxy.close();
        await watcher.close();
        await store.drop();
      }
    },
    TEST_LIMIT_MS,
  );

  it(
    'deliver each invitation of a send-now campaign once',
    async () => {
      const STUDENTS = 1_000;
      const smtp = await startSmtpListener();
      const store = await freshStore('postgres');
      const watcher = store.open();
      const servers: ServerProcess[] = [];
      try {
        await seedCampaign(watcher, STUDENTS);
        const env = {
          ...store.env,
          SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
          SMTP_URL: smtp.url,
        };
        // Both start together: each one's worker finds the campaign's jobs due at once.
        servers.push(...(await Promise.all([startServer(env), startServer(env)])));
        await smtp.until(
          () => smtp.received.filter((mail) => mail.subject.includes('wellness check-in')).length >= STUDENTS,
        );
        // Settled, not paused: once no send job and no invitation mail is left to do, a second send
        // of anything would already be in the outbox and at the listener.
        await waitFor(
          async () => ({ ...(await counts(watcher)), unsent: await unsentInvitations(watcher) }),
          (c) => c.pendingSendJobs === 0 && c.unsent === 0,
          'the send jobs and their mail to finish',
          SETTLE_POLL_MS,
        );
        const invitations = smtp.received.filter((mail) => mail.subject.includes('wellness check-in'));
        const perAddress = new Map<string, number>();
        for (const mail of invitations)
          for (const to of mail.to) perAddress.set(to, (perAddress.get(to) ?? 0) + 1);
        expect(invitations).toHaveLength(STUDENTS);
        expect(perAddress.size).toBe(STUDENTS);
        expect([...perAddress.values()].every((count) => count === 1)).toBe(true);
        const ran = await watcher.kysely
          .selectFrom('jobs')
          .select(['status'])
          .where('kind', '=', 'campaign.batch')
          .execute();
        expect(ran.length).toBeGreaterThan(1);
        expect(ran.every((job) => job.status === 'done')).toBe(true);
      } finally {
        await Promise.all(servers.map((server) => stopServer(server)));
        await watcher.close();
        await store.drop();
        await smtp.close();
      }
    },
    TEST_LIMIT_MS,
  );
});
