/**
 * The real server process on a real database: several logged-in students submit concurrently
 * over HTTP, the process is killed with SIGKILL while submissions are in flight, and a new
 * process starts on the same data. Every submission that was acknowledged with a 2xx must be
 * there, once, with all its answers; one whose answer never arrived is either whole or absent;
 * the database passes its integrity checks; the restarted server serves it; and the dashboard
 * rollups equal a recount from scratch. No timing is asserted anywhere.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../src/server/db';
import { createStaffAccount } from '../../src/server/features/auth';
import { rebuildDashboardRollups } from '../../src/server/features/dashboard';
import { createInstitution } from '../../src/server/features/institutions';
import { TestAgent } from '../helpers/app';
import { rollupSnapshot } from '../helpers/dashboard-data';
import { createPostgresSchema, TEST_DIALECTS, type TestDialect } from '../helpers/databases';
import { type ServerProcess, startServer, stopServer } from '../helpers/server-process';
import { startSmtpListener } from '../helpers/smtp';

const STUDENTS = 6;
const IN_FLIGHT_PER_STUDENT = 4;
/** Acknowledged submissions to wait for before the kill. */
const KILL_AFTER = 60;
const PASSWORD = 'durable-passphrase-42';
const DOMAIN = 'durable.edu';
/** Only stops a hung run; nothing is timed. */
const TEST_LIMIT_MS = 600_000;

interface Store {
  env: Record<string, string>;
  open(): Db;
  drop(): Promise<void>;
}

/** A fresh SQLite file in a temporary data folder, as `npm start` uses it. */
function sqliteStore(): Store {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-durability-'));
  return {
    env: { DATA_DIR: dataDir },
    open: () => openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'wellness.sqlite') }),
    drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** A private schema of the test database, and a temporary data folder. */
