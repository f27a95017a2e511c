import path from 'node:path';
import { z } from 'zod';

const flag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no', ''])
  .transform((value) => ['1', 'true', 'yes'].includes(value));

const optionalUrl = z
  .string()
  .trim()
  .transform((value) => value || null)
  .pipe(z.url().nullable());

const PORT_MESSAGE = 'must be a whole number from 0 to 65535';
const LOGIN_LIMIT_MESSAGE = 'must be a whole number from 1 to 1000000';

/** The environment the server understands; every value has a default that needs no set-up. */
const Environment = z.object({
  // A blank PORT (e.g. `PORT=` in a compose file) means "not set", not port 0 (a random port).
  PORT: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce
      .number({ error: PORT_MESSAGE })
      .int(PORT_MESSAGE)
      .min(0, PORT_MESSAGE)
      .max(65535, PORT_MESSAGE)
      .default(8000),
  ),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('data'),
  WEB_ROOT: z.string().min(1).optional(),
  DATABASE_URL: z.string().trim().optional(),
  SEED_DEMO: flag.optional(),
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  TRUST_PROXY: flag.default(false),
  BRAND_NAME: z.string().trim().min(1).max(60).default('Wellspring'),
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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // A campus behind one NAT address may need more; a load test needs many more.
  LOGIN_RATE_LIMIT_PER_MINUTE: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce
      .number({ error: LOGIN_LIMIT_MESSAGE })
      .int(LOGIN_LIMIT_MESSAGE)
      .min(1, LOGIN_LIMIT_MESSAGE)
      .max(1_000_000, LOGIN_LIMIT_MESSAGE)
      .optional(),
  ),
});

export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface LoginLimits {
  /** Failed attempts allowed per account inside one window. */
  failuresPerAccount: number;
  windowMs: number;
}

export interface Limits {
  loginPerIpPerMinute: number;
  login: LoginLimits;
  linkSubmissionsPerIpPerMinute: number;
  /** Largest request body accepted, in bytes. */
  bodyBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  loginPerIpPerMinute: 20,
  login: { failuresPerAccount: 5, windowMs: 15 * 60_000 },
  linkSubmissionsPerIpPerMinute: 30,
  bodyBytes: 256 * 1024,
};

export interface MailConfig {
  /** Where mail is sent; null writes every mail to the server log instead (the embedded default). */
  smtpUrl: string | null;
  /** The From header of every mail. */
  from: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Folder of the built web app; null means the default dist/web. */
  webRoot: string | null;
  database: DatabaseTarget;
  seedDemo: boolean;
  /** Configured secret, or null when one should be generated and kept beside the database. */
  sessionSecret: string | null;
  trustProxy: boolean;
  logLevel: z.infer<typeof Environment>['LOG_LEVEL'];
  limits: Limits;
  mail: MailConfig;
  /** Values the web app needs; the server hands them to it inside the page shell. */
  web: {
    brandName: string;
    demoVideoUrl: string | null;
    contactFormUrl: string;
    analyticsScriptUrl: string | null;
    publicUrl: string | null;
  };
}

function databaseTarget(url: string | undefined, dataDir: string): DatabaseTarget {
  if (!url) return { kind: 'sqlite', file: path.join(dataDir, 'wellness.sqlite') };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
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
  const database = databaseTarget(e.DATABASE_URL, e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    webRoot: e.WEB_ROOT ?? null,
    database,
    // The demo seed belongs to the embedded database only, unless asked for explicitly.
    seedDemo: e.SEED_DEMO ?? database.kind === 'sqlite',
    sessionSecret: e.SESSION_SECRET ?? null,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    limits: {
      ...DEFAULT_LIMITS,
      loginPerIpPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE ?? DEFAULT_LIMITS.loginPerIpPerMinute,
    },
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `${e.BRAND_NAME} Health <no-reply@localhost>`,
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
