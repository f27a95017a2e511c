import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { type Insertable, type Kysely, sql } from 'kysely';
import { DashboardData } from '../../src/common/schemas/dashboard';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import type { Db } from '../../src/server/db';
import type {
  AnswersTable,
  Database,
  NewUser,
  QuestionsTable,
  RespondentsTable,
  SubmissionsTable,
} from '../../src/server/db/types';
import { rebuildDashboardRollups } from '../../src/server/features/dashboard';
import { createInstitution } from '../../src/server/features/institutions';
import { createSession } from '../../src/server/lib/sessions';
import { BENCH_SECRET, benchPostgresUrl, openBenchDatabase } from './support/databases';
import { benchSmoke } from './support/smoke';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const WARM_UP_REQUESTS = benchSmoke ? 5 : 300;
const TARGETS = { largeP50Ms: 20, largeToSmallP50: 2 };
const DAY = 86_400_000;

interface Size {
  label: string;
  students: number;
  answers: number;
}

const SIZES: Size[] = benchSmoke
  ? [
      { label: 'small', students: 20, answers: 400 },
      { label: 'large', students: 100, answers: 2_000 },
    ]
  : [
      { label: 'small', students: 1_000, answers: 20_000 },
      { label: 'large', students: 50_000, answers: 1_000_000 },
    ];

interface Latency {
  p50: number;
  p99: number;
}

interface Generated {
  students: number;
  submissions: number;
  answers: number;
  seconds: number;
  rollupSeconds: number;
}

// ---------------------------------------------------------------- databases

// ---------------------------------------------------------------- data

/** Deterministic, so both sizes and every run see the same shape of data. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pickTier(random: () => number): SubmissionsTable['tier'] {
  const roll = random();
  if (roll < 0.04) return 'urgent';
  if (roll < 0.12) return 'elevated';
  if (roll < 0.3) return 'monitor';
  return 'none';
}

/** Column types for PostgreSQL's unnest(), which loads a whole chunk from one array per column. */
const COLUMN_TYPES = {
  users: {
    id: 'int4',
    institution_id: 'int4',
    email: 'text',
    name: 'text',
    password_hash: 'text',
    role: 'text',
    created_at: 'int8',
  },
  respondents: {
    id: 'int4',
    institution_id: 'int4',
    email: 'text',
    name: 'text',
    user_id: 'int4',
    created_at: 'int8',
  },
  submissions: {
    id: 'int4',
    institution_id: 'int4',
    template_id: 'int4',
    respondent_id: 'int4',
    user_id: 'int4',
    client_submission_id: 'text',
    student_name: 'text',
    school_email: 'text',
    tier: 'text',
    reasons: 'text',
    likert_mean: 'float8',
    created_at: 'int8',
    verified_at: 'int8',
  },
  answers: {
    submission_id: 'int4',
    question_id: 'int4',
    question_text: 'text',
    question_type: 'text',
    category: 'text',
    value: 'text',
  },
} as const;

type BulkTable = keyof typeof COLUMN_TYPES;

/**
 * Multi-row inserts: on PostgreSQL one unnest() per 20,000 rows; on SQLite VALUES lists sized
 * under its bound-parameter limit.
 */
async function bulkInsert<T extends BulkTable>(
  trx: Kysely<Database>,
  dialect: Db['dialect'],
  table: T,
  rows: Insertable<Database[T]>[],
) {
  const types = COLUMN_TYPES[table] as Record<string, string>;
  const columns = Object.keys(types);
  const chunk = dialect === 'postgres' ? 20_000 : Math.floor(32_766 / columns.length);
  for (let start = 0; start < rows.length; start += chunk) {
    const slice = rows.slice(start, start + chunk) as Record<string, unknown>[];
    if (dialect === 'postgres') {
      const arrays = columns.map(
        (column) => sql`${slice.map((row) => row[column] ?? null)}::${sql.raw(types[column] ?? 'text')}[]`,
      );
      await sql`insert into ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))}) select * from unnest(${sql.join(arrays)})`.execute(
        trx,
      );
    } else {
      await trx
        .insertInto(table)
        .values(slice as never)
        .execute();
    }
  }
}

