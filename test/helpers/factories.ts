import type { Kysely } from 'kysely';
import { writeTransaction } from '../../src/server/db/transaction-runner';
import type { Database, Role } from '../../src/server/db/types';
import { insertStudentAccount } from '../../src/server/features/auth';
import { createInstitution } from '../../src/server/features/institutions';
import { hashPassword } from '../../src/server/lib/passwords';

export const TEST_PASSWORD = 'correct-horse-battery';
let passwordHash: Promise<string> | undefined;

/** The test password's hash, computed once: argon2 is slow on purpose. */
export function testPasswordHash(): Promise<string> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  return passwordHash;
}

/** An institution with its starter template, named and scoped for one test. */
export async function makeInstitution(
  db: Kysely<Database>,
  name = 'North University',
  domains = ['north.edu'],
) {
  return createInstitution(db, { name, domains });
}

/** A user with the test password; a student of an institution joins it as registration does. */
export async function makeUser(
  db: Kysely<Database>,
  options: { email: string; role?: Role; institutionId?: number | null; name?: string },
) {
  const email = options.email.toLowerCase();
  const name = options.name ?? options.email.split('@')[0] ?? 'User';
  const role = options.role ?? 'student';
  const institutionId = options.institutionId ?? null;
  const hash = await testPasswordHash();
  if (role === 'student' && institutionId !== null) {
    const id = await writeTransaction(db, (trx, hooks) =>
      insertStudentAccount(trx, hooks, { institutionId, email, name, passwordHash: hash }),
    );
    return { id, email, password: TEST_PASSWORD };
  }
  const row = await db
    .insertInto('users')
    .values({ email, name, role, institution_id: institutionId, password_hash: hash, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, email, password: TEST_PASSWORD };
}

/** Two institutions, each with an admin and a student: the usual cast of tenancy tests. */
export async function makeTwoInstitutions(db: Kysely<Database>) {
  const a = await makeInstitution(db, 'North University', ['north.edu']);
  const b = await makeInstitution(db, 'South College', ['south.edu']);
  return {
    a,
    b,
    adminA: await makeUser(db, { email: 'admin@north.edu', role: 'institution_admin', institutionId: a.id }),
    studentA: await makeUser(db, { email: 'student@north.edu', institutionId: a.id, name: 'Sam North' }),
    adminB: await makeUser(db, { email: 'admin@south.edu', role: 'institution_admin', institutionId: b.id }),
    studentB: await makeUser(db, { email: 'student@south.edu', institutionId: b.id, name: 'Sky South' }),
    superuser: await makeUser(db, { email: 'root@north.edu', role: 'superuser' }),
  };
}
