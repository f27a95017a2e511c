import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db';
import { replaceRecoveryCodes } from '../features/second-factor';
import { verifyPassword } from '../lib/passwords';
import { createSession } from '../lib/sessions';
import { runManage } from './commands';
import { PASSWORD_ON_COMMAND_LINE, type Terminal } from './password-input';

/** What a command wrote, and its exit status. */
async function manage(
  argv: string[],
  options: { env?: NodeJS.ProcessEnv; terminal: Terminal; dataDir: string },
) {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (chunk) => {
    stdout += chunk;
  });
  err.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await runManage(argv, {
    env: { DATA_DIR: options.dataDir, LOG_LEVEL: 'silent', SEED_DEMO: '0', ...options.env },
    terminal: options.terminal,
    out,
    err,
  });
  return { code, stdout, stderr };
}

const piped = (text: string): Terminal => ({ stdin: Readable.from([text]), prompts: new PassThrough() });

/** A terminal the operator types at: raw mode on, every key arrives as typed, nothing is echoed by the terminal. */
function typedAt(lines: string[]) {
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    rawModes: [] as boolean[],
    setRawMode(raw: boolean) {
      stdin.rawModes.push(raw);
      // Each prompt switches raw mode on: the operator types the next line then.
      if (raw) queueMicrotask(() => stdin.write(`${lines.shift() ?? ''}\r`));
      return stdin;
    },
  });
  let prompted = '';
  const prompts = new PassThrough();
  prompts.on('data', (chunk) => {
    prompted += chunk;
  });
  return { terminal: { stdin, prompts }, rawModes: stdin.rawModes, prompted: () => prompted };
}

const ADMIN = ['--institution', 'East Institute', '--email', 'dean@east.edu', '--name', 'Dana Dean'];
const PASSPHRASE = 'a-sturdy-admin-passphrase';

