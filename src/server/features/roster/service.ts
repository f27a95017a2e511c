import type { Kysely } from 'kysely';
import type { RosterImportResponse, RosterPage } from '../../../common/schemas/roster';
import type { Database } from '../../db/types';
import { type AuditActor, recordAudit } from '../../lib/audit';
import { now } from '../../lib/time';
import { institutionDomains } from '../institutions/queries';
import { readRosterCsv } from './csv';
import * as queries from './queries';

const iso = (millis: number | string | null) =>
  millis === null ? null : new Date(Number(millis)).toISOString();

/**
 * Imports the registrar's CSV. A file that cannot be read as a roster changes nothing; otherwise
 * every good row is applied in one transaction and every bad one is reported by its line.
 */
export async function importRoster(options: {
  db: Kysely<Database>;
  actor: AuditActor;
  csv: string;
}): Promise<RosterImportResponse> {
  const { db, actor } = options;
  const { institutionId } = actor;
  const file = readRosterCsv(
    options.csv,
    await institutionDomains(db, institutionId),
    await queries.staffEmails(db, institutionId),
  );
  const withGroups = file.rows.some((row) => row.group !== undefined);
  const at = now();
  const imported = await db.transaction().execute(async (trx) => {
    const known = await queries.rosterEmails(trx, institutionId);
    await queries.upsertStudents(trx, institutionId, file.rows, { withGroups, at });
    const added = file.rows.filter((row) => !known.has(row.email)).length;
    await recordAudit(trx, actor, {
      action: 'roster.import',
      detail: { imported: added, updated: file.rows.length - added, refused_lines: file.errors.length },
    });
    return added;
  });
  return {
    success: true,
    imported,
    updated: file.rows.length - imported,
    errors: file.errors,
  };
}

/** A page of the roster, by name, with the search applied. */
export async function listRoster(options: {
  db: Kysely<Database>;
  actor: AuditActor;
  search?: string;
  group?: string;
  offset: number;
  limit: number;
}): Promise<RosterPage> {
  const { db, actor, offset, limit } = options;
  const { institutionId } = actor;
  const filter = {
    institutionId,
    ...(options.search?.trim() ? { search: options.search.trim() } : {}),
    ...(options.group === undefined ? {} : { group: options.group }),
  };
  // Names and addresses of students: the read is recorded (design section 9).
  await recordAudit(db, actor, {
    action: 'roster.read',
    detail: { offset, limit, search: filter.search, group: filter.group },
  });
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const rows = await queries.listStudents(trx, filter, { offset, limit });
      return {
        success: true as const,
        total: await queries.countStudents(trx, filter),
        offset,
        students: rows.map((row) => ({
          name: row.name,
          email: row.email,
          group: row.group_name,
          last_invited_at: iso(row.last_invited_at),
          last_answered_at: iso(row.latest_at),
        })),
        groups: await queries.listGroups(trx, institutionId),
      };
    });
}
