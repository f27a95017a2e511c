import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { FullConfig } from '@playwright/test';
import { buildServerForTests } from '../helpers/server-build';
import { startSmtpListener } from '../helpers/smtp';
import { E2E_DEMO_PASSWORD } from './demo-password';

/**
 * Builds the web app and the server and starts the compiled server (as `npm start` runs it) on a
 * free port against a brand-new SQLite database (seeded with the demo institution), once per run.
 * Specs find it through E2E_BASE_URL, and its database, where they add staff fixtures through the
 * server's own service functions (run-database.ts), through E2E_DATA_DIR.
 *
 * E2E_WEB_ROOT=<folder with a build> skips the build, for quick local iterations.
 */

const STARTUP_TIMEOUT_MS = 60_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('No port')),
      );
    });
  });
}

async function waitUntilServing(url: string, server: ChildProcess, logFile: string) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) break;
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await delay(200);
  }
  const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-4000) : '(no log)';
  throw new Error(`The server did not start (exit code ${server.exitCode}). Its log (${logFile}):\n${log}`);
}

/** The web app and the server's renderer of its first paint, as `npm run build` makes them. */
function buildWebApp(repoRoot: string, outDir: string) {
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build.mjs'), 'web', outDir], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
}

function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const forceKill = setTimeout(() => server.kill('SIGKILL'), 5_000);
    server.once('exit', () => {
      clearTimeout(forceKill);
      resolve();
    });
    server.kill('SIGTERM');
  });
}

export default async function globalSetup(config: FullConfig) {
  const repoRoot = config.configFile ? path.dirname(config.configFile) : process.cwd();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellspring-e2e-'));
  const dataDir = path.join(workDir, 'data');
  fs.mkdirSync(dataDir);

  const webRoot = process.env.E2E_WEB_ROOT
    ? path.resolve(process.env.E2E_WEB_ROOT)
    : path.join(workDir, 'web');
  if (!process.env.E2E_WEB_ROOT) buildWebApp(repoRoot, webRoot);

  // Real mail: the server sends over SMTP to this listener, which files each mail for the specs.
  const mailDir = path.join(workDir, 'mail');
  fs.mkdirSync(mailDir);
  let mailCount = 0;
  const smtp = await startSmtpListener({
    onMail: (mail) => {
      mailCount += 1;
      // Written aside and renamed, so a spec never reads a half-written mail.
      const file = path.join(mailDir, `${String(mailCount).padStart(6, '0')}.json`);
      fs.writeFileSync(`${file}.part`, JSON.stringify(mail));
      fs.renameSync(`${file}.part`, file);
    },
  });

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logDir = path.join(repoRoot, 'test-results');
  fs.mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, 'e2e-server.log');
  const log = fs.openSync(logFile, 'w');

  const serverBuild = buildServerForTests().folder;
  const server = spawn(process.execPath, [path.join(serverBuild, 'main.js')], {
    cwd: repoRoot,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // Always the embedded SQLite database of this run, whatever the shell points at.
      DATABASE_URL: '',
      SEED_DEMO: '1',
      DEMO_PASSWORD: E2E_DEMO_PASSWORD,
      WEB_ROOT: webRoot,
      // Each test sends its own X-Forwarded-For (see support.ts), so the per-IP login limit
      // applies per test, as it would per visitor, instead of to the whole suite at once.
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Wellspring Health <no-reply@wellspring.test>',
      // The single sign-on specs' provider listens on this machine over plain http.
      SSO_ALLOW_INSECURE_ISSUER: '1',
    },
  });
  fs.closeSync(log);

  try {
    await waitUntilServing(`${baseUrl}/api/csrf/`, server, logFile);
  } catch (error) {
    await stop(server);
    await smtp.close();
    fs.rmSync(serverBuild, { recursive: true, force: true });
    throw error;
  }

  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_MAIL_DIR = mailDir;

  return async () => {
    await stop(server);
    await smtp.close();
    fs.rmSync(workDir, { recursive: true, force: true });
    fs.rmSync(serverBuild, { recursive: true, force: true });
  };
}
