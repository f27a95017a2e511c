import type { FastifyInstance, InjectOptions } from 'fastify';
import { type AppOptions, buildApp } from '../../src/server/app';
import { type Config, DEFAULT_LIMITS, loadConfig } from '../../src/server/config';
import type { Db } from '../../src/server/db';
import { createTestDatabase, type TestDialect } from './databases';

export const TEST_SECRET = 'test-secret-that-is-long-enough-for-signing-0123456789';

export interface TestContext {
  app: FastifyInstance;
  db: Db;
  config: Config;
  close(): Promise<void>;
}

type ConfigOverrides = Partial<Omit<Config, 'limits' | 'web' | 'mail'>> & {
  limits?: Partial<Config['limits']>;
  mail?: Partial<Config['mail']>;
  web?: Partial<Config['web']>;
};

/** The real app on a fresh database, configured as in production except for what a test overrides. */
export async function createTestApp(
  dialect: TestDialect,
  overrides: ConfigOverrides = {},
  options: Pick<AppOptions, 'mail'> = {},
): Promise<TestContext> {
  const { db, drop } = await createTestDatabase(dialect);
  const base = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: '0' });
  const config: Config = {
    ...base,
    ...overrides,
    limits: { ...DEFAULT_LIMITS, ...overrides.limits },
    web: { ...base.web, ...overrides.web },
    mail: { ...base.mail, ...overrides.mail },
  };
  // Tests deliver mail when they ask for it (a background worker would race their assertions).
  const mail = { worker: false, ...options.mail };
  const app = await buildApp({ db, config, secret: TEST_SECRET, webRoot: '/nonexistent-web-root', mail });
  await app.ready();
  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      await drop();
    },
  };
}

export interface AgentResponse<T = unknown> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
  cookies: Array<{
    name: string;
    value: string;
    httpOnly?: boolean;
    sameSite?: string;
    secure?: boolean;
    maxAge?: number;
  }>;
}

/**
 * A browser-like client for app.inject(): keeps cookies, fetches a CSRF token when it has none and
 * sends it in X-CSRFToken on unsafe requests, as the web app does.
 */
export class TestAgent {
  readonly jar = new Map<string, string>();

  constructor(private readonly app: FastifyInstance) {}

  private remember(cookies: AgentResponse['cookies']) {
    for (const cookie of cookies) {
      if (cookie.value === '' || cookie.maxAge === 0) this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
    }
  }

  async request<T = Record<string, unknown>>(
    options: InjectOptions & { csrf?: boolean },
  ): Promise<AgentResponse<T>> {
    const method = (options.method ?? 'GET').toUpperCase();
    const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(method);
    if (unsafe && options.csrf !== false && !this.jar.has('csrftoken'))
      await this.request({ url: '/api/csrf/' });
    const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
    if (unsafe && options.csrf !== false && this.jar.has('csrftoken'))
      headers['x-csrftoken'] ??= this.jar.get('csrftoken') as string;
    const response = await this.app.inject({
      ...options,
      method: method as InjectOptions['method'],
      headers,
      cookies: Object.fromEntries(this.jar),
    });
    this.remember(response.cookies as AgentResponse['cookies']);
    let body: unknown = response.body;
    if (String(response.headers['content-type'] ?? '').includes('application/json')) body = response.json();
    return {
      status: response.statusCode,
      body: body as T,
      headers: response.headers,
      cookies: response.cookies as AgentResponse['cookies'],
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

  async login(email: string, password: string) {
    const response = await this.post('/api/login/', { email, password });
    if (response.status !== 200)
      throw new Error(`login as ${email} failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response;
  }
}
