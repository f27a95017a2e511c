import { institutionEmailProblem } from '../../../common/institution-email';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/errors';
import { institutionDomains } from './queries';

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
