import type { Kysely } from 'kysely';
import type { Database } from './db/types';
import { rebuildDashboardRollups } from './features/dashboard/rebuild';
import { createInstitution } from './features/institutions/service';
import { hashPassword } from './lib/passwords';
import { now } from './lib/time';

export const DEMO_INSTITUTION = { name: 'Demo University', domains: ['demo.edu'] };
export const DEMO_PASSWORD = 'wellness-demo';
export const DEMO_LOGINS = [
  { role: 'Institution admin', email: 'admin@demo.edu', password: DEMO_PASSWORD },
  { role: 'Student', email: 'student@demo.edu', password: DEMO_PASSWORD },
] as const;

/**
 * Hook for sample survey responses, filled in by the surveys feature once submissions exist.
 * Kept separate so the demo accounts never depend on it.
 */
export type SampleResponsesSeeder = (db: Kysely<Database>, institutionId: number) => Promise<void>;

/** Creates the demo institution and its logins on first start. Returns false when already there. */
export async function seedDemo(
  db: Kysely<Database>,
  seedResponses?: SampleResponsesSeeder,
): Promise<boolean> {
  const existing = await db
    .selectFrom('institutions')
    .select('id')
    .where('name', '=', DEMO_INSTITUTION.name)
    .executeTakeFirst();
  if (existing) return false;
  const institution = await createInstitution(db, DEMO_INSTITUTION);
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db
    .insertInto('users')
    .values([
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
    ])
    .execute();
  await seedResponses?.(db, institution.id);
  // The accounts above skip registration, which is what counts a student on the dashboard.
  await rebuildDashboardRollups(db, institution.id);
  return true;
}
