/**
 * The real server as a separate process, and a browser-like HTTP client for it: what the
 * durability test kills and restarts, and what the load benchmark measures.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';

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

/**
 * Starts src/server/main.ts as `node --import tsx`, so the spawned pid is the server itself: a
 * SIGKILL reaches it (npx or the tsx launcher would die alone and leave it running), and
 * /proc/<pid> describes its memory.
 */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: serverEnv({
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      WEB_ROOT: path.join(ROOT, 'test-results', 'no-web-build'),
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
    if (stopped) throw new Error(`server exited early (${JSON.stringify(stopped)}):\n${output}`);
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

export interface HttpResponse {
  status: number;
  body: Record<string, unknown> | null;
}

/** A browser-like client over real HTTP: a cookie jar, and the CSRF token on unsafe requests. */
export class HttpClient {
  readonly jar = new Map<string, string>();

  constructor(public baseUrl: string) {}

  private remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = decodeURIComponent(pair.slice(pair.indexOf('=') + 1).trim());
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired || value === '') this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  /** The Cookie header this client would send. */
  cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('; ');
  }

  /** The raw response, for its headers; cookies are remembered, the body is left unread. */
  async fetch(method: string, url: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = {};
    if (method !== 'GET') {
      if (!this.jar.has('csrftoken')) await this.request('GET', '/api/csrf/');
      headers['x-csrftoken'] = this.jar.get('csrftoken') as string;
    }
    if (this.jar.size) headers.cookie = this.cookieHeader();
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    this.remember(response);
    return response;
  }

  async request(method: string, url: string, body?: unknown): Promise<HttpResponse> {
    const response = await this.fetch(method, url, body);
    const text = await response.text();
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = null;
    }
    return { status: response.status, body: parsed };
  }

  async login(email: string, password: string) {
    const response = await this.request('POST', '/api/login/', { email, password });
    if (response.status !== 200)
      throw new Error(`login as ${email}: ${response.status} ${JSON.stringify(response.body)}`);
  }
}

/**
 * A fresh schema of the test database, handed to a server the way an operator would: in
 * DATABASE_URL, as the connection's search_path, with the migrations' own tables inside it.
 */
export async function privatePostgresSchema(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL as string;
  const schema = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await run(`CREATE SCHEMA ${schema}`);
  const url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return { url, drop: () => run(`DROP SCHEMA IF EXISTS ${schema} CASCADE`) };
}
