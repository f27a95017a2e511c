/**
 * A production installation: the build (`npm run build`'s output) beside package.json and the
 * lock file in a fresh folder, `npm ci --omit=dev` there, then `npm start`. No sources, no build
 * tools, no TypeScript loader, no browser library: the compiled server runs with plain `node`, and
 * its renderer (React bundled in) still draws the public pages' first paint.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Exit, freePort, ROOT } from '../helpers/server-process';

const run = promisify(execFile);
// Installing and building take minutes on a busy machine; this only stops a hung test.
const TIMEOUT_MS = 600_000;
const STARTUP_LIMIT_MS = 180_000;

/** The packages production must not need: build tools, the TypeScript loader, browser libraries. */
const DEVELOPMENT_ONLY = [
  'vite',
  'tsx',
  'esbuild',
  'react',
  'react-dom',
  'react-router',
  '@tanstack/react-query',
];

describe('a production installation', () => {
  let folder: string;
  let server: ChildProcess | undefined;
  let exited: Promise<Exit> | undefined;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'wellspring-production-'));
    fs.mkdirSync(path.join(folder, 'scripts'));
    for (const file of ['package.json', 'package-lock.json', 'scripts/start.mjs']) {
      fs.copyFileSync(path.join(ROOT, file), path.join(folder, file));
    }
    const build = path.join(ROOT, 'scripts', 'build.mjs');
    await run(process.execPath, [build, 'web', path.join(folder, 'dist', 'web')], { cwd: ROOT });
    await run(process.execPath, [build, 'server', path.join(folder, 'dist', 'server')], { cwd: ROOT });
    // From npm's cache, without install scripts: compiling the SQLite addon from source takes
    // minutes and proves nothing of ours, so the one this checkout built for this machine is used.
    await run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], {
      cwd: folder,
    });
    fs.cpSync(
      path.join(ROOT, 'node_modules', 'better-sqlite3', 'build'),
      path.join(folder, 'node_modules', 'better-sqlite3', 'build'),
      { recursive: true },
    );
  }, TIMEOUT_MS);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(folder, { recursive: true, force: true });
  }, STARTUP_LIMIT_MS);

  it('installs without the development packages', () => {
    for (const name of DEVELOPMENT_ONLY) {
      expect(fs.existsSync(path.join(folder, 'node_modules', name)), name).toBe(false);
    }
  });

  it(
    'starts with npm start and serves the API and the rendered public pages',
    async () => {
      const port = await freePort();
      const env: NodeJS.ProcessEnv = { ...process.env };
      for (const key of ['DATABASE_URL', 'SESSION_SECRET', 'WEB_ROOT', 'PUBLIC_URL', 'TRUST_PROXY'])
        delete env[key];
      const child = spawn('npm', ['start'], {
        cwd: folder,
        env: {
          ...env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: path.join(folder, 'data'),
          SEED_DEMO: '1',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      server = child;
      let output = '';
      child.stdout?.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr?.on('data', (chunk) => {
        output += chunk;
      });
      exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
      const baseUrl = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + STARTUP_LIMIT_MS;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
        if (Date.now() > deadline) throw new Error(`the server did not answer:\n${output}`);
        const ready = await fetch(`${baseUrl}/api/health/ready`).catch(() => null);
        if (ready?.ok) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }

      // Nothing was built: the build was there, and the sources are not.
      expect(output).not.toContain('Building');
      const landing = await (await fetch(`${baseUrl}/`)).text();
      expect(landing).toContain(
        '<h1 id="hero-heading">Proactive Mental Health Support for Universities</h1>',
      );
      const login = await (await fetch(`${baseUrl}/login/`)).text();
      expect(login).toMatch(/<button[^>]*>Sign In<\/button>/);
      const institutions = await fetch(`${baseUrl}/api/institutions/`);
      expect(institutions.status).toBe(200);
    },
    TIMEOUT_MS,
  );
});
