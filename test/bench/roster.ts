import { parse } from 'csv-parse/sync';
import type { RosterImportResponse } from '../../src/common/schemas/roster';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { TestAgent } from '../helpers/app';
import { makeInstitution, makeUser, TEST_PASSWORD } from '../helpers/factories';
import { BENCH_SECRET, benchPostgresUrl, openBenchDatabase } from './support/databases';

const ROWS = Number(process.env.BENCH_ROSTER_ROWS ?? 50_000);
const TARGET_SECONDS = 10;

function registrarFile(rows: number, variant: string): string {
  const lines = ['\ufeffName,Email,Group'];
  for (let index = 0; index < rows; index += 1) {
    lines.push(`"Student ${variant}, Number ${index}",student${index}@bench.edu,Group ${index % 40}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

async function timeUpload(agent: TestAgent, csv: string) {
  const started = performance.now();
  const response = await agent.request<RosterImportResponse>({
    method: 'POST',
    url: '/api/roster/',
    payload: csv,
    headers: { 'content-type': 'text/csv' },
  });
  const seconds = (performance.now() - started) / 1000;
  if (response.status !== 200)
    throw new Error(`upload failed: ${response.status} ${response.text.slice(0, 300)}`);
  return { seconds, body: response.body };
}

async function benchOn(kind: 'sqlite' | 'postgres', parseSeconds: number) {
  const { db, drop } = await openBenchDatabase(kind, 'roster');
  const config = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: '0' });
  const app = await buildApp({
    db,
    config,
    secret: BENCH_SECRET,
    webRoot: '/nonexistent',
    mail: { worker: false },
  });
  try {
    const institution = await makeInstitution(db.kysely, 'Bench University', ['bench.edu']);
    const admin = await makeUser(db.kysely, {
      email: 'admin@bench.edu',
      role: 'institution_admin',
      institutionId: institution.id,
    });
    const agent = new TestAgent(app);
    await agent.login(admin.email, TEST_PASSWORD);
    const first = await timeUpload(agent, registrarFile(ROWS, 'A'));
    const again = await timeUpload(agent, registrarFile(ROWS, 'B'));
    const label = kind === 'sqlite' ? 'SQLite file (WAL, synchronous=FULL)' : 'PostgreSQL';
    for (const [name, run, expected] of [
      ['new roster', first, { imported: ROWS, updated: 0 }],
      ['re-upload ', again, { imported: 0, updated: ROWS }],
    ] as const) {
      const ok = run.body.imported === expected.imported && run.body.updated === expected.updated;
      console.log(
        `${label}, ${name}: ${ROWS.toLocaleString('en-US')} rows in ${run.seconds.toFixed(2)} s ` +
          `(${Math.round(ROWS / run.seconds).toLocaleString('en-US')} rows/s, ${(run.seconds / parseSeconds).toFixed(1)}x csv-parse alone) ` +
          `${run.seconds < TARGET_SECONDS ? 'within' : 'OVER'} the ${TARGET_SECONDS} s target` +
          `${ok ? '' : ` -- WRONG COUNTS ${JSON.stringify({ imported: run.body.imported, updated: run.body.updated })}`}`,
      );
    }
  } finally {
    await app.close();
    await drop();
  }
}

export async function run(): Promise<void> {
  const csv = registrarFile(ROWS, 'A');
  const started = performance.now();
  parse(csv, { bom: true });
  const parseSeconds = (performance.now() - started) / 1000;
  console.log(
    `baseline: csv-parse alone reads ${ROWS.toLocaleString('en-US')} rows (${(csv.length / 1e6).toFixed(1)} MB) in ${parseSeconds.toFixed(2)} s`,
  );
  await benchOn('sqlite', parseSeconds);
  if (benchPostgresUrl) await benchOn('postgres', parseSeconds);
  else console.log('PostgreSQL: set BENCH_DATABASE_URL=postgres://... to measure it too');
}
