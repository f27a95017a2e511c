/**
 * The real server and operator command line as separate processes, over real HTTP, against a
 * temporary SQLite database: what a newcomer gets from `npm start` and `npm run manage`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../src/server/db';
import { buildTestApp, TestAgent } from '../helpers/app';
import { cliEntry } from '../helpers/server-build';
import { type Exit, freePort } from '../helpers/server-process';

const ROOT = path.resolve(import.meta.dirname, '../..');
// Processes start slowly on a busy machine; these limits only stop a hung test.
const PROCESS_TEST_TIMEOUT = 480_000;
const STARTUP_LIMIT_MS = 180_000;

/** The inherited environment without anything that would point the process elsewhere. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of [
    'DATABASE_URL',
    'SESSION_SECRET',
    'PORT',
    'HOST',
    'DATA_DIR',
    'SEED_DEMO',
    'WEB_ROOT',
    'PUBLIC_URL',
    'TRUST_PROXY',
    'DEMO_PASSWORD',
  ]) {
    delete env[key];
  }
  return { ...env, ...extra };
}

interface Running {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  exited: Promise<Exit>;
}

const started: ChildProcess[] = [];

/**
 * Starts the server with `npm start`, exactly as an operator or a process manager does (building
 * the web app first when it is stale). The child is npm itself, in its own process group so that
 * cleanup can reach everything under it; a SIGTERM sent to npm must reach the server.
 */
async function startServer(dataDir: string): Promise<Running> {
  const port = await freePort();
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: cleanEnv({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: '1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  let stopped: Exit | null = null;
  void exited.then((exit) => {
    stopped = exit;
  });
  const deadline = Date.now() + STARTUP_LIMIT_MS;
  for (;;) {
    if (stopped) throw new Error(`server exited early (${JSON.stringify(stopped)}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not answer:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/api/csrf/`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { child, baseUrl, output: () => output, exited };
}

/** Sends SIGTERM to npm only, as a process manager does, and waits until it exits. */
async function stopServer(server: Running): Promise<Exit> {
  server.child.kill('SIGTERM');
  return server.exited;
}

async function answers(baseUrl: string): Promise<boolean> {
  try {
    await fetch(`${baseUrl}/api/csrf/`);
    return true;
  } catch {
    return false;
  }
}

describe('the server process', () => {
  let dataDir: string;
  let server: Running | undefined;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-server-'));
  });

  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  afterEach(() => {
    for (const child of started.splice(0)) {
      try {
        // The whole group: a server orphaned by a lost signal must not outlive the test.
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });

  it(
    'starts on a fresh SQLite file, serves the demo admin over HTTP, survives a restart and stops cleanly on SIGTERM',
    async () => {
      server = await startServer(dataDir);
      expect(server.output()).toContain('admin@demo.edu');
      expect(server.output()).toContain('Demo data created');
      // This installation's own demo password, printed once and kept owner-only in the data folder.
      const printed = /admin@demo\.edu\s+password: (\S+)/.exec(server.output())?.[1] ?? '';
      const passwordFile = path.join(dataDir, 'demo-password.txt');
      expect(fs.readFileSync(passwordFile, 'utf8').trim()).toBe(printed);
      expect(fs.statSync(passwordFile).mode & 0o777).toBe(0o600);
      expect(printed.length).toBeGreaterThanOrEqual(16);

      const browser = new TestAgent(server.baseUrl);
      expect((await browser.get('/api/user/')).status).toBe(401);
      // The password earlier versions published opens nothing.
      const published = await new TestAgent(server.baseUrl).post('/api/login/', {
        email: 'admin@demo.edu',
        password: 'wellness-demo',
      });
      expect(published.status).toBe(401);
      const login = await browser.post('/api/login/', {
        email: 'admin@demo.edu',
        password: printed,
      });
      expect(login).toMatchObject({ status: 200, body: { success: true } });
      const user = await browser.get('/api/user/');
      expect(user.status).toBe(200);
      expect(user.body).toMatchObject({
        is_authenticated: true,
        is_institution_admin: true,
        email: 'admin@demo.edu',
      });

      const secretFile = path.join(dataDir, 'secret.key');
      expect(fs.statSync(secretFile).mode & 0o777).toBe(0o600);
      const secret = fs.readFileSync(secretFile, 'utf8').trim();
      expect(secret.length).toBeGreaterThanOrEqual(32);
      expect(fs.existsSync(path.join(dataDir, 'wellness.sqlite'))).toBe(true);

      const firstExit = await stopServer(server);
      expect(firstExit).toEqual({ code: 0, signal: null });
      expect(server.output()).toContain('SIGTERM received, closing');
      expect(await answers(server.baseUrl)).toBe(false);
      expect(server.output()).not.toContain(secret);

      // Same data folder, new process: the session, the CSRF token and the demo data carry over.
      server = await startServer(dataDir);
      expect(server.output()).not.toContain('Demo data created');
      expect(server.output()).not.toContain(printed);
      expect(server.output()).toContain(passwordFile);
      expect(fs.readFileSync(secretFile, 'utf8').trim()).toBe(secret);
      browser.baseUrl = server.baseUrl;
      const again = await browser.get('/api/user/');
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ is_institution_admin: true, email: 'admin@demo.edu' });
      const institutions = await browser.get('/api/institutions/');
      expect(institutions.body).toEqual([{ id: expect.any(Number), institution_name: 'Demo University' }]);

      const logout = await browser.post('/api/logout/');
      expect(logout.status).toBe(200);
      expect((await browser.get('/api/user/')).status).toBe(401);

      const secondExit = await stopServer(server);
      expect(secondExit).toEqual({ code: 0, signal: null });
      expect(server.output()).toContain('SIGTERM received, closing');
      expect(await answers(server.baseUrl)).toBe(false);
      expect(server.output()).not.toContain(secret);
    },
    PROCESS_TEST_TIMEOUT,
  );
});

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the command line (this run's build of it, as `npm run manage` runs dist/server/cli.js);
 * a new account's password goes in ADMIN_PASSWORD, never among the arguments.
 */
function manage(dataDir: string, args: string[], password?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...cliEntry(), ...args], {
      cwd: ROOT,
      env: cleanEnv({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        ...(password === undefined ? {} : { ADMIN_PASSWORD: password }),
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A data folder whose database is already migrated, so commands run side by side never race to create it. */
async function migratedDataDir(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-cli-'));
  const db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'wellness.sqlite') });
  await migrateToLatest(db);
  await db.close();
  return dataDir;
}

async function countRows(dataDir: string, table: 'users' | 'institutions'): Promise<number> {
  const db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'wellness.sqlite') });
  try {
    const row = await db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  } finally {
    await db.close();
  }
}

