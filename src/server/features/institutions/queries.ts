import type { Executor } from '../../db/executor';

export async function listInstitutions(db: Executor) {
  const rows = await db.selectFrom('institutions').select(['id', 'name']).orderBy('name').execute();
  return rows.map((row) => ({ id: row.id, institution_name: row.name }));
}

export async function insertInstitution(db: Executor, name: string, createdAt: number): Promise<number> {
  const row = await db
    .insertInto('institutions')
    .values({ name, crisis_resources: null, created_at: createdAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertDomains(db: Executor, institutionId: number, domains: string[]) {
  if (domains.length === 0) return;
  await db
    .insertInto('institution_domains')
    .values(domains.map((domain) => ({ domain, institution_id: institutionId })))
    .execute();
}

export async function institutionDomains(db: Executor, institutionId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('institution_domains')
    .select('domain')
    .where('institution_id', '=', institutionId)
    .orderBy('domain')
    .execute();
  return rows.map((row) => row.domain);
}

export function findInstitutionIdByName(db: Executor, name: string) {
  return db.selectFrom('institutions').select('id').where('name', '=', name).executeTakeFirst();
}
