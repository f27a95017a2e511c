/**
 * Two real server processes on one database, as behind a load balancer: every limit counts
 * across both, so adding an instance never adds attempts. Per-IP limits are counted per client
 * address; both instances see the test's requests from 127.0.0.1.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../../src/server/db';
import { createStaffAccount } from '../../src/server/features/auth';
import { MAX_STREAMS_PER_USER } from '../../src/server/features/dashboard';
import { createInstitution } from '../../src/server/features/institutions';
import { TestAgent } from '../helpers/app';
import { createPostgresSchema, TEST_DIALECTS } from '../helpers/databases';
import { type ServerProcess, startServer, stopServer } from '../helpers/server-process';

const PASSWORD = 'twin-instance-passphrase-8';
const LOGIN_LIMIT = 4;
/** Only stops a hung run; nothing is timed. */
const TEST_LIMIT_MS = 600_000;

interface Store {
  env: Record<string, string>;
  url: string;
  drop(): Promise<void>;
}

async function freshStore(dialect: string): Promise<Store> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-instances-'));
  if (dialect === 'sqlite') {
    const file = path.join(dataDir, 'wellness.sqlite');
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: `sqlite:${file}` },
      url: `sqlite:${file}`,
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const { url, drop } = await createPostgresSchema('instances');
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url },
    url,
    async drop() {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Opens a live dashboard stream and keeps it open; returns its status and how to close it. */
async function openStream(baseUrl: string, cookie: string) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/dashboard/events/`, {
    headers: { cookie },
    signal: controller.signal,
  });
  return {
    status: response.status,
    close: () => {
      controller.abort();
      response.body?.cancel().catch(() => undefined);
    },
  };
}

describe.each(TEST_DIALECTS)('two server processes on %s', (dialect) => {
  it(
    'share the login, registration and link limits and the cap on live dashboards',
    async () => {
      const store = await freshStore(dialect);
      const servers: ServerProcess[] = [];
      const streams: Awaited<ReturnType<typeof openStream>>[] = [];
      try {
        const setup = openDatabase(
          dialect === 'sqlite'
            ? { kind: 'sqlite', file: store.url.slice('sqlite:'.length) }
            : { kind: 'postgres', url: store.url },
        );
        await migrateToLatest(setup);
        await createInstitution(setup.kysely, { name: 'Twin University', domains: ['twin.edu'] });
        await createStaffAccount({
          db: setup.kysely,
          role: 'institution_admin',
          institutionName: 'Twin University',
          name: 'Tara Admin',
          email: 'admin@twin.edu',
          password: PASSWORD,
        });
        const link = await setup.kysely
          .selectFrom('survey_templates')
          .select('hash_link')
          .executeTakeFirstOrThrow();
        await setup.close();

        const env = {
          ...store.env,
          SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
          LOGIN_RATE_LIMIT_PER_MINUTE: String(LOGIN_LIMIT),
        };
        servers.push(await startServer(env), await startServer(env));
        const [first, second] = servers as [ServerProcess, ServerProcess];
        const alternate = (index: number) => (index % 2 === 0 ? first : second).baseUrl;

        // Live dashboards per user, opened alternately on the two instances (signing in first, before
        // the login limit below runs out).
        const admin = new TestAgent(first.baseUrl);
        await admin.login('admin@twin.edu', PASSWORD);
        const cookie = admin.cookieHeader();
        for (let index = 0; index < MAX_STREAMS_PER_USER + 1; index++)
          streams.push(await openStream(alternate(index), cookie));
        expect(streams.map((stream) => stream.status)).toEqual([
          ...new Array(MAX_STREAMS_PER_USER).fill(200),
          429,
        ]);

        // Logins per client address: wrong passwords for different (unknown) accounts, so only
        // the per-address limit can refuse them.
        const logins: number[] = [];
        for (let index = 0; index < 2 * LOGIN_LIMIT; index++) {
          const client = new TestAgent(alternate(index));
          const response = await client.post('/api/login/', {
            email: `nobody${index}@twin.edu`,
            password: 'not-the-password',
          });
          logins.push(response.status);
        }
        // The admin's sign-in above counted too.
        expect(logins).toEqual([
          ...new Array(LOGIN_LIMIT - 1).fill(401),
          ...new Array(LOGIN_LIMIT + 1).fill(429),
        ]);

        // Link submissions per client address (30 a minute).
        const submits: number[] = [];
        for (let index = 0; index < 31; index++) {
          const response = await new TestAgent(alternate(index)).post(`/api/survey/link/${link.hash_link}/`, {
            student_name: `Visitor ${index}`,
            school_email: `visitor${index}@twin.edu`,
            answers: {},
          });
          submits.push(response.status);
        }
        expect(submits.slice(0, 30)).not.toContain(429);
        expect(submits[30]).toBe(429);

        // Registrations per client address (20 an hour).
        const registrations: number[] = [];
        for (let index = 0; index < 21; index++) {
          const response = await new TestAgent(alternate(index)).post('/api/register/', {
            institution_name: 'Twin University',
            name: `Student ${index}`,
            email: `student${index}@twin.edu`,
            password: `${PASSWORD}-${index}`,
            confirm_password: `${PASSWORD}-${index}`,
          });
          registrations.push(response.status);
        }
        expect(registrations.slice(0, 20)).not.toContain(429);
        expect(registrations[20]).toBe(429);
      } finally {
        for (const stream of streams) stream.close();
        for (const server of servers) await stopServer(server);
        await store.drop();
      }
    },
    TEST_LIMIT_MS,
  );
});