async function postgresStore(): Promise<Store> {
  const { url, drop } = await createPostgresSchema('durability');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-durability-'));
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url },
    open: () => openDatabase({ kind: 'postgres', url }),
    async drop() {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Sent {
  email: string;
  submissionId: string;
  answers: Record<string, string>;
}

interface Question {
  id: number;
  question_type: 'likert' | 'text';
}

function answersFor(questions: Question[], submissionId: string, n: number): Record<string, string> {
  return Object.fromEntries(
    questions.map((question, index) => [
      String(question.id),
      question.question_type === 'likert'
        ? String(1 + ((n + index) % 5))
        : `Note ${submissionId}: ça va, un peu fatigué 🙂 <b>not bold</b> '; --`,
    ]),
  );
}

/** The stored submission with this client id, and its answers keyed by question id. */
async function stored(db: Db, sent: Sent) {
  const rows = await db.kysely
    .selectFrom('submissions')
    .select(['id', 'school_email'])
    .where('client_submission_id', '=', sent.submissionId)
    .execute();
  const answers = await db.kysely
    .selectFrom('answers')
    .select(['question_id', 'value'])
    .where('submission_id', 'in', rows.map((row) => row.id).concat(-1))
    .execute();
  return {
    count: rows.length,
    email: rows[0]?.school_email,
    answers: Object.fromEntries(answers.map((answer) => [String(answer.question_id), answer.value])),
  };
}

async function integrityProblems(db: Db, dialect: TestDialect): Promise<string[]> {
  const problems: string[] = [];
  if (dialect === 'sqlite') {
    const integrity = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(db.kysely);
    if (integrity.rows.map((row) => row.integrity_check).join() !== 'ok') {
      problems.push(`integrity_check: ${JSON.stringify(integrity.rows)}`);
    }
    const foreignKeys = await sql`PRAGMA foreign_key_check`.execute(db.kysely);
    if (foreignKeys.rows.length > 0) problems.push(`foreign_key_check: ${JSON.stringify(foreignKeys.rows)}`);
  } else {
    // amcheck verifies every B-tree index of the schema against its table, when the server has it.
    const available = await sql<{
      name: string;
    }>`select name from pg_available_extensions where name = 'amcheck'`.execute(db.kysely);
    if (available.rows.length > 0) {
      await sql`create extension if not exists amcheck schema public`
        .execute(db.kysely)
        .catch(() => undefined);
    }
    const installed = await sql<{ schema: string }>`
      select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
      where e.extname = 'amcheck'`.execute(db.kysely);
    const amcheck = installed.rows[0]?.schema;
    if (amcheck) {
      const indexes = await sql<{ oid: number; name: string }>`
        select c.oid, c.relname as name from pg_index i
        join pg_class c on c.oid = i.indexrelid
        join pg_am am on am.oid = c.relam and am.amname = 'btree'
        where c.relnamespace = current_schema()::regnamespace`.execute(db.kysely);
      for (const index of indexes.rows) {
        await sql`select ${sql.id(amcheck)}.bt_index_check(${index.oid}::regclass, true)`
          .execute(db.kysely)
          .catch((error: Error) => problems.push(`index ${index.name}: ${error.message}`));
      }
      console.log(`durability on postgres: amcheck verified ${indexes.rows.length} indexes`);
    } else {
      console.warn('durability on postgres: amcheck is not installed, index verification left out');
    }
  }
  // What either database would accept but a submission must never be: stored without all its answers.
  const partial = await db.kysely
    .selectFrom('submissions')
    .leftJoin('answers', 'answers.submission_id', 'submissions.id')
    .select(['submissions.id', (eb) => eb.fn.count('answers.id').as('answers')])
    .groupBy('submissions.id')
    .execute();
  const questionCount = Number(
    (
      await db.kysely
        .selectFrom('questions')
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow()
    ).count,
  );
  for (const row of partial) {
    if (Number(row.answers) !== questionCount)
      problems.push(`submission ${row.id} has ${row.answers} answers`);
  }
  return problems;
}

describe.each(TEST_DIALECTS)('durability of the server process on %s', (dialect) => {
  it(
    'keeps every acknowledged submission, whole, through a SIGKILL in the middle of concurrent submits',
    async () => {
      const store = dialect === 'sqlite' ? sqliteStore() : await postgresStore();
      // Codes are read from the mail as a student would: the outbox drops a mail's words once sent.
      const smtp = await startSmtpListener();
      const servers: ServerProcess[] = [];
      try {
        // The institution and its admin, as an operator creates them with `npm run manage`.
        const setup = store.open();
        await migrateToLatest(setup);
        const institution = await createInstitution(setup.kysely, {
          name: 'Durable University',
          domains: [DOMAIN],
        });
        await createStaffAccount({
          db: setup.kysely,
          role: 'institution_admin',
          institutionName: 'Durable University',
          name: 'Dana Admin',
          email: `admin@${DOMAIN}`,
          password: PASSWORD,
        });
        await setup.close();

        const first = await startServer({ ...store.env, SMTP_URL: smtp.url });
        servers.push(first);
        const students: { email: string; client: TestAgent }[] = [];
        // Each registration is completed with the code the server mailed.
        for (let index = 0; index < STUDENTS; index++) {
          const email = `student${index}@${DOMAIN}`;
          const client = new TestAgent(first.baseUrl);
          const registered = await client.post('/api/register/', {
            institution_name: 'Durable University',
            name: `Student ${index}`,
            email,
            password: PASSWORD,
            confirm_password: PASSWORD,
          });
          expect(registered.status, JSON.stringify(registered.body)).toBe(201);
          const code = /\b(\d{6})\b/.exec((await smtp.mailTo(email)).text)?.[1];
          const proven = await client.post('/api/verify/check/', { email, code });
          expect(proven.status, JSON.stringify(proven.body)).toBe(200);
          await client.login(email, PASSWORD);
          students.push({ email, client });
        }
        const survey = (await students[0]?.client.get('/api/get-user-survey-questions/'))?.body as {
          template_id: number;
          questions: Question[];
        };
        expect(survey.questions.length).toBeGreaterThan(0);

        // Submit without pause from every student until enough are acknowledged, then kill.
        const acknowledged: Sent[] = [];
        const unanswered: Sent[] = [];
        let killed = false;
        let inFlight = 0;
        let inFlightAtKill = 0;
        const loops = students.flatMap(({ email, client }, s) =>
          Array.from({ length: IN_FLIGHT_PER_STUDENT }, async (_unused, l) => {
            for (let n = 0; !killed; n++) {
              const submissionId = `durable-${s}-${l}-${n}`;
              const sent = { email, submissionId, answers: answersFor(survey.questions, submissionId, n) };
              inFlight += 1;
              let status: number;
              try {
                const response = await client.post('/api/survey/', {
                  survey_template_id: survey.template_id,
                  answers: sent.answers,
                  submission_id: submissionId,
                });
                status = response.status;
                if (status !== 200 && !killed) {
                  throw new Error(
                    `submission refused before the kill: ${status} ${JSON.stringify(response.body)}`,
                  );
                }
              } catch (error) {
                if (!killed) throw error;
                // The connection died with the process: whether it was stored is unknown.
                unanswered.push(sent);
                return;
              } finally {
                inFlight -= 1;
              }
              if (status === 200) {
                acknowledged.push(sent);
                if (acknowledged.length >= KILL_AFTER && !killed) {
                  killed = true;
                  inFlightAtKill = inFlight;
                  first.child.kill('SIGKILL');
                }
              } else {
                unanswered.push(sent);
              }
            }
          }),
        );
        const outcomes = await Promise.allSettled(loops);
        const failures = outcomes.filter((outcome) => outcome.status === 'rejected');
        expect(failures.map((failure) => String((failure as PromiseRejectedResult).reason))).toEqual([]);
        expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
        expect(inFlightAtKill, 'submissions in flight when the process was killed').toBeGreaterThan(0);

        // A new process on the same data: it starts, and its dashboard counts what is stored.
        const second = await startServer(store.env);
        servers.push(second);
        const admin = new TestAgent(second.baseUrl);
        await admin.login(`admin@${DOMAIN}`, PASSWORD);
        const dashboard = await admin.get('/api/dashboard/');
        expect(dashboard.status).toBe(200);
        const resubmit = new TestAgent(second.baseUrl);
        await resubmit.login(students[0]?.email as string, PASSWORD);
        const after = await resubmit.post('/api/survey/', {
          survey_template_id: survey.template_id,
          answers: answersFor(survey.questions, 'after-restart', 1),
          submission_id: 'durable-after-restart',
        });
        expect(after.status, 'a submission after the restart').toBe(200);
        acknowledged.push({
          email: students[0]?.email as string,
          submissionId: 'durable-after-restart',
          answers: answersFor(survey.questions, 'after-restart', 1),
        });
        const dashboardAfter = await admin.get('/api/dashboard/');
        expect(await stopServer(second)).toEqual({ code: 0, signal: null });

        const db = store.open();
        try {
          expect(await integrityProblems(db, dialect)).toEqual([]);

          let found = 0;
          for (const sent of acknowledged) {
            const row = await stored(db, sent);
            expect(row.count, `acknowledged ${sent.submissionId} stored once`).toBe(1);
            expect(row.email).toBe(sent.email);
            expect(row.answers, `answers of ${sent.submissionId}`).toEqual(sent.answers);
            found += 1;
          }
          let unansweredStored = 0;
          for (const sent of unanswered) {
            const row = await stored(db, sent);
            expect(row.count, `unanswered ${sent.submissionId} stored at most once`).toBeLessThanOrEqual(1);
            if (row.count === 1) {
              expect(row.answers, `answers of unanswered ${sent.submissionId}`).toEqual(sent.answers);
              unansweredStored += 1;
            }
          }
          const total = Number(
            (
              await db.kysely
                .selectFrom('submissions')
                .select((eb) => eb.fn.countAll().as('count'))
                .executeTakeFirstOrThrow()
            ).count,
          );
          // Nothing stored that nobody sent.
          expect(total).toBe(found + unansweredStored);
          expect(dashboard.body?.num_responses).toBe(total - 1);
          expect(dashboardAfter.body?.num_responses).toBe(total);

          // The rollups kept in the submit transactions equal a recount from the stored rows.
          const kept = await rollupSnapshot(db.kysely, institution.id);
          await rebuildDashboardRollups(db.kysely, institution.id);
          expect(await rollupSnapshot(db.kysely, institution.id)).toEqual(kept);

          console.log(
            `durability on ${dialect}: ${acknowledged.length} submissions acknowledged, ${found} found whole after ` +
              `SIGKILL and restart; ${inFlightAtKill} in flight at the kill, ${unanswered.length} never answered ` +
              `(${unansweredStored} of them stored whole, the rest absent); ${total} stored in all`,
          );
        } finally {
          await db.close();
        }
      } finally {
        for (const server of servers) await stopServer(server, 'SIGKILL');
        await smtp.close();
        await store.drop();
      }
    },
    TEST_LIMIT_MS,
  );
});
