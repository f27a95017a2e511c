/**
 * SQLite conditions that pass (another writer's lock held past the busy timeout, a full disk, a
 * file that cannot be written): each request that needs a write is answered 503 with
 * Retry-After, a code and a message that says what happened, nothing is half-written, requests
 * that need no write keep working, and the next write after the condition clears succeeds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, TestAgent } from '../../../test/helpers/app';
import { makeInstitution, makeUser } from '../../../test/helpers/factories';
import { Readiness } from '../features/health';
import { type Db, migrateToLatest, openDatabase } from '.';
import type { HealthEvent } from './availability';
import { WalCheckpoints, walCheckpointsOf } from './wal-checkpoints';

interface Survey {
  template_id: number;
  questions: { id: number; question_type: 'likert' | 'text' }[];
}

describe('SQLite outages', () => {
  let dir: string;
  let file: string;
  let db: Db;
  let app: FastifyInstance;
  let student: TestAgent;
  let survey: Survey;
  let events: HealthEvent[];

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-outage-'));
    file = path.join(dir, 'wellness.sqlite');
    // Back at the first committed write: the settling time has its own unit test.
    db = openDatabase({ kind: 'sqlite', file }, { busyTimeoutMs: 50, recoverySettleMs: 0 });
    await migrateToLatest(db);
    const institution = await makeInstitution(db.kysely);
    const user = await makeUser(db.kysely, { email: 'sam@north.edu', institutionId: institution.id });
    app = await buildTestApp(db);
    await app.ready();
    events = [];
    db.health.observe((event) => events.push(event));
    student = new TestAgent(app);
    await student.login(user.email, user.password);
    survey = (await student.get<Survey>('/api/get-user-survey-questions/')).body;
  });

  afterEach(async () => {
    await app.close();
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const submit = (submissionId: string, text = 'A quiet week.') =>
    student.post('/api/survey/', {
      survey_template_id: survey.template_id,
      submission_id: submissionId,
      answers: Object.fromEntries(
        survey.questions.map((question) => [
          String(question.id),
          question.question_type === 'likert' ? '2' : text,
        ]),
      ),
    });

  const stored = async () => {
    const count = async (table: 'submissions' | 'answers') =>
      Number(
        (
          await db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { submissions: await count('submissions'), answers: await count('answers') };
  };

  async function expectUnavailable(submissionId: string, message: RegExp, text?: string) {
    const before = await stored();
    const response = await submit(submissionId, text);
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('2');
    expect(response.body).toMatchObject({ success: false, code: 'DATABASE_UNAVAILABLE' });
    expect((response.body as { message: string }).message).toMatch(message);
    expect(await stored(), 'nothing half-written').toEqual(before);
    // What needs no write goes on meanwhile.
    expect((await student.get('/api/institutions/')).status).toBe(200);
    expect((await student.get('/api/health/live')).status).toBe(200);
  }

  async function expectRecovered(submissionId: string) {
    const before = await stored();
    const response = await submit(submissionId);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect((await stored()).submissions).toBe(before.submissions + 1);
    expect(
      events.map((event) => event.state),
      'one notice going down, one coming back',
    ).toEqual(['down', 'up']);
  }

  it('answers 503 while another writer holds the lock past the busy timeout, and writes once it is free', async () => {
    const other = new SqliteDatabase(file);
    try {
      other.prepare('begin immediate').run();
      await expectUnavailable('busy-0001', /busy/);
      await expectUnavailable('busy-0002', /busy/);
      other.prepare('commit').run();
    } finally {
      other.close();
    }
    await expectRecovered('busy-0001');
  });

  it('answers 503 when the disk is full, and writes once there is room', async () => {
    // Without free pages, the file must grow to take a long answer.
    await sql`vacuum`.execute(db.kysely);
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(db.kysely);
    // The file may not grow: exactly what a full disk does to SQLite.
    await sql.raw(`pragma max_page_count = ${rows[0]?.page_count}`).execute(db.kysely);
    await expectUnavailable('full-0001', /run out of storage/, 'x'.repeat(4_000));
    await sql.raw('pragma max_page_count = 1073741823').execute(db.kysely);
    await expectRecovered('full-0001');
  });

  it('answers 503 while the database cannot be written, and writes once it can', async () => {
    // The engine's own read-only state: a file mode would not stop a test run as root.
    await sql`pragma query_only = on`.execute(db.kysely);
    await expectUnavailable('readonly-0001', /cannot be written/);
    await sql`pragma query_only = off`.execute(db.kysely);
    await expectRecovered('readonly-0001');
  });

  it('is not ready while the database cannot be written, though it answers reads, and ready once it can', async () => {
    await sql`pragma query_only = on`.execute(db.kysely);
    const notReady = await student.get('/api/health/ready');
    expect(notReady.status).toBe(503);
    expect(notReady.body).toMatchObject({
      status: 'unavailable',
      code: 'DATABASE_UNAVAILABLE',
      reason: expect.stringMatching(/SQLITE_READONLY/),
    });
    expect((await student.get('/api/institutions/')).status, 'reads go on').toBe(200);
    await sql`pragma query_only = off`.execute(db.kysely);
    expect((await student.get('/api/health/ready')).status).toBe(200);
    expect(events.map((event) => event.state)).toEqual(['down', 'up']);
  });

  it('does not count a write as back when its transaction fails to commit', async () => {
    db.health.failed(Object.assign(new Error('disk full'), { code: 'SQLITE_FULL' }));
    // A write that succeeds as a statement, and a commit that fails: the deferred check of a
    // foreign key stands in for the commit a full disk refuses.
    const failed = await db.kysely
      .transaction()
      .execute(async (trx) => {
        await sql`pragma defer_foreign_keys = on`.execute(trx);
        await trx
          .insertInto('institution_domains')
          .values({ institution_id: 999_999, domain: 'nowhere.edu' })
          .execute();
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect((failed as { code?: string } | null)?.code).toMatch(/^SQLITE_CONSTRAINT/);
    expect(db.health.isDown).toBe(true);
    expect(events.map((event) => event.state)).toEqual(['down']);
    await expectRecovered('after-commit-0001');
  });
});

describe('readiness and checkpoints of an SQLite file', () => {
  let dir: string;
  let db: Db;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-wal-'));
    db = openDatabase({ kind: 'sqlite', file: path.join(dir, 'wellness.sqlite') });
    await migrateToLatest(db);
  });

  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('checkpoints the real log quietly, and is not ready once checkpoints keep failing past the log limit', async () => {
    const said: string[] = [];
    const events = {
      onFailing: () => said.push('failing'),
      onRecovered: () => said.push('recovered'),
    };
    const real = walCheckpointsOf(db, 64 * 2 ** 20, events);
    await real?.run();
    expect(said).toEqual([]);
    expect(await new Readiness(db, real).check()).toBeNull();

    const failing = new WalCheckpoints({
      checkpoint: async () => {
        throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' });
      },
      walBytes: () => 65 * 2 ** 20,
      limitBytes: 64 * 2 ** 20,
      events,
    });
    await failing.run();
    expect(said).toEqual(['failing']);
    expect(await new Readiness(db, failing).check()).toMatchObject({ code: 'CHECKPOINTS_FAILING' });
  });
});

describe('health probes', () => {
  it('say live at once, and ready only once the database is migrated', async () => {
    const db = openDatabase({ kind: 'sqlite', file: ':memory:' });
    const app = await buildTestApp(db);
    try {
      const probe = async (url: string) => {
        const response = await app.inject({ url });
        return { status: response.statusCode, body: response.json() };
      };
      expect(await probe('/api/health/live')).toEqual({ status: 200, body: { status: 'live' } });
      expect(await probe('/api/health/ready')).toEqual({
        status: 503,
        body: { status: 'unavailable', code: 'MIGRATIONS_PENDING', reason: expect.any(String) },
      });
      await migrateToLatest(db);
      expect(await probe('/api/health/ready')).toEqual({ status: 200, body: { status: 'ready' } });
    } finally {
      await app.close();
      await db.close();
    }
  });
});
