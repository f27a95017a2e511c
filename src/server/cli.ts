/**
 * Operator commands: `npm run manage -- <command> [options]`. Uses the same configuration as the
 * server (DATABASE_URL, DATA_DIR), so it manages whichever database the server runs on.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { Email } from '../common/schemas/common';
import { loadConfig } from './config';
import { migrateToLatest, openDatabase } from './db';
import { createStaffAccount } from './features/auth/service';
import { createInstitution } from './features/institutions/service';
import { AppError } from './lib/errors';

const USAGE = `Usage: npm run manage -- <command> [options]

Commands:
  create-institution --name <name> --domains <domain[,domain...]>
  create-admin       --institution <name> --email <email> --name <full name> --password <password>
  create-superuser   --email <email> --name <full name> --password <password>
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

async function run(argv: string[]) {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      domains: { type: 'string' },
      institution: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfig();
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    switch (command) {
      case 'create-institution': {
        required(values, 'name', 'domains');
        const institution = await createInstitution(db.kysely, {
          name: z.string().parse(values.name),
          domains: (values.domains ?? '').split(','),
        });
        console.log(
          `Created institution "${institution.name}" (id ${institution.id}) for ${institution.domains.join(', ')}`,
        );
        break;
      }
      case 'create-admin':
      case 'create-superuser': {
        const isAdmin = command === 'create-admin';
        required(values, 'email', 'name', 'password', ...(isAdmin ? ['institution'] : []));
        const account = await createStaffAccount({
          db: db.kysely,
          role: isAdmin ? 'institution_admin' : 'superuser',
          institutionName: values.institution,
          email: email(values.email),
          name: (values.name ?? '').trim(),
          password: values.password ?? '',
          brandName: config.web.brandName,
        });
        console.log(
          `Created ${isAdmin ? 'institution admin' : 'superuser'} ${email(values.email)} (id ${account.id})`,
        );
        break;
      }
      default:
        throw new UsageError(`Unknown command "${command}"`);
    }
  } finally {
    await db.close();
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  const isExpected =
    error instanceof UsageError ||
    error instanceof AppError ||
    (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
  if (isExpected) console.error(`\n${USAGE}`);
  process.exit(isExpected ? 2 : 1);
});
