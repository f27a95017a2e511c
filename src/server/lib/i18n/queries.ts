import { sql } from 'kysely';
import type { Executor } from '../../db/executor';

/**
 * The language each of these addresses' accounts reads mail in, keyed by the address in lower
 * case; an address without an account, or whose account chose none, is absent.
 */
export async function languagesByEmail(
  db: Executor,
  emails: readonly string[],
): Promise<Map<string, string>> {
  const wanted = [...new Set(emails.map((email) => email.toLowerCase()))];
  const found = new Map<string, string>();
  const CHUNK = 500;
  for (let start = 0; start < wanted.length; start += CHUNK) {
    const rows = await db
      .selectFrom('users')
      .select(['email', 'language'])
      .where(sql<string>`lower(email)`, 'in', wanted.slice(start, start + CHUNK))
      .where('language', 'is not', null)
      .execute();
    for (const row of rows) if (row.language) found.set(row.email.toLowerCase(), row.language);
  }
  return found;
}