/** Starts ids after those already used, and tells PostgreSQL's sequences about the ids we chose. */
async function nextId(
  trx: Kysely<Database>,
  table: 'users' | 'respondents' | 'submissions',
): Promise<number> {
  const row = await trx
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

async function syncSequences(db: Db) {
  if (db.dialect !== 'postgres') return;
  for (const table of ['users', 'respondents', 'submissions', 'answers']) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select coalesce(max(id), 1) from ${sql.table(table)}))`.execute(
      db.kysely,
    );
  }
}

async function generate(
  db: Db,
  size: Size,
): Promise<{ institutionId: number; adminId: number; generated: Generated }> {
  const started = performance.now();
  const kysely = db.kysely;
  const at = Date.now();
  const institution = await createInstitution(kysely, {
    name: `Bench University ${size.label}`,
    domains: [`${size.label}.bench.edu`],
  });
  const questions = await kysely
    .selectFrom('questions')
    .innerJoin('active_templates', 'active_templates.template_id', 'questions.template_id')
    .select([
      'questions.id',
      'questions.question_text',
      'questions.question_type',
      'questions.category',
      'questions.template_id',
    ])
    .where('active_templates.institution_id', '=', institution.id)
    .orderBy('questions.position')
    .execute();
  const templateId = questions[0]?.template_id ?? null;
  const random = seededRandom(size.students);
  const domain = `${size.label}.bench.edu`;
  let adminId = 0;
  let submissionCount = 0;
  let answerCount = 0;

  await kysely.transaction().execute(async (trx) => {
    const admin = await trx
      .insertInto('users')
      .values({
        institution_id: institution.id,
        email: `admin@${domain}`,
        name: 'Bench Admin',
        password_hash: 'unused',
        role: 'institution_admin',
        created_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    adminId = admin.id;

    // Four in five students register; one in ten registered never answers; the rest answered through the link only.
    const firstUserId = await nextId(trx, 'users');
    const firstRespondentId = await nextId(trx, 'respondents');
    const users: (NewUser & { id: number })[] = [];
    const userIdOf = new Map<number, number>();
    const respondents: (Insertable<RespondentsTable> & { id: number })[] = [];
    const answering: { index: number; respondentId: number }[] = [];
    for (let index = 0; index < size.students; index += 1) {
      const email = `student${index}@${domain}`;
      const joinedAt = at - Math.floor(random() * 400 * DAY);
      if (index % 5 !== 0) {
        const id = firstUserId + userIdOf.size;
        userIdOf.set(index, id);
        users.push({
          id,
          institution_id: institution.id,
          email,
          name: `Student ${index}`,
          password_hash: 'unused',
          role: 'student',
          created_at: joinedAt,
        });
        if (index % 10 === 1) continue;
      }
      const respondentId = firstRespondentId + respondents.length;
      respondents.push({
        id: respondentId,
        institution_id: institution.id,
        email,
        name: `Student ${index}`,
        user_id: userIdOf.get(index) ?? null,
        created_at: joinedAt,
      });
      answering.push({ index, respondentId });
    }
    await bulkInsert(trx, db.dialect, 'users', users);
    await bulkInsert(trx, db.dialect, 'respondents', respondents);

    // Submissions in time order, as they would have arrived; every one answers every question.
    const perSubmission = questions.length;
    const total = Math.ceil(size.answers / perSubmission);
    const plans = Array.from({ length: total }, (_, serial) => ({
      student: answering[
        serial < answering.length ? serial : Math.floor(random() * answering.length)
      ] as (typeof answering)[number],
      createdAt: at - Math.floor(random() * 365 * DAY),
      tier: pickTier(random),
    })).sort((a, b) => a.createdAt - b.createdAt);
    const firstSubmissionId = await nextId(trx, 'submissions');
    const batch = 4_000;
    for (let start = 0; start < plans.length; start += batch) {
      const slice = plans.slice(start, start + batch);
      const submissions = slice.map((plan, offset) => ({
        id: firstSubmissionId + start + offset,
        institution_id: institution.id,
        template_id: templateId,
        respondent_id: plan.student.respondentId,
        user_id: userIdOf.get(plan.student.index) ?? null,
        client_submission_id: null,
        student_name: `Student ${plan.student.index}`,
        school_email: `student${plan.student.index}@${domain}`,
        tier: plan.tier,
        reasons: '["Benchmark reason"]',
        likert_mean: null,
        created_at: plan.createdAt,
        // Proven addresses, as a signed-in student's are: the dashboard counts only those.
        verified_at: plan.createdAt,
      }));
      await bulkInsert(trx, db.dialect, 'submissions', submissions);
      const answers = submissions.flatMap((submission) =>
        questions.map((question) => ({
          submission_id: submission.id,
          question_id: question.id,
          question_text: question.question_text,
          question_type: question.question_type as AnswersTable['question_type'],
          category: question.category as QuestionsTable['category'],
          value:
            question.question_type === 'text' ? 'Doing fine, thanks' : String(1 + Math.floor(random() * 5)),
        })),
      );
      await bulkInsert(trx, db.dialect, 'answers', answers);
      submissionCount += submissions.length;
      answerCount += answers.length;
    }
  });
  await syncSequences(db);
  const rollupStarted = performance.now();
  await rebuildDashboardRollups(kysely, institution.id);
  const finished = performance.now();
  // What autovacuum does to freshly loaded tables in production: without statistics the planner guesses.
  if (db.dialect === 'postgres') await sql`analyze`.execute(kysely);
  return {
    institutionId: institution.id,
    adminId,
    generated: {
      students: size.students,
      submissions: submissionCount,
      answers: answerCount,
      seconds: (finished - started) / 1000,
      rollupSeconds: (finished - rollupStarted) / 1000,
    },
  };
}

// ---------------------------------------------------------------- measuring

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/** One HTTP target: a keep-alive connection of its own, requests one at a time. */
class Target {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  readonly samples: number[] = [];

  constructor(
    readonly label: string,
    private readonly url: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  get(): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const request = http.get(this.url, { agent: this.agent, headers: this.headers }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          response.statusCode === 200
            ? resolve(body)
            : reject(new Error(`${this.url}: ${response.statusCode} ${body}`)),
        );
      });
      request.on('error', reject);
    });
  }

  async timed(): Promise<void> {
    const started = performance.now();
    await this.get();
    this.samples.push(performance.now() - started);
  }

  latency(): Latency {
    const sorted = [...this.samples].sort((a, b) => a - b);
    return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
  }

  close() {
    this.agent.destroy();
  }
}

/**
 * Requests alternate between the targets, so a load spike on a shared machine hits every target
 * alike and the ratios between them stay honest.
 */
async function measureInterleaved(targets: Target[]): Promise<void> {
  for (let round = 0; round < WARM_UP_REQUESTS; round += 1) for (const target of targets) await target.get();
  for (let round = 0; round < REQUESTS; round += 1) for (const target of targets) await target.timed();
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

interface Prepared {
  size: Size;
  generated: Generated;
  where: string;
  target: Target;
  flagged: number;
  close(): Promise<void>;
}

/** A database of the given size behind the real app, checked to answer with the generated data. */
async function prepare(size: Size): Promise<Prepared> {
  const { db, drop, where } = await openBenchDatabase(benchPostgresUrl ? 'postgres' : 'sqlite', 'dashboard');
  const { adminId, generated } = await generate(db, size);
  const config = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: '0' });
  const app = await buildApp({
    db,
    config,
    secret: BENCH_SECRET,
    webRoot: path.join(os.tmpdir(), 'no-web-root'),
  });
  // A staff sign-in counts once its second factor is proven.
  const { sessionId } = await createSession(db.kysely, adminId, 'password_and_second_factor');
  const target = new Target(size.label, `${await listen(app)}/api/dashboard/`, {
    cookie: `sessionid=${sessionId}`,
  });
  const data = DashboardData.parse(JSON.parse(await target.get()));
  if (data.num_responses !== generated.submissions) {
    throw new Error(`dashboard counts ${data.num_responses} of ${generated.submissions} submissions`);
  }
  return {
    size,
    generated,
    where,
    target,
    // The bench signs in as an admin, who sees every figure.
    flagged: Number(data.num_flagged_students),
    async close() {
      target.close();
      await app.close();
      await drop();
    },
  };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const count = (value: number) => value.toLocaleString('en-US');

export async function run(): Promise<void> {
  const prepared: Prepared[] = [];
  const bare = Fastify({ logger: false });
  bare.get('/ping', async () => ({ ok: true }));
  try {
    for (const size of SIZES) {
      console.log(
        `  generating ${size.label}: ${count(size.students)} students, ${count(size.answers)} answers...`,
      );
      prepared.push(await prepare(size));
    }
    const baseline = new Target('bare Fastify', `${await listen(bare)}/ping`);
    await measureInterleaved([...prepared.map((entry) => entry.target), baseline]);
    report(prepared, baseline);
    baseline.close();
  } finally {
    for (const entry of prepared) await entry.close();
    await bare.close();
  }
}

function report(prepared: Prepared[], baseline: Target) {
  const floor = baseline.latency();
  console.log(
    `\nGET /api/dashboard/ on ${prepared[0]?.where ?? '?'}: ${count(REQUESTS)} sequential requests per size after ${WARM_UP_REQUESTS} warm-up, interleaved`,
  );
  console.table(
    Object.fromEntries(
      prepared.map((entry) => {
        const latency = entry.target.latency();
        return [
          entry.size.label,
          {
            students: count(entry.generated.students),
            submissions: count(entry.generated.submissions),
            answers: count(entry.generated.answers),
            flagged: count(entry.flagged),
            'generated in': `${entry.generated.seconds.toFixed(1)} s (rollups ${entry.generated.rollupSeconds.toFixed(1)} s)`,
            p50: ms(latency.p50),
            p99: ms(latency.p99),
            'p50 / bare Fastify': `${(latency.p50 / floor.p50).toFixed(1)}x`,
          },
        ];
      }),
    ),
  );
  console.log(`bare Fastify JSON route (same run, same client): p50 ${ms(floor.p50)}, p99 ${ms(floor.p99)}`);
  const small = prepared.find((entry) => entry.size.label === 'small')?.target.latency();
  const large = prepared.find((entry) => entry.size.label === 'large')?.target.latency();
  if (!small || !large) return;
  const ratio = large.p50 / small.p50;
  const verdicts = [
    [`large p50 ${ms(large.p50)} <= ${TARGETS.largeP50Ms} ms`, large.p50 <= TARGETS.largeP50Ms],
    [
      `large/small p50 ratio ${ratio.toFixed(2)} <= ${TARGETS.largeToSmallP50}`,
      ratio <= TARGETS.largeToSmallP50,
    ],
  ] as const;
  for (const [text, met] of verdicts) console.log(`${met ? 'PASS' : 'FAIL'}  ${text}`);
  if (verdicts.some(([, met]) => !met)) process.exitCode = 1;
}
