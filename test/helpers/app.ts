import crypto from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { generate } from 'otplib';
import { roleName } from '../../src/common/roles';
import { type AppOptions, buildApp } from '../../src/server/app';
import { type Config, DEFAULT_LIMITS, loadConfig } from '../../src/server/config';
import type { Db } from '../../src/server/db';
import type { Database } from '../../src/server/db/types';
import { needsSecondFactor } from '../../src/server/lib/guards';
import { createSession, SESSION_COOKIE } from '../../src/server/lib/sessions';
import { createTestDatabase, type DatabaseImage, type TestDatabase, type TestDialect } from './databases';

export const TEST_SECRET = 'test-secret-that-is-long-enough-for-signing-0123456789';

export interface TestContext {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** PostgreSQL only: another connection pool on the same database, as a second instance would have. */
  openAnother?: () => Db;
  close(): Promise<void>;
  /** Closes the app and keeps its database, as it stands, as an image (see TestDatabase). */
  keepAsImage?: () => Promise<DatabaseImage>;
}

type ConfigOverrides = Partial<Omit<Config, 'limits' | 'web' | 'mail'>> & {
  limits?: Partial<Config['limits']>;
  mail?: Partial<Config['mail']>;
  web?: Partial<Config['web']>;
};

/** The test configuration: production defaults, quiet logs, no demo data, and the test's overrides. */
export function testConfig(overrides: ConfigOverrides = {}): Config {
  const base = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: '0' });
  return {
    ...base,
    ...overrides,
    limits: { ...DEFAULT_LIMITS, ...overrides.limits },
    web: { ...base.web, ...overrides.web },
    mail: { ...base.mail, ...overrides.mail },
  };
}

export type TestAppOptions = Pick<AppOptions, 'mail' | 'jobs' | 'onRoute' | 'logStream'>;

/**
 * The real app on a database the test prepared (a file, an outage, a migration state), with the
 * test configuration. Not yet ready: a test may add routes before its first request.
 */
