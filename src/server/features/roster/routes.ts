import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/roster';
import { auditActor } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { route } from '../../lib/route';
import { LIMITS, routeLimit } from '../../limit-table';
import { TOO_LARGE } from './csv';
import { importRoster, listRoster, setStudentLeft } from './service';

const SEND_CSV = 'Send the roster as a CSV file (Content-Type: text/csv)';

/**
 * The registrar's CSV, handed to the handler as the request stream itself and read as it arrives
 * (csv.ts): a 100,000-row file is never held whole, nor parsed in one go that stops the server.
 * Any other body (the JSON parser still answers JSON) is refused by the handler with SEND_CSV.
 */

/** The roster of the admin's institution (design sections 10 and 12). */
export const rosterRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  // Only in this plugin: nowhere else does the API take anything but JSON.
  // A declared length over the limit is refused before a byte is read; an undeclared one (chunked)
  // is counted as it streams.
  app.addContentTypeParser(['text/csv', 'application/csv'], (request, payload, done) => {
    if (Number(request.headers['content-length'] ?? 0) > LIMITS.rosterFileBytes.max)
      return done(new AppError('PAYLOAD_TOO_LARGE', TOO_LARGE), undefined);
    done(null, payload);
  });

  route(app, endpoints.listRoster, async (request, _reply, admin) => {
    const { q, group, offset, limit } = request.query;
    return listRoster({
      db: db.kysely,
      actor: auditActor(request, admin),
      ...(q === undefined ? {} : { search: q }),
      ...(group === undefined ? {} : { group }),
      offset,
      limit,
    });
  });

  route(
    app,
    endpoints.importRoster,
    async (request, _reply, admin) => {
      if (!(request.body instanceof Readable)) throw new AppError('VALIDATION_FAILED', SEND_CSV);
      return importRoster({
        db: db.kysely,
        actor: auditActor(request, admin),
        csv: request.body,
        limit: app.config.limits.rosterImports,
        missing: request.query.missing,
      });
    },
    {
      bodyLimit: LIMITS.rosterFileBytes.max,
      config: { rateLimit: routeLimit(LIMITS.rosterUploadsPerClient) },
    },
  );

  route(app, endpoints.markStudentLeft, async (request, _reply, scheduler) =>
    setStudentLeft({
      db: db.kysely,
      actor: auditActor(request, scheduler),
      studentId: request.params.id,
      left: request.body.left,
    }),
  );
};
