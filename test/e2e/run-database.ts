import crypto from 'node:crypto';
import path from 'node:path';
import { roleName } from '../../src/common/roles';
import { type Db, openDatabase } from '../../src/server/db';
import { createStaffAccount } from '../../src/server/features/auth';
import { createInstitution } from '../../src/server/features/institutions';
import { needsSecondFactor } from '../../src/server/lib/guards';
import { createSession, SESSION_COOKIE } from '../../src/server/lib/sessions';

/**
 * This run's database, opened by the worker itself, for set-up through the server's own service
 * functions: what the create-institution and create-admin commands run, without starting a
 * command line per test (on a loaded machine most of a test's set-up was Node starting the CLI).
 * The server reads every row from the database, so what is written here it sees at once, as it
 * sees what the command line writes.
 */

let opened: Db | undefined;

function runDatabase(): Db {
  if (!opened) {
    const dataDir = process.env.E2E_DATA_DIR;
    if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the specs through `npx playwright test`.');
    opened = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'wellness.sqlite') });
  }
  return opened;
}

/** An institution and its default template, as `create-institution --name --domains` makes them. */
export async function insertInstitution(name: string, domains: string[]): Promise<void> {
  await createInstitution(runDatabase().kysely, { name, domains });
}

/** A staff account, as `create-admin` (with `institutionName`) or `create-superuser` makes it. */
export async function insertStaffAccount(account: {
  role: 'institution_admin' | 'superuser';
  institutionName?: string;
  email: string;
  name: string;
  password: string;
}): Promise<void> {
  await createStaffAccount({ db: runDatabase().kysely, ...account });
}

/**
 * Opens a session for the account as a completed sign-in would (with the second factor proven,
 * for staff), through the server's own session function; returns the cookies the sign-in sets.
 */
export async function openSessionFor(
  email: string,
): Promise<{ name: string; value: string; httpOnly: boolean }[]> {
  const db = runDatabase().kysely;
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'role'])
    .where('email', '=', email.toLowerCase())
    .executeTakeFirstOrThrow(() => new Error(`No account ${email} to sign in`));
  const method = needsSecondFactor(user.role) ? 'password_and_second_factor' : 'password';
  const { sessionId } = await createSession(db, user.id, method);
  // As setSessionCookie and setDisplayCookies (features/auth/cookies.ts) set them at a sign-in.
  const display = (name: string, value: string) => ({ name, value, httpOnly: false });
  return [
    { name: SESSION_COOKIE, value: sessionId, httpOnly: true },
    display('auth_token', crypto.randomBytes(16).toString('hex')),
    display('user_email', user.email),
    display('is_superuser', String(user.role === 'superuser')),
    display('is_institution_admin', String(user.role === 'institution_admin')),
    display('user_role', roleName(user.role)),
  ];
}
