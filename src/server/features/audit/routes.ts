import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { can, roleName } from '../../../common/roles';
import { AuditFilters, AuditPage, AuditQuery } from '../../../common/schemas/audit';
import { ErrorResponse } from '../../../common/schemas/common';
import { carriesStudentData } from '../../../common/schemas/identity';
import type { Executor } from '../../db/executor';
import { auditActor, recordAudit } from '../../lib/audit';
import { requireStaff } from '../../lib/guards';
import { csvExportLimit } from '../../lib/limits';
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

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };
const tags = ['audit'];

/** Streams are sent as-is; the typed reply only knows the JSON bodies of the schema. */
function sendStream(reply: FastifyReply, body: Readable) {
  return reply.send(body);
}

/** The audit log (design section 9): admins read and export their institution's. */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;

  app.get(
    '/api/audit/',
    {
      schema: {
        tags,
        summary:
          "A page of the audit log, newest first, with names beside ids, filtered by actor, action, student and the institution's days",
        querystring: AuditQuery,
        response: { 200: AuditPage, ...errors },
      },
    },
    async (request) => {
      const admin = requireStaff(request, 'audit');
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
    },
  );

  app.get(
    '/api/audit/export.csv',
    {
      schema: {
        tags,
        summary: 'The filtered audit log as CSV, newest first; the export is itself recorded',
        querystring: AuditFilters,
        response: {
          200: carriesStudentData(z.string().check(z.describe('text/csv'))),
          429: ErrorResponse,
          ...errors,
        },
      },
      config: { rateLimit: csvExportLimit(config) },
    },
    async (request, reply) => {
      const admin = requireStaff(request, 'audit');
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
  );
};