export function buildTestApp(
  db: Db,
  overrides: ConfigOverrides = {},
  options: TestAppOptions = {},
): Promise<FastifyInstance> {
  // Tests deliver mail when they ask for it (a background worker would race their assertions).
  const mail = { worker: false, ...options.mail };
  // Likewise jobs: a test runs the due ones with app.jobs.runDue, at the time it chooses.
  const jobs = { poll: false, ...options.jobs };
  return buildApp({
    db,
    config: testConfig(overrides),
    secret: TEST_SECRET,
    webRoot: '/nonexistent-web-root',
    mail,
    jobs,
    // Tests move time with fake timers; the database's clock would not follow them.
    leaseClock: 'machine',
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
}

/** The real app on a fresh database, configured as in production except for what a test overrides. */
export async function createTestApp(
  dialect: TestDialect,
  overrides: ConfigOverrides = {},
  options: TestAppOptions = {},
): Promise<TestContext> {
  return createTestAppOn(await createTestDatabase(dialect), overrides, options);
}

/** The real app, configured as `createTestApp` does, on a database the caller made. */
export async function createTestAppOn(
  database: TestDatabase,
  overrides: ConfigOverrides = {},
  options: TestAppOptions = {},
): Promise<TestContext> {
  const { db, drop, openAnother, keepAsImage } = database;
  const app = await buildTestApp(db, overrides, options);
  await app.ready();
  return {
    app,
    db,
    config: app.config,
    ...(openAnother ? { openAnother } : {}),
    async close() {
      await app.close();
      await drop();
    },
    ...(keepAsImage
      ? {
          async keepAsImage() {
            await app.close();
            return keepAsImage();
          },
        }
      : {}),
  };
}

export interface AgentCookie {
  name: string;
  value: string;
  httpOnly?: boolean;
  sameSite?: string;
  secure?: boolean;
  maxAge?: number;
}

export interface AgentResponse<T = unknown> {
  status: number;
  /** Parsed when the response is JSON, the text otherwise. */
  body: T;
  /** The body as sent. */
  text: string;
  headers: Record<string, string | string[] | number | undefined>;
  cookies: AgentCookie[];
}

export type AgentRequest = InjectOptions & { url: string; csrf?: boolean };

interface RawResponse {
  status: number;
  headers: AgentResponse['headers'];
  cookies: AgentCookie[];
  text: string;
}

/** One Set-Cookie line as inject() reports it: name, value and the attributes tests check. */
function parseSetCookie(line: string): AgentCookie {
  const [pair = '', ...attributes] = line.split(';');
  const cookie: AgentCookie = {
    name: pair.slice(0, pair.indexOf('=')).trim(),
    value: decodeURIComponent(pair.slice(pair.indexOf('=') + 1).trim()),
  };
  for (const attribute of attributes) {
    const [key = '', raw = ''] = attribute.trim().split('=');
    const name = key.toLowerCase();
    if (name === 'httponly') cookie.httpOnly = true;
    else if (name === 'secure') cookie.secure = true;
    else if (name === 'samesite') cookie.sameSite = raw;
    else if (name === 'max-age') cookie.maxAge = Number(raw);
    // A cookie that expired already is one the browser drops.
    else if (name === 'expires' && new Date(raw).getTime() <= Date.now()) cookie.maxAge ??= 0;
  }
  return cookie;
}

/**
 * A browser-like client: keeps cookies, fetches a CSRF token when it has none and sends it in
 * X-CSRFToken on unsafe requests, as the web app does. Talks to an app through app.inject(), or
 * to a running server over real HTTP when given its base URL.
 */
export class TestAgent {
  readonly jar = new Map<string, string>();
  /**
   * The secrets of the unproven survey answers this client sent, as the web app keeps them in its
   * tab: proveAddress sends them with the code. Cookies can be planted; these cannot.
   */
  readonly proofTokens: string[] = [];

  constructor(private target: FastifyInstance | string) {}

  /** The server's address, for a client over real HTTP. */
  get baseUrl(): string {
    if (typeof this.target !== 'string') throw new Error('This client talks to the app in-process');
    return this.target;
  }

  /** Points the client, cookies and all, at another server: the same browser after a restart. */
  set baseUrl(url: string) {
    if (typeof this.target !== 'string') throw new Error('This client talks to the app in-process');
    this.target = url;
  }

  private remember(cookies: AgentCookie[]) {
    for (const cookie of cookies) {
      if (cookie.value === '' || cookie.maxAge === 0 || (cookie.maxAge ?? 1) < 0)
        this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
    }
  }

  /** The Cookie header this client would send. */
  cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('; ');
  }

  private async send(
    options: AgentRequest,
    method: string,
    headers: Record<string, string>,
  ): Promise<RawResponse> {
    if (typeof this.target !== 'string') {
      const response = await this.target.inject({
        ...options,
        method: method as InjectOptions['method'],
        headers,
        cookies: Object.fromEntries(this.jar),
      });
      return {
        status: response.statusCode,
        headers: response.headers,
        cookies: response.cookies as AgentCookie[],
        text: response.body,
      };
    }
    if (this.jar.size) headers.cookie = this.cookieHeader();
    let body: string | undefined;
    if (options.payload !== undefined) {
      body = typeof options.payload === 'string' ? options.payload : JSON.stringify(options.payload);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.target}${options.url}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      cookies: response.headers.getSetCookie().map(parseSetCookie),
      text: await response.text(),
    };
  }

  async request<T = Record<string, unknown>>(options: AgentRequest): Promise<AgentResponse<T>> {
    const method = (options.method ?? 'GET').toUpperCase();
    const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(method);
    if (unsafe && options.csrf !== false && !this.jar.has('csrftoken'))
      await this.request({ url: '/api/csrf/' });
    const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
    if (unsafe && options.csrf !== false && this.jar.has('csrftoken'))
      headers['x-csrftoken'] ??= this.jar.get('csrftoken') as string;
    const response = await this.send(options, method, headers);
    this.remember(response.cookies);
    let body: unknown = response.text;
    if (String(response.headers['content-type'] ?? '').includes('application/json')) {
      try {
        body = JSON.parse(response.text);
        const proofToken = (body as { proof_token?: unknown } | null)?.proof_token;
        if (typeof proofToken === 'string') this.proofTokens.push(proofToken);
      } catch {
        // Left as text: a body that claims to be JSON and is not fails the test's own checks.
      }
    }
    return {
      status: response.status,
      body: body as T,
      text: response.text,
      headers: response.headers,
      cookies: response.cookies,
    };
  }

  get<T = Record<string, unknown>>(url: string) {
    return this.request<T>({ method: 'GET', url });
  }

  post<T = Record<string, unknown>>(url: string, payload?: unknown) {
    return this.request<T>({
      method: 'POST',
      url,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
  }

  delete<T = Record<string, unknown>>(url: string, payload?: unknown) {
    return this.request<T>({
      method: 'DELETE',
      url,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
  }

  /**
   * Signs in as the web app does. A staff account is then asked for a second factor: the first
   * time this process signs it in, an authenticator app is set up for it; later, one of its
   * recovery codes is spent (an app code works once per 30 seconds, and tests sign in more often).
   */
  async login(email: string, password: string) {
    const response = await this.post<{ user?: { second_factor?: string } }>('/api/login/', {
      email,
      password,
    });
    if (response.status !== 200)
      throw new Error(`login as ${email} failed: ${response.status} ${JSON.stringify(response.body)}`);
    const step = response.body.user?.second_factor;
    if (step === 'enrol') await enrolAuthenticatorApp(this, email);
    else if (step === 'verify') await proveSecondFactor(this, email);
    return response;
  }

  /**
   * Signs the account in without the sign-in itself: a session made by the production session
   * functions, complete as after the account's whole sign-in (a staff member's second factor
   * proven), with the cookies a sign-in sets (session, display, and a CSRF token bound to the
   * session). For tests whose subject is not sign-in: argon2 and an authenticator set-up per
   * staff sign-in are most of the time such tests take. The account gets no authenticator app,
   * so a test that needs one, or that checks sign-in's own traces, signs in with login().
   */
  async signInDirectly(db: Db | Kysely<Database>, email: string) {
    const kysely = 'kysely' in db ? db.kysely : db;
    const user = await kysely
      .selectFrom('users')
      .select(['id', 'email', 'role'])
      .where('email', '=', email.toLowerCase())
      .executeTakeFirstOrThrow(() => new Error(`no account ${email} to sign in`));
    const method = needsSecondFactor(user.role) ? 'password_and_second_factor' : 'password';
    const { sessionId } = await createSession(kysely, user.id, method);
    // As setSessionCookie and setDisplayCookies in features/auth/cookies.ts do at a sign-in.
    this.jar.set(SESSION_COOKIE, sessionId);
    this.jar.set('auth_token', crypto.randomBytes(16).toString('hex'));
    this.jar.set('user_email', user.email);
    this.jar.set('is_superuser', String(user.role === 'superuser'));
    this.jar.set('is_institution_admin', String(user.role === 'institution_admin'));
    this.jar.set('user_role', roleName(user.role));
    // The token of the anonymous visitor no longer passes: one bound to the new session does.
    this.jar.delete('csrftoken');
    const csrf = await this.get('/api/csrf/');
    expectOk(csrf, `a CSRF token for ${email}`);
    return { id: user.id, sessionId };
  }
}

/** Recovery codes of the staff accounts this process set up, by address (the newest set up). */
const recoveryCodesOf = new Map<string, string[]>();

function expectOk(response: AgentResponse, what: string) {
  if (response.status !== 200) throw new Error(`${what} failed: ${response.status} ${response.text}`);
}

/** Sets up an authenticator app for the signed-in staff member, as a person would: scan, type a code. */
export async function enrolAuthenticatorApp(
  agent: TestAgent,
  email: string,
  { remoteAddress }: { remoteAddress?: string } = {},
): Promise<{ secret: string }> {
  const from = remoteAddress ? { remoteAddress } : {};
  const setup = await agent.request<{ secret: string }>({
    method: 'POST',
    url: '/api/second-factor/totp/setup/',
    ...from,
  });
  expectOk(setup, `second-factor set-up for ${email}`);
  const code = await generate({ secret: setup.body.secret });
  const confirm = await agent.request<{ recovery_codes: string[] }>({
    method: 'POST',
    url: '/api/second-factor/totp/confirm/',
    payload: { code },
    ...from,
  });
  expectOk(confirm, `second-factor confirmation for ${email}`);
  recoveryCodesOf.set(email.toLowerCase(), confirm.body.recovery_codes);
  return { secret: setup.body.secret };
}

async function proveSecondFactor(agent: TestAgent, email: string) {
  const codes = recoveryCodesOf.get(email.toLowerCase());
  const code = codes?.shift();
  if (!codes || !code)
    throw new Error(`${email} has a second factor this test process did not set up: sign it in another way`);
  expectOk(await agent.post('/api/second-factor/verify/', { code }), `second factor of ${email}`);
  if (codes.length < 2) {
    const fresh = await agent.post<{ recovery_codes: string[] }>('/api/second-factor/recovery-codes/');
    expectOk(fresh, `new recovery codes for ${email}`);
    recoveryCodesOf.set(email.toLowerCase(), fresh.body.recovery_codes);
  }
}
