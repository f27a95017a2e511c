import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors';
import { writeTransaction } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { AppError } from '../../lib/errors';
import { now } from '../../lib/time';
import { createDefaultTemplate } from '../templates';
import { insertDomains, insertInstitution } from './queries';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

function normaliseDomains(domains: string[]): string[] {
  const cleaned = [
    ...new Set(domains.map((domain) => domain.trim().toLowerCase().replace(/^@/, '')).filter(Boolean)),
  ];
  const invalid = cleaned.find((domain) => !DOMAIN.test(domain));
  if (invalid) throw new AppError('BAD_REQUEST', `"${invalid}" is not a valid email domain`);
  if (cleaned.length === 0) throw new AppError('BAD_REQUEST', 'At least one email domain is required');
  return cleaned;
}

/** A new institution, its email domains and its active starter template, all or nothing. */
export async function createInstitution(db: Kysely<Database>, options: { name: string; domains: string[] }) {
  const name = options.name.trim();
  if (!name || name.length > 200)
    throw new AppError('BAD_REQUEST', 'Institution name must be 1 to 200 characters');
  const domains = normaliseDomains(options.domains);
  try {
    return await writeTransaction(db, async (trx) => {
      const createdAt = now();
      const id = await insertInstitution(trx, name, createdAt);
      await insertDomains(trx, id, domains);
      await createDefaultTemplate(trx, id, createdAt);
      return { id, name, domains };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError('CONFLICT', 'An institution with this name or one of these domains already exists');
    }
    throw error;
  }
}