describe('npm run manage', () => {
  const dataDirs: string[] = [];

  afterAll(() => {
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'creates an institution, an institution admin and a superuser who can then log in or are refused',
    async () => {
      const dataDir = await migratedDataDir();
      dataDirs.push(dataDir);
      const institution = await manage(dataDir, [
        'create-institution',
        '--name',
        'East Institute',
        '--domains',
        'east.edu, @Mail.East.edu',
      ]);
      expect(institution.stderr).not.toContain('Error');
      expect(institution).toMatchObject({ code: 0 });
      expect(institution.stdout).toContain('Created institution "East Institute"');
      expect(institution.stdout).toContain('east.edu, mail.east.edu');

      const admin = await manage(
        dataDir,
        [
          'create-admin',
          '--institution',
          'east institute',
          '--email',
          'Dean@East.edu',
          '--name',
          'Dana Dean',
        ],
        'a-sturdy-admin-passphrase',
      );
      expect(admin).toMatchObject({ code: 0 });
      expect(admin.stdout).toContain('Created institution admin dean@east.edu');

      const superuser = await manage(
        dataDir,
        ['create-superuser', '--email', 'ops@vendor.example', '--name', 'Ops'],
        'a-sturdy-ops-passphrase',
      );
      expect(superuser).toMatchObject({ code: 0 });
      expect(superuser.stdout).toContain('Created superuser ops@vendor.example');

      // The accounts work in the app, on the same database file.
      const db: Db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'wellness.sqlite') });
      const app = await buildTestApp(db, { dataDir });
      try {
        const agent = new TestAgent(app);
        await agent.login('dean@east.edu', 'a-sturdy-admin-passphrase');
        expect((await agent.get('/api/user/')).body).toMatchObject({
          is_institution_admin: true,
          institution_name: 'East Institute',
        });
        const refused = await new TestAgent(app).post('/api/login/', {
          email: 'ops@vendor.example',
          password: 'a-sturdy-ops-passphrase',
        });
        // A superuser's right password is answered as a wrong one: superusers work from the command line.
        expect(refused).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
        const template = await db.kysely
          .selectFrom('active_templates')
          .select('template_id')
          .executeTakeFirst();
        expect(template).toBeDefined();
      } finally {
        await app.close();
        await db.close();
      }
    },
    PROCESS_TEST_TIMEOUT,
  );

  it(
    'explains bad arguments and exits with status 2, changing nothing',
    async () => {
      const dataDir = await migratedDataDir();
      dataDirs.push(dataDir);
      const cases: Array<[string[], string, string?]> = [
        [['frobnicate'], 'Error: Unknown command "frobnicate"'],
        [['create-admin', '--email', 'a@west.edu'], 'Error: Missing --name, --institution'],
        [
          ['create-institution', '--nmae', 'West College', '--domains', 'west.edu'],
          "Unknown option '--nmae'",
        ],
        [
          ['create-superuser', '--email', 'not-an-email', '--name', 'Ops'],
          'Error: "not-an-email" is not a valid email address',
          'a-sturdy-ops-passphrase',
        ],
        [
          ['create-admin', '--institution', 'Nowhere', '--email', 'a@west.edu', '--name', 'A'],
          'Error: Password must be at least 8 characters',
          'short',
        ],
        [
          [
            'create-superuser',
            '--email',
            'ops@west.edu',
            '--name',
            'Ops',
            '--password',
            'a-sturdy-passphrase',
          ],
          'Error: --password is not accepted',
        ],
      ];
      const results = await Promise.all(cases.map(([args, , password]) => manage(dataDir, args, password)));
      results.forEach((result, index) => {
        const [args, message] = cases[index] as [string[], string, string?];
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr, args.join(' ')).toContain(message);
        expect(result.stderr, args.join(' ')).toContain('Usage: npm run manage -- <command> [options]');
      });

      expect(await countRows(dataDir, 'users')).toBe(0);
      expect(await countRows(dataDir, 'institutions')).toBe(0);
    },
    PROCESS_TEST_TIMEOUT,
  );
});
