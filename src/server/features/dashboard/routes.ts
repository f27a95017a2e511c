import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse } from '../../../common/schemas/common';
import { DashboardData, FlaggedPage, FlaggedPageQuery } from '../../../common/schemas/dashboard';
import { requireAdmin } from '../../lib/guards';
import { now } from '../../lib/time';
import { openLiveHub } from '../../live';
import { exportSubmissionsCsv } from './export/export';
import { getDashboard, listFlaggedStudents, openDashboardStream } from './service';

const errors = { 401: ErrorResponse, 403: ErrorResponse };
const tags = ['dashboard'];
const EXPORTS_PER_MINUTE = 10;

/** Streams are sent as-is; the typed reply only knows the JSON bodies of the schema. */
function sendStream(reply: FastifyReply, body: Readable) {
  return reply.send(body);
}

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const hub = openLiveHub({
    db,
    log: app.log,
    load: (institutionId) => getDashboard({ db: db.kysely, institutionId }),
  });
  // Open streams never finish by themselves: end them before the server waits for its connections.
  app.addHook('preClose', async () => hub.closeStreams());
  app.addHook('onClose', async () => hub.close());

  app.get(
    '/api/dashboard/',
    {
      schema: {
        tags,
        summary: "The admin's institution dashboard numbers",
        response: { 200: DashboardData, ...errors },
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      reply.header('cache-control', 'no-store');
      return getDashboard({ db: db.kysely, institutionId: admin.institutionId });
    },
  );

  app.get(
    '/api/dashboard/flagged/',
    {
      schema: {
        tags,
        summary: 'A page of flagged students, in dashboard order (urgent first, then newest)',
        querystring: FlaggedPageQuery,
        response: { 200: FlaggedPage, 400: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      reply.header('cache-control', 'no-store');
      return listFlaggedStudents({ db: db.kysely, institutionId: admin.institutionId, ...request.query });
    },
  );

  app.get(
    '/api/dashboard/events/',
    {
      schema: {
        tags,
        summary: 'Server-Sent Events: a "dashboard" event with fresh numbers now and after every change',
        response: { 200: z.string().describe('text/event-stream'), 429: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const stream = await openDashboardStream({
        db: db.kysely,
        hub,
        admin,
        sessionIdHash: request.session?.idHash ?? '',
      });
      reply.raw.once('close', () => stream.close());
      reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store, no-transform')
        // Proxies such as nginx would otherwise hold events back in their buffers.
        .header('x-accel-buffering', 'no');
      return sendStream(reply, stream.body);
    },
  );

  app.get(
    '/api/dashboard/export.csv',
    {
      schema: {
        tags,
        summary: "The institution's submissions as CSV, one row per submission and one column per question",
        response: { 200: z.string().describe('text/csv'), 429: ErrorResponse, ...errors },
      },
      // Each export reads every submission: plenty for people, a wall for a script in a loop.
      config: { rateLimit: { max: EXPORTS_PER_MINUTE, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const date = new Date(now()).toISOString().slice(0, 10);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="wellness-submissions-${date}.csv"`)
        .header('cache-control', 'no-store');
      return sendStream(
        reply,
        Readable.from(exportSubmissionsCsv({ db: db.kysely, institutionId: admin.institutionId })),
      );
    },
  );
};
