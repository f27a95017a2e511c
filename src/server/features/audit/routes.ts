import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/audit';
import { can, roleName } from '../../../common/roles';
import type { Executor } from '../../db/executor';
import { auditActor, recordAudit } from '../../lib/audit';
import { csvExportLimit } from '../../lib/limits';
import { route } from '../../lib/route';
import { now } from '../../lib/time';
import { readFollowUpSettings } from '../institutions';
import { type AuditReader, exportAuditCsv, listAuditEntries } from './service';

async function readerOf(
  db: Executor,
  staff: { institutionId: number; role: Parameters<typeof roleName>[0] },
): Promise<AuditReader> {
  const { timeZone } = await readFollowUpSettings(db, staff.institutionId);
  return {
    institutionId: staff.institutionId,
    timeZone,
    seesStudentNames: can(roleName(staff.role), 'student_identities'),
  };
}

/** Streams are sent as-is; the typed reply only knows the JSON bodies of the schema. */
function sendStream(reply: FastifyReply, body: Readable) {
  return reply.send(body);
}

/** The audit log (design section 9): admins read and export their institution's. */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;

  route(app, endpoints.listAuditEntries, async (request, _reply, admin) => {
    const { page, page_size: pageSize, ...filters } = request.query;
    const entries = await listAuditEntries({
      db: db.kysely,
      reader: await readerOf(db.kysely, admin),
      filters,
      page,
      pageSize,
    });
    // Reading the log is itself recorded, after the page is read: a page never shows its own reading.
    await recordAudit(db.kysely, auditActor(request, admin), {
      action: 'audit.read',
      detail: { filters, page },
    });
    return entries;
  });

  route(
    app,
    endpoints.exportAuditCsv,
    async (request, reply, admin) => {
      const filters = request.query;
      await recordAudit(db.kysely, auditActor(request, admin), {
        action: 'audit.export',
        detail: { filters },
      });
      const reader = await readerOf(db.kysely, admin);
      const date = new Date(now()).toISOString().slice(0, 10);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="activity-${date}.csv"`)
        .header('cache-control', 'no-store');
      return sendStream(reply, Readable.from(exportAuditCsv({ db: db.kysely, reader, filters })));
    },
    { config: { rateLimit: csvExportLimit(config) } },
  );
};
