import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { INSTRUMENTS, type InstrumentId } from '../../common/instruments';
import { INSTRUMENT_BLOCK } from '../../common/schemas/templates';
import type { Database } from '../db/types';
import { rebuildDashboardRollups } from '../features/dashboard';
import { createInstitution, findInstitutionIdByName } from '../features/institutions';
import { hashPassword, passwordProblem, verifyPassword } from '../lib/passwords';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../lib/private-files';
import { now } from '../lib/time';
import * as queries from './queries';

export const DEMO_INSTITUTION = { name: 'Demo University', domains: ['demo.edu'] };
const DEMO_LOGINS = [
  { role: 'Institution admin', email: 'admin@demo.edu', name: 'Demo Admin' },
  { role: 'Student', email: 'student@demo.edu', name: 'Demo Student' },
] as const;
/** Where a generated demo password is kept, inside DATA_DIR, readable by the server's user only. */
export const DEMO_PASSWORD_FILE = 'demo-password.txt';

/**
 * The demo logins reach real (if sample) student data, and `npm start` listens on every
 * interface: a password printed in the README would open them to anyone on the network. So each
 * installation gets its own random one (96 bits), unless DEMO_PASSWORD chooses it.
 */
export function generateDemoPassword(): string {
  return crypto.randomBytes(12).toString('base64url');
}

/** A chosen demo password must pass the same rule as any other. */
export function checkDemoPassword(password: string, brandName: string): void {
  for (const login of DEMO_LOGINS) {
    const problem = passwordProblem(password, {
      email: login.email,
      name: login.name,
      institutionName: DEMO_INSTITUTION.name,
      brandName,
    });
    if (problem) throw new Error(`DEMO_PASSWORD is refused: ${problem}`);
  }
}

export function saveDemoPassword(dataDir: string, password: string): string {
  makePrivateDir(dataDir);
  const file = path.join(dataDir, DEMO_PASSWORD_FILE);
  fs.writeFileSync(file, `${password}\n`, { mode: PRIVATE_FILE_MODE });
  fs.chmodSync(file, PRIVATE_FILE_MODE);
  return file;
}

/** What the server prints about the demo logins at start. */
export function demoLoginLines(options: {
  seeded: boolean;
  password: string;
  chosen: boolean;
  file: string;
}): string[] {
  const { seeded, password, chosen, file } = options;
  const accounts = DEMO_LOGINS.map((login) => `  ${login.role.padEnd(18)} ${login.email}`);
  if (seeded) {
    const kept = chosen ? 'the DEMO_PASSWORD you set' : `kept in ${file} (readable by you only)`;
    return [
      'Demo data created. Demo logins:',
      ...accounts.map((line) => `${line}  password: ${password}`),
      `The password is ${kept}.`,
    ];
  }
  const where = chosen ? 'the DEMO_PASSWORD you set' : `in ${file}, printed when the demo was created`;
  return ['Demo logins:', ...accounts, `Their password is ${where}.`];
}

/** The password earlier versions gave every demo installation, and printed in their README. */
const PUBLISHED_DEMO_PASSWORD = 'wellness-demo';

/**
 * An installation seeded by an earlier version still has the published password: its demo
 * logins get the new one instead. Returns whether any changed.
 */
export async function retirePublishedDemoPassword(db: Kysely<Database>, password: string): Promise<boolean> {
  const users = await queries.usersByEmail(
    db,
    DEMO_LOGINS.map((login) => login.email),
  );
  const published: number[] = [];
  for (const user of users)
    if (await verifyPassword(user.password_hash, PUBLISHED_DEMO_PASSWORD)) published.push(user.id);
  if (published.length === 0) return false;
  const passwordHash = await hashPassword(password);
  await queries.setPasswordHash(db, published, passwordHash);
  return true;
}

/**
 * Hook for sample survey responses, filled in by the surveys feature once submissions exist.
 * Kept separate so the demo accounts never depend on it.
 */
export type SampleResponsesSeeder = (db: Kysely<Database>, institutionId: number) => Promise<void>;

/** The validated instruments the demo's survey asks after its own questions. */
const DEMO_INSTRUMENTS: readonly InstrumentId[] = ['phq9', 'gad7'];

/** Adds the demo instruments as locked blocks at the end of the institution's active template. */
async function addDemoInstruments(db: Kysely<Database>, institutionId: number) {
  const active = await db
    .selectFrom('active_templates')
    .select('template_id')
    .where('institution_id', '=', institutionId)
    .executeTakeFirstOrThrow();
  const { last } = await db
    .selectFrom('questions')
    .select((eb) => eb.fn.max('position').as('last'))
    .where('template_id', '=', active.template_id)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('questions')
    .values(
      DEMO_INSTRUMENTS.map((instrumentId, index) => ({
        template_id: active.template_id,
        question_text: INSTRUMENTS[instrumentId].name,
        question_type: INSTRUMENT_BLOCK,
        category: 'general' as const,
        answer_choices: null,
        position: Number(last ?? 0) + index + 1,
        created_at: now(),
        instrument_id: instrumentId,
      })),
    )
    .execute();
}

/** Creates the demo institution and its logins on first start. Returns false when already there. */
export async function seedDemo(
  db: Kysely<Database>,
  options: { password: string; seedResponses?: SampleResponsesSeeder },
): Promise<boolean> {
  const { password, seedResponses } = options;
  if (await findInstitutionIdByName(db, DEMO_INSTITUTION.name)) return false;
  const institution = await createInstitution(db, DEMO_INSTITUTION);
  await addDemoInstruments(db, institution.id);
  const passwordHash = await hashPassword(password);
  await queries.insertUsers(db, [
    {
      institution_id: institution.id,
      email: 'admin@demo.edu',
      name: 'Demo Admin',
      password_hash: passwordHash,
      role: 'institution_admin',
      created_at: now(),
    },
    {
      institution_id: institution.id,
      email: 'student@demo.edu',
      name: 'Demo Student',
      password_hash: passwordHash,
      role: 'student',
      created_at: now(),
    },
  ]);
  await seedResponses?.(db, institution.id);
  // The accounts above skip registration, which is what counts a student on the dashboard.
  await rebuildDashboardRollups(db, institution.id);
  return true;
}
