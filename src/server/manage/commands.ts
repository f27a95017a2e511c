/**
 * Operator commands: `npm run manage -- <command> [options]`. Uses the same configuration as the
 * server (DATABASE_URL, DATA_DIR), so it manages whichever database the server runs on.
 */
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { Email } from '../../common/schemas/common';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db';
import { createStaffAccount } from '../features/auth';
import { createInstitution } from '../features/institutions';
import { resetSecondFactorByOperator } from '../features/second-factor';
import { AppError } from '../lib/errors';
import {
  PASSWORD_ON_COMMAND_LINE,
  PASSWORD_VARIABLE,
  PasswordInputError,
  readNewPassword,
  type Terminal,
} from './password-input';

export const USAGE = `Usage: npm run manage -- <command> [options]

Commands:
  create-institution --name <name> --domains <domain[,domain...]>
                     [--admin-email <email> --admin-name <full name>]
                     With --admin-*, also creates the institution's first admin.
  create-admin       --institution <name> --email <email> --name <full name>
  create-superuser   --email <email> --name <full name>
  reset-second-factor <email>
                     For when no admin of the institution can sign in: removes the staff
                     member's authenticator app, recovery codes and passkeys and signs them out
                     everywhere; they set up a new one at their next sign-in. Audited.

The new account's password is asked for (not shown as it is typed), read from the first line of
standard input when it is piped, or taken from ${PASSWORD_VARIABLE}; never from the command line.
`;

class UsageError extends Error {}

function required(values: Record<string, string | undefined>, ...names: string[]) {
  const missing = names.filter((name) => !values[name]?.trim());
  if (missing.length) throw new UsageError(`Missing ${missing.map((name) => `--${name}`).join(', ')}`);
}

function email(value: string | undefined): string {
  const parsed = Email.safeParse(value);
  if (!parsed.success) throw new UsageError(`"${value}" is not a valid email address`);
  return parsed.data;
}

export interface ManageIo {
  env: NodeJS.ProcessEnv;
  terminal: Terminal;
  out: Writable;
  err: Writable;
}

async function run(argv: string[], io: ManageIo) {
  const print = (line: string) => io.out.write(`${line}\n`);
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    print(USAGE);
    return;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: command === 'reset-second-factor',
    options: {
      name: { type: 'string' },
      domains: { type: 'string' },
      institution: { type: 'string' },
      email: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-name': { type: 'string' },
      // Known only to be refused with the way to pass it instead.
      password: { type: 'string' },
    },
    strict: true,
  });
  if (values.password !== undefined) throw new UsageError(PASSWORD_ON_COMMAND_LINE);
  const isStaffCommand = command === 'create-admin' || command === 'create-superuser';
  const isReset = command === 'reset-second-factor';
  if (command !== 'create-institution' && !isStaffCommand && !isReset)
    throw new UsageError(`Unknown command "${command}"`);
  const resetEmail = isReset ? email(positionals[0] ?? values.email) : '';
  if (isStaffCommand) {
    required(values, 'email', 'name', ...(command === 'create-admin' ? ['institution'] : []));
    email(values.email);
  }
  const withFirstAdmin =
    command === 'create-institution' &&
    (values['admin-email'] !== undefined || values['admin-name'] !== undefined);
  if (withFirstAdmin) {
    required(values, 'name', 'domains', 'admin-email', 'admin-name');
    email(values['admin-email']);
  }
  // Asked for before the database opens, so a mistyped prompt leaves nothing behind.
  const password = isStaffCommand || withFirstAdmin ? await readNewPassword(io.env, io.terminal) : '';
  const config = loadConfig(io.env);
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    if (command === 'create-institution') {
      required(values, 'name', 'domains');
      const institution = await createInstitution(db.kysely, {
        name: z.string().parse(values.name),
        domains: (values.domains ?? '').split(','),
      });
      print(
        `Created institution "${institution.name}" (id ${institution.id}) for ${institution.domains.join(', ')}`,
      );
      if (withFirstAdmin) {
        const admin = await createStaffAccount({
          db: db.kysely,
          role: 'institution_admin',
          institutionName: institution.name,
          email: email(values['admin-email']),
          name: (values['admin-name'] ?? '').trim(),
          password,
          brandName: config.web.brandName,
        });
        print(`Created institution admin ${email(values['admin-email'])} (id ${admin.id})`);
      }
      return;
    }
    if (isReset) {
      const reset = await resetSecondFactorByOperator(db.kysely, resetEmail);
      print(
        `Reset the second factor of ${reset.email} (id ${reset.id}): signed out everywhere; they set up a new one at their next sign-in.`,
      );
      return;
    }
    const isAdmin = command === 'create-admin';
    const account = await createStaffAccount({
      db: db.kysely,
      role: isAdmin ? 'institution_admin' : 'superuser',
      institutionName: values.institution,
      email: email(values.email),
      name: (values.name ?? '').trim(),
      password,
      brandName: config.web.brandName,
    });
    print(`Created ${isAdmin ? 'institution admin' : 'superuser'} ${email(values.email)} (id ${account.id})`);
  } finally {
    await db.close();
  }
}

/** Runs a command; the exit status: 0 done, 2 the operator's mistake (explained), 1 anything else. */
export async function runManage(argv: string[], io: ManageIo): Promise<number> {
  try {
    await run(argv, io);
    return 0;
  } catch (error) {
    const isExpected =
      error instanceof UsageError ||
      error instanceof AppError ||
      error instanceof PasswordInputError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true;
    io.err.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (isExpected) io.err.write(`\n${USAGE}\n`);
    return isExpected ? 2 : 1;
  }
}
