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

export function institutionTimeZoneRow(db: Executor, institutionId: number) {
  return db.selectFrom('institutions').select('time_zone').where('id', '=', institutionId).executeTakeFirst();
}

/** What the follow-up needs to know of an institution: contacts, deadlines, calendar. */
export function institutionSettingsRow(db: Executor, institutionId: number) {
  return db
    .selectFrom('institutions')
    .select([
      'id',
      'name',
      'alert_emails',
      'escalation_emails',
      'urgent_ack_minutes',
      'elevated_ack_minutes',
      'time_zone',
      'crisis_resources',
      'small_group_threshold',
    ])
    .where('id', '=', institutionId)
    .executeTakeFirst();
}

export async function updateInstitutionSettings(
  db: Executor,
  institutionId: number,
  settings: {
    alert_emails: string;
    escalation_emails: string;
    urgent_ack_minutes: number;
    elevated_ack_minutes: number;
    time_zone: string;
    crisis_resources: string | null;
    small_group_threshold: number;
  },
) {
  await db.updateTable('institutions').set(settings).where('id', '=', institutionId).execute();
}
