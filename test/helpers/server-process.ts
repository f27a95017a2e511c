/**
 * The real server as a separate process: what the durability test kills and restarts, and what
 * the load benchmark measures. TestAgent (app.ts) given its base URL talks to it over HTTP.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { currentServerBuild } from './server-build';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** Only stops a hung start; a busy machine may need most of it. */
const STARTUP_LIMIT_MS = 180_000;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  output(): string;
  exited: Promise<Exit>;
}

/** The inherited environment without anything that would point the server elsewhere. */
function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    if (
      /^(DATABASE_URL|SESSION_SECRET|PORT|HOST|DATA_DIR|SEED_DEMO|WEB_ROOT|PUBLIC_URL|TRUST_PROXY|LOG_LEVEL|DEMO_PASSWORD)$/.test(
        key,
      )
    ) {
      delete env[key];
    }
  }
  return { ...env, ...extra };
}

/** How a spawn runs the server: the build asked for, this run's current build, or the sources. */
function serverEntry(compiled: boolean | undefined): string[] {
  if (compiled) return ['dist/server/main.js'];
  const built = currentServerBuild();
  return built ? ['--enable-source-maps', built] : ['--import', 'tsx', 'src/server/main.ts'];
}

/**
 * Starts the server with plain `node`: the process suites' build of it when it is current (see
 * server-build.ts), else src/server/main.ts through `--import tsx`. Either way the spawned pid is
 * the server itself: a SIGKILL reaches it (npx or the tsx launcher would die alone and leave it
 * running), and /proc/<pid> describes its memory.
 */
export async function startServer(
  env: Record<string, string>,
  options: {
    onSpawn?: (child: ChildProcess) => void;
    /** Milliseconds the process's clock runs ahead of this machine's (behind when negative). */
    clockOffsetMs?: number;
    /** The build `npm start` runs (dist/server, made by `npm run build`) instead of the sources. */
    compiled?: boolean;
  } = {},
): Promise<ServerProcess> {
  // A free port can be taken by another test file between freePort() closing it and the server
  // binding it: the server then exits with EADDRINUSE before it did anything, so a fresh port is tried.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startServerOnPort(await freePort(), env, options);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof PortTakenError)) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startServerOnPort(
  port: number,
  env: Record<string, string>,
  options: Parameters<typeof startServer>[1] = {},
): Promise<ServerProcess> {
  const clock = options.clockOffsetMs ? ['--import', path.join(ROOT, 'test/helpers/clock-offset.mjs')] : [];
  const entry = serverEntry(options.compiled);
  const child = spawn(process.execPath, [...clock, ...entry], {
    cwd: ROOT,
    env: serverEnv({
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      WEB_ROOT: path.join(ROOT, 'test-results', 'no-web-build'),
      ...(options.clockOffsetMs ? { TEST_CLOCK_OFFSET_MS: String(options.clockOffsetMs) } : {}),
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A test that must act while the server starts (its jobs run before it listens) gets the child now.
  options.onSpawn?.(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  let stopped: Exit | null = null;
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      stopped = { code, signal };
      resolve(stopped);
    }),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + STARTUP_LIMIT_MS;
  for (;;) {
    if (stopped) {
      const message = `server exited early (${JSON.stringify(stopped)}):\n${output}`;
      throw output.includes('EADDRINUSE') ? new PortTakenError(message) : new Error(message);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer:\n${output}`);
    }
    try {
      if ((await fetch(`${baseUrl}/api/csrf/`)).ok) break;
    } catch {
      // Not listening yet.
    }
    await delay(200);
  }
  return { child, pid: child.pid as number, baseUrl, output: () => output, exited };
}

/** Stops the server if it still runs; SIGTERM first, as an operator would. */
export async function stopServer(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<Exit> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  return server.exited;
}

/** Resident memory of a process in bytes, from /proc (Linux). */
export function residentBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error(`No VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}
