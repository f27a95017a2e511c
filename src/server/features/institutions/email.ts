import { institutionEmailProblem } from '../../../common/institution-email';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/errors';
import { institutionDomains } from './queries';

/** What the email-domain rule is checked against: the institution's name and its email domains. */
export async function institutionEmailRule(
  db: Executor,
  institutionId: number,
): Promise<{ name: string; domains: string[] }> {
  const row = await db
    .selectFrom('institutions')
    .select('name')
    .where('id', '=', institutionId)
    .executeTakeFirstOrThrow();
  return { name: row.name, domains: await institutionDomains(db, institutionId) };
}

/** Refuses an address outside the institution's email domains (spec: students use their school address). */
export async function requireInstitutionEmail(
  db: Executor,
  institution: { id: number; name: string },
  email: string,
): Promise<void> {
  const domains = await institutionDomains(db, institution.id);
  const problem = institutionEmailProblem(email, { name: institution.name, domains });
  if (problem) throw new AppError('BAD_REQUEST', problem);
}
