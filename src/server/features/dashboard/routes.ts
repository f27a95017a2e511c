import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/dashboard';
import { can, roleName } from '../../../common/roles';
import { auditActor, recordAudit } from '../../lib/audit';
import type { StaffUser } from '../../lib/guards';
import { csvExportLimit } from '../../lib/limits';
import { route } from '../../lib/route';
import { now } from '../../lib/time';
import { openLiveHub } from '../../live';
import { exportSubmissionsCsv } from './export/export';
import { type InstrumentBands, instrumentBandsByMonth } from './instrument-bands';
import { smallGroupThreshold } from './queries';
import { dashboardFor, getDashboard, listFlaggedStudents, openDashboardStream } from './service';
import { suppressSmallBands } from './small-groups';

/** Streams are sent as-is; the typed reply only knows the JSON bodies of the schema. */
function sendStream(reply: FastifyReply, body: Readable) {
  return reply.send(body);
}

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  /** Names on the dashboard are a read of identifiable data: recorded before they are sent. */
  const recordNamesRead = async (request: FastifyRequest, user: StaffUser, action: string) => {
    if (can(roleName(user.role), 'student_identities'))
      await recordAudit(db.kysely, auditActor(request, user), { action });
  };
  const hub = openLiveHub({
    db,
    log: app.log,
    load: (institutionId) => getDashboard({ db: db.kysely, institutionId }),
  });
  /** Staff who may not see names get small bands suppressed (design section 14). */
  const instrumentBandsFor = async (staff: StaffUser, instruments: InstrumentBands) =>
    can(roleName(staff.role), 'student_identities')
      ? instruments
      : suppressSmallBands(instruments, await smallGroupThreshold(db.kysely, staff.institutionId));
  // Open streams never finish by themselves: end them before the server waits for its connections.
  app.addHook('preClose', async () => hub.closeStreams());
  app.addHook('onClose', async () => hub.close());

  route(app, endpoints.getDashboard, async (request, reply, staff) => {
    reply.header('cache-control', 'no-store');
    const data = dashboardFor(
      staff.role,
      await getDashboard({ db: db.kysely, institutionId: staff.institutionId }),
    );
    await recordNamesRead(request, staff, 'dashboard.read');
    return data;
  });

  route(app, endpoints.listFlaggedStudents, async (request, reply, staff) => {
    reply.header('cache-control', 'no-store');
    const page = await listFlaggedStudents({
      db: db.kysely,
      institutionId: staff.institutionId,
      ...request.query,
    });
    await recordNamesRead(request, staff, 'dashboard.flagged.read');
    return page;
  });

  route(app, endpoints.streamDashboard, async (request, reply, staff) => {
    const stream = await openDashboardStream({
      db: db.kysely,
      hub,
      admin: staff,
      sessionIdHash: request.session?.idHash ?? '',
    });
    await recordNamesRead(request, staff, 'dashboard.stream.open').catch((error: unknown) => {
      stream.close();
      throw error;
    });
    reply.raw.once('close', () => stream.close());
    reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-store, no-transform')
      // Proxies such as nginx would otherwise hold events back in their buffers.
      .header('x-accel-buffering', 'no');
    return sendStream(reply, stream.body);
  });

  route(
    app,
    endpoints.exportDashboardCsv,
    async (request, reply, staff) => {
      await recordAudit(db.kysely, auditActor(request, staff), { action: 'submissions.export' });
      const date = new Date(now()).toISOString().slice(0, 10);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="wellness-submissions-${date}.csv"`)
        .header('cache-control', 'no-store');
      return sendStream(
        reply,
        Readable.from(exportSubmissionsCsv({ db: db.kysely, institutionId: staff.institutionId })),
      );
    },
    { config: { rateLimit: csvExportLimit(config) } },
  );

  route(app, endpoints.getInstrumentBands, async (_request, reply, staff) => {
    reply.header('cache-control', 'no-store');
    const instruments = await instrumentBandsFor(
      staff,
      await instrumentBandsByMonth(db.kysely, staff.institutionId),
    );
    return { success: true as const, instruments };
  });
};