describe('npm run manage create-admin', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-manage-'));
    const made = await manage(['create-institution', '--name', 'East Institute', '--domains', 'east.edu'], {
      terminal: piped(''),
      dataDir,
    });
    expect(made.code).toBe(0);
  });
  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function storedHash(email: string): Promise<string | undefined> {
    const db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'wellness.sqlite') });
    try {
      const row = await db.kysely
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', email)
        .executeTakeFirst();
      return row?.password_hash;
    } finally {
      await db.close();
    }
  }

  it('refuses a password on the command line, says how to pass it, and creates nobody', async () => {
    const refused = await manage(['create-admin', ...ADMIN, '--password', PASSPHRASE], {
      terminal: piped(`${PASSPHRASE}\n`),
      dataDir,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(PASSWORD_ON_COMMAND_LINE);
    expect(refused.stderr).toContain('ADMIN_PASSWORD');
    expect(await storedHash('dean@east.edu')).toBeUndefined();
  });

  it('reads the password from the first line of piped standard input', async () => {
    const made = await manage(['create-admin', ...ADMIN], {
      terminal: piped(`${PASSPHRASE}\nignored\n`),
      dataDir,
    });
    expect(made).toMatchObject({ code: 0, stderr: '' });
    expect(made.stdout).toContain('Created institution admin dean@east.edu');
    expect(await verifyPassword((await storedHash('dean@east.edu')) ?? '', PASSPHRASE)).toBe(true);
  });

  it('takes ADMIN_PASSWORD for automation, without reading standard input', async () => {
    const made = await manage(['create-superuser', '--email', 'ops@vendor.example', '--name', 'Ops'], {
      env: { ADMIN_PASSWORD: 'a-sturdy-ops-passphrase' },
      terminal: piped('not-this-one-at-all\n'),
      dataDir,
    });
    expect(made.code).toBe(0);
    expect(
      await verifyPassword((await storedHash('ops@vendor.example')) ?? '', 'a-sturdy-ops-passphrase'),
    ).toBe(true);
  });

  it('asks twice at a terminal, in raw mode, and never writes what is typed', async () => {
    const typing = typedAt([PASSPHRASE, PASSPHRASE]);
    const made = await manage(['create-admin', ...ADMIN], { terminal: typing.terminal, dataDir });
    expect(made.code).toBe(0);
    expect(typing.prompted()).toBe('Password: \nPassword again: \n');
    expect(`${made.stdout}${made.stderr}${typing.prompted()}`).not.toContain(PASSPHRASE);
    expect(typing.rawModes).toEqual([true, false, true, false]);
    expect(await verifyPassword((await storedHash('dean@east.edu')) ?? '', PASSPHRASE)).toBe(true);

    const mistyped = typedAt([PASSPHRASE, 'another-passphrase']);
    const refused = await manage(['create-admin', ...ADMIN.slice(0, 3), 'other@east.edu', '--name', 'O'], {
      terminal: mistyped.terminal,
      dataDir,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('The two passwords differ');
    expect(await storedHash('other@east.edu')).toBeUndefined();
  });

  it('refuses an empty standard input', async () => {
    const refused = await manage(['create-admin', ...ADMIN], { terminal: piped(''), dataDir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('No password on standard input');
  });
});

describe('npm run manage reset-second-factor', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-manage-'));
    await manage(['create-institution', '--name', 'East Institute', '--domains', 'east.edu'], {
      terminal: piped(''),
      dataDir,
    });
    const made = await manage(['create-admin', ...ADMIN], { terminal: piped(`${PASSPHRASE}\n`), dataDir });
    expect(made.code).toBe(0);
  });
  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const withDatabase = async <T>(use: (db: ReturnType<typeof openDatabase>) => Promise<T>) => {
    const db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'wellness.sqlite') });
    try {
      return await use(db);
    } finally {
      await db.close();
    }
  };

  it('removes the lost factor of a staff member whose admins cannot sign in, signs them out, and audits it', async () => {
    const userId = await withDatabase(async (db) => {
      const user = await db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'dean@east.edu')
        .executeTakeFirstOrThrow();
      await replaceRecoveryCodes(db.kysely, user.id, ['a-hash'], Date.now());
      await createSession(db.kysely, user.id, 'password_and_second_factor');
      return user.id;
    });

    const reset = await manage(['reset-second-factor', 'dean@east.edu'], { terminal: piped(''), dataDir });
    expect(reset).toMatchObject({ code: 0, stderr: '' });
    expect(reset.stdout).toContain('Reset the second factor of dean@east.edu');

    await withDatabase(async (db) => {
      const count = (table: 'recovery_codes' | 'sessions') =>
        db.kysely.selectFrom(table).select('user_id').where('user_id', '=', userId).execute();
      expect(await count('recovery_codes')).toEqual([]);
      expect(await count('sessions')).toEqual([]);
      const audit = await db.kysely
        .selectFrom('audit_log')
        .select(['action', 'subject_id', 'actor_user_id', 'detail'])
        .where('action', '=', 'staff.second_factor_reset')
        .execute();
      expect(audit).toEqual([
        {
          action: 'staff.second_factor_reset',
          subject_id: String(userId),
          actor_user_id: null,
          detail: JSON.stringify({ email: 'dean@east.edu', by: 'an operator' }),
        },
      ]);
    });
  });

  it('refuses an address that is no staff member of an institution, and a missing address', async () => {
    const unknown = await manage(['reset-second-factor', 'nobody@east.edu'], {
      terminal: piped(''),
      dataDir,
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No staff member of an institution with the address nobody@east.edu');
    const missing = await manage(['reset-second-factor'], { terminal: piped(''), dataDir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('is not a valid email address');
  });
});

describe('npm run manage create-institution with its first admin', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellness-manage-'));
  });
  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates the institution and an admin who signs in with the password given', async () => {
    const made = await manage(
      [
        'create-institution',
        '--name',
        'West College',
        '--domains',
        'west.edu',
        '--admin-email',
        'head@west.edu',
        '--admin-name',
        'Harper Head',
      ],
      { env: { ADMIN_PASSWORD: PASSPHRASE }, terminal: piped(''), dataDir },
    );
    expect(made).toMatchObject({ code: 0, stderr: '' });
    expect(made.stdout).toContain('Created institution "West College"');
    expect(made.stdout).toContain('Created institution admin head@west.edu');
    const db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'wellness.sqlite') });
    try {
      const admin = await db.kysely
        .selectFrom('users')
        .innerJoin('institutions', 'institutions.id', 'users.institution_id')
        .select(['users.role', 'users.password_hash', 'institutions.name'])
        .where('users.email', '=', 'head@west.edu')
        .executeTakeFirstOrThrow();
      expect(admin).toMatchObject({ role: 'institution_admin', name: 'West College' });
      expect(await verifyPassword(admin.password_hash ?? '', PASSPHRASE)).toBe(true);
    } finally {
      await db.close();
    }
  });

  it('refuses an admin without a name before creating anything', async () => {
    const refused = await manage(
      [
        'create-institution',
        '--name',
        'West College',
        '--domains',
        'west.edu',
        '--admin-email',
        'head@west.edu',
      ],
      { env: { ADMIN_PASSWORD: PASSPHRASE }, terminal: piped(''), dataDir },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Missing --admin-name');
  });
});
