import path from 'node:path';
import { z } from 'zod';
import { BRAND_NAME_MAX_LENGTH, DEFAULT_BRAND_NAME } from '../common/brand';
import { LIMITS } from './limit-table';

const flag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no', ''])
  .transform((value) => ['1', 'true', 'yes'].includes(value));

const optionalUrl = z
  .string()
  .trim()
  .transform((value) => value || null)
  .pipe(z.url().nullable());

const TRUST_PROXY_MESSAGE = 'must be the number of reverse proxies in front of the server (0 to 10)';

/**
 * A whole number setting. Blank (e.g. `PORT=` in a compose file) means "not set", never 0: a
 * blank PORT must not mean a random port.
 */
function wholeNumber(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
}
const blankIsUnset = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** The environment the server understands; every value has a default that needs no set-up. */
const Environment = z.object({
  PORT: z.preprocess(blankIsUnset, wholeNumber(0, 65535).default(8000)),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('data'),
  WEB_ROOT: z.string().min(1).optional(),
  DATABASE_URL: z.string().trim().optional(),
  DATABASE_POOL_SIZE: z.preprocess(blankIsUnset, wholeNumber(1, 1000).default(10)),
  DATABASE_STATEMENT_TIMEOUT_MS: z.preprocess(blankIsUnset, wholeNumber(100, 3_600_000).default(15_000)),
  DATABASE_LOCK_TIMEOUT_MS: z.preprocess(blankIsUnset, wholeNumber(100, 3_600_000).default(3_000)),
  DATABASE_IDLE_TRANSACTION_TIMEOUT_MS: z.preprocess(
    blankIsUnset,
    wholeNumber(100, 3_600_000).default(5_000),
  ),
  DATABASE_QUERY_TIMEOUT_MS: z.preprocess(blankIsUnset, wholeNumber(100, 3_600_000).default(20_000)),
  DATABASE_KEEPALIVE_MS: z.preprocess(blankIsUnset, wholeNumber(1_000, 3_600_000).default(10_000)),
  SQLITE_WAL_LIMIT_MB: z.preprocess(blankIsUnset, wholeNumber(1, 1_000_000).default(64)),
  SEED_DEMO: flag.optional(),
  // For automated set-ups (tests) that must know the demo password in advance.
  DEMO_PASSWORD: z.string().min(1).optional(),
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  // A hop count, never "trust every hop": with `true`, the left-most X-Forwarded-For entry (which
  // any client writes) would be taken as the client address. The old yes/no spellings still
  // work: yes is one proxy, no is none.
  TRUST_PROXY: z.preprocess(
    (value) =>
      typeof value === 'string'
        ? ({ '': '0', false: '0', no: '0', true: '1', yes: '1' }[value.trim().toLowerCase()] ?? value)
        : value,
    z.coerce
      .number({ error: TRUST_PROXY_MESSAGE })
      .int(TRUST_PROXY_MESSAGE)
      .min(0, TRUST_PROXY_MESSAGE)
      .max(10, TRUST_PROXY_MESSAGE)
      .default(0),
  ),
  BRAND_NAME: z.string().trim().min(1).max(BRAND_NAME_MAX_LENGTH).default(DEFAULT_BRAND_NAME),
  DEMO_VIDEO_URL: optionalUrl.default(null),
  CONTACT_FORM_URL: z.string().trim().min(1).default('/api/contact/'),
  ANALYTICS_SCRIPT_URL: optionalUrl.default(null),
  PUBLIC_URL: optionalUrl.default(null),
  // smtp://user:pass@host:587 or smtps://...; unset means mail is written to the server log.
  SMTP_URL: z
    .string()
    .trim()
    .transform((value) => value || null)
    .pipe(z.url({ protocol: /^smtps?$/, error: 'SMTP_URL must start with smtp:// or smtps://' }).nullable())
    .default(null),
  MAIL_FROM: z.string().trim().min(3).max(254).optional(),
  // Connections kept open to the SMTP server. Some relays allow only a few per client.
  SMTP_CONNECTIONS: z.preprocess(blankIsUnset, wholeNumber(1, 100).default(10)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // A campus behind one NAT address may need more; a load test needs many more.
  [LIMITS.loginPerClient.env]: z.preprocess(blankIsUnset, wholeNumber(1, 1_000_000).optional()),
  NODE_ENV: z.string().optional(),
  // Development only: a single sign-on provider on this machine, over plain http.
  SSO_ALLOW_INSECURE_ISSUER: flag.optional(),
  // How long the record of a delivered or abandoned mail (recipient, times, no words) is kept.
  OUTBOX_RETENTION_DAYS: z.preprocess(blankIsUnset, wholeNumber(1, 3650).default(30)),
  // How long one-time codes and address proofs are kept once expired or used.
  EXPIRED_CODE_RETENTION_HOURS: z.preprocess(blankIsUnset, wholeNumber(1, 8760).default(24)),
  // Urgent alerts mailed at once for answers whose sender has not proven the address (Limits).
  [LIMITS.unprovenAlertsPerInstitution.env]: z.preprocess(blankIsUnset, wholeNumber(0, 1_000_000).optional()),
  [LIMITS.unprovenAlertsPerClient.env]: z.preprocess(blankIsUnset, wholeNumber(0, 1_000_000).optional()),
});

export type DatabaseTarget =
  | { kind: 'sqlite'; file: string }
  | {
      kind: 'postgres';
      url: string;
      /** Connections this instance may hold; all instances together must stay below max_connections. */
      poolSize?: number;
      timeouts?: PostgresTimeouts;
    };

/**
 * Bounds on every PostgreSQL session, so that an instance cut off from the database (a network
 * partition) cannot hold locks other instances wait for: the server ends its statements, its
 * lock waits and its abandoned transactions, and the instance itself stops waiting for answers.
 */
export interface PostgresTimeouts {
  statementMs: number;
  lockMs: number;
  /** A transaction whose client has gone quiet is rolled back by the server, its locks released. */
  idleInTransactionMs: number;
  /** How long the instance waits for any answer before it gives the connection up. */
  queryMs: number;
  /** Idle time before TCP keepalive probes start. */
  keepAliveMs: number;
}

export interface LoginLimits {
  /**
   * Failed attempts allowed per account from one client (a browser that signed in to it before,
   * else a client address) inside one window; then that client waits for the window to end.
   * A stranger's failures never lock the owner out of their usual browser.
   */
  failuresPerAccount: number;
  /**
   * Attempts per account from all clients together that have not signed in to it before, inside
   * one window, before each further one waits (see newClientDelay): slows guessing spread over
   * many addresses, without touching the owner's browser and without ever locking anyone out.
   */
  failuresPerAccountFromNewClients: number;
  windowMs: number;
  /**
   * Past that count, how long the account's next attempt from a new browser waits: the first
   * wait, doubling with each further attempt, never longer than the cap.
   */
  newClientDelay: { firstMs: number; capMs: number };
}

/**
 * How long a client may take, so that slow senders (a byte every few seconds) cannot hold
 * connections open: each connection costs a socket and memory, and a few hundred of them would
 * shut everyone else out.
 */
export interface Timeouts {
  /** The whole request, headers and body, must arrive within this. */
  requestMs: number;
  /** The headers must arrive within this. */
  headersMs: number;
  /** A connection with no traffic either way is closed (live dashboards send a heartbeat every 15 s). */
  idleMs: number;
  /** An idle kept-alive connection waits this long for its next request. */
  keepAliveMs: number;
  /** How often the server looks for requests past their time. */
  checkIntervalMs: number;
}

export interface Limits {
  loginPerIpPerMinute: number;
  login: LoginLimits;
  linkSubmissionsPerIpPerMinute: number;
  /** Accounts one client address may register per hour (a class registering together fits). */
  registrationsPerIpPerHour: number;
  /** Code requests and code checks one client address may make per minute, each. */
  verificationsPerIpPerMinute: number;
  /**
   * CSV exports (submissions, cases, audit log) one client address may download per minute, all
   * exports alike: each reads every matching row, plenty for people and a wall for a script.
   */
  csvExportsPerIpPerMinute: number;
  /** Roster imports one institution may run in a window (each reads and writes up to 100,000 rows). */
  rosterImports: { max: number; windowMs: number };
  /** Largest request body accepted, in bytes. */
  bodyBytes: number;
  timeouts: Timeouts;
  unprovenAlerts: UnprovenAlertLimits;
}

/**
 * Urgent answers from senders who have not proven the address they gave may come from anyone
 * holding a shared link, under invented names: their cases alert at once only within these, per
 * rolling hour, and past them through one digest mail (features/cases/unproven.ts). Five an hour
 * is more than a campus's real unproven urgent answers (most students answer signed in or prove
 * their address); two per client address lets two students behind one campus NAT alert at once,
 * while a script from one address alerts twice and then only through the digest.
 */
export interface UnprovenAlertLimits {
  perInstitutionPerHour: number;
  perClientPerHour: number;
}

/** The limits' defaults, from the limit table (limit-table.ts), where each is argued. */
export const DEFAULT_LIMITS: Limits = {
  loginPerIpPerMinute: LIMITS.loginPerClient.max,
  login: {
    failuresPerAccount: LIMITS.loginFailuresPerAccount.max,
    failuresPerAccountFromNewClients: LIMITS.loginAttemptsFromNewClients.max,
    windowMs: LIMITS.loginFailuresPerAccount.windowMs,
    newClientDelay: { firstMs: LIMITS.newClientFirstDelay.max, capMs: LIMITS.newClientDelayCap.max },
  },
  linkSubmissionsPerIpPerMinute: LIMITS.linkSubmissionsPerClient.max,
  registrationsPerIpPerHour: LIMITS.registrationsPerClient.max,
  verificationsPerIpPerMinute: LIMITS.verificationsPerClient.max,
  csvExportsPerIpPerMinute: LIMITS.csvExportsPerClient.max,
  rosterImports: {
    max: LIMITS.rosterImportsPerInstitution.max,
    windowMs: LIMITS.rosterImportsPerInstitution.windowMs,
  },
  bodyBytes: LIMITS.bodyBytes.max,
  unprovenAlerts: {
    perInstitutionPerHour: LIMITS.unprovenAlertsPerInstitution.max,
    perClientPerHour: LIMITS.unprovenAlertsPerClient.max,
  },
  // The largest body arrives well within the whole request's time on a poor mobile connection.
  timeouts: {
    requestMs: LIMITS.requestTime.max,
    headersMs: LIMITS.headersTime.max,
    idleMs: LIMITS.idleConnection.max,
    keepAliveMs: LIMITS.keepAlive.max,
    checkIntervalMs: 2_000,
  },
};

/** A host name for links to this server: a wildcard address is no place to send a browser. */
function linkHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

export interface MailConfig {
  /**
   * Where links in mail point (a case, an invitation, the login page): PUBLIC_URL, else the
   * server's own address, so a mail read in the server log still has a link that opens.
   */
  linkBase: string;
  /** Where mail is sent; null writes every mail to the server log instead (the embedded default). */
  smtpUrl: string | null;
  /**
   * SMTP connections kept open side by side. A connection carries one mail at a time through
   * its round trips, so it sends only a few dozen mails a second; alerts under load need several.
   */
  smtpConnections: number;
  /** The From header of every mail. */
  from: string;
}

/** How long records that only ever served a moment are kept before the retention pass deletes them. */
export interface RetentionConfig {
  /** A delivered or abandoned mail's row (its words are gone at once): recipient and times. */
  outboxMs: number;
  /** One-time codes and address proofs, counted from when they expired or were used. */
  expiredCodesMs: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Folder of the built web app; null means the default dist/web. */
  webRoot: string | null;
  database: DatabaseTarget;
  /**
   * SQLite: past this many bytes of write-ahead log, checkpoints that keep failing (a read-only
   * database file) make the instance not ready.
   */
  sqliteWalLimitBytes: number;
  seedDemo: boolean;
  /** The demo logins' password; null: a random one is generated when the demo is seeded. */
  demoPassword: string | null;
  /** Configured secret, or null when one should be generated and kept beside the database. */
  sessionSecret: string | null;
  /**
   * How many reverse proxies stand in front of the server: the client address is the entry this
   * many hops back in X-Forwarded-For, and X-Forwarded-Proto is believed only from them. 0: none.
   */
  trustProxy: number;
  logLevel: z.infer<typeof Environment>['LOG_LEVEL'];
  limits: Limits;
  mail: MailConfig;
  sso: {
    /**
     * Development only (SSO_ALLOW_INSECURE_ISSUER, never with NODE_ENV=production): a provider on
     * this machine, over plain http. Otherwise the server calls providers over https, at public
     * addresses only.
     */
    allowLoopbackIssuer: boolean;
  };
  retention: RetentionConfig;
  /** Values the web app needs; the server hands them to it inside the page shell. */
  web: {
    brandName: string;
    demoVideoUrl: string | null;
    contactFormUrl: string;
    analyticsScriptUrl: string | null;
    publicUrl: string | null;
  };
}

function databaseTarget(
  url: string | undefined,
  dataDir: string,
  poolSize: number,
  timeouts: PostgresTimeouts,
): DatabaseTarget {
  if (!url) return { kind: 'sqlite', file: path.join(dataDir, 'wellness.sqlite') };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url, poolSize, timeouts };
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    // better-sqlite3 would open an empty path as a temporary database that vanishes on exit.
    if (!file) throw new Error('DATABASE_URL=sqlite: needs a file path, e.g. sqlite:data/wellness.sqlite');
    return { kind: 'sqlite', file };
  }
  throw new Error('DATABASE_URL must start with postgres://, postgresql:// or sqlite:');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Environment.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.SSO_ALLOW_INSECURE_ISSUER && e.NODE_ENV === 'production')
    throw new Error(
      'Invalid configuration:\n  SSO_ALLOW_INSECURE_ISSUER: is for development only, not with NODE_ENV=production',
    );
  const database = databaseTarget(e.DATABASE_URL, e.DATA_DIR, e.DATABASE_POOL_SIZE, {
    statementMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    lockMs: e.DATABASE_LOCK_TIMEOUT_MS,
    idleInTransactionMs: e.DATABASE_IDLE_TRANSACTION_TIMEOUT_MS,
    queryMs: e.DATABASE_QUERY_TIMEOUT_MS,
    keepAliveMs: e.DATABASE_KEEPALIVE_MS,
  });
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    webRoot: e.WEB_ROOT ?? null,
    database,
    sqliteWalLimitBytes: e.SQLITE_WAL_LIMIT_MB * 2 ** 20,
    // The demo seed belongs to the embedded database only, unless asked for explicitly.
    seedDemo: e.SEED_DEMO ?? database.kind === 'sqlite',
    demoPassword: e.DEMO_PASSWORD ?? null,
    sessionSecret: e.SESSION_SECRET ?? null,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    limits: {
      ...DEFAULT_LIMITS,
      loginPerIpPerMinute: e[LIMITS.loginPerClient.env] ?? DEFAULT_LIMITS.loginPerIpPerMinute,
      unprovenAlerts: {
        perInstitutionPerHour:
          e[LIMITS.unprovenAlertsPerInstitution.env] ?? DEFAULT_LIMITS.unprovenAlerts.perInstitutionPerHour,
        perClientPerHour:
          e[LIMITS.unprovenAlertsPerClient.env] ?? DEFAULT_LIMITS.unprovenAlerts.perClientPerHour,
      },
    },
    mail: {
      linkBase: e.PUBLIC_URL ?? `http://${linkHost(e.HOST)}:${e.PORT}`,
      smtpUrl: e.SMTP_URL,
      smtpConnections: e.SMTP_CONNECTIONS,
      from: e.MAIL_FROM ?? `${e.BRAND_NAME} Health <no-reply@localhost>`,
    },
    sso: { allowLoopbackIssuer: e.SSO_ALLOW_INSECURE_ISSUER === true },
    retention: {
      outboxMs: e.OUTBOX_RETENTION_DAYS * 24 * 60 * 60_000,
      expiredCodesMs: e.EXPIRED_CODE_RETENTION_HOURS * 60 * 60_000,
    },
    web: {
      brandName: e.BRAND_NAME,
      demoVideoUrl: e.DEMO_VIDEO_URL,
      contactFormUrl: e.CONTACT_FORM_URL,
      analyticsScriptUrl: e.ANALYTICS_SCRIPT_URL,
      publicUrl: e.PUBLIC_URL,
    },
  };
}
