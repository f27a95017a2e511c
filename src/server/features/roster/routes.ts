import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse, IdParam } from '../../../common/schemas/common';
import {
  RosterImportQuery,
  RosterImportResponse,
  RosterLeftRequest,
  RosterPage,
  RosterQuery,
  RosterStudentResponse,
} from '../../../common/schemas/roster';
import { auditActor } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { guardRoutes } from '../../lib/guards';
import { LIMITS, routeLimit } from '../../limit-table';
import { TOO_LARGE } from './csv';
import { importRoster, listRoster, setStudentLeft } from './service';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  413: ErrorResponse,
  415: ErrorResponse,
  429: ErrorResponse,
};
const tags = ['roster'];
const SEND_CSV = 'Send the roster as a CSV file (Content-Type: text/csv)';

/**
 * The registrar's CSV, handed to the handler as the request stream itself and read as it arrives
 * (csv.ts): a 100,000-row file is never held whole, nor parsed in one go that stops the server.
 * Any other body (the JSON parser still answers JSON) is refused by the handler with SEND_CSV.
 */
const CsvBody = z.any().meta({
  description:
    'The CSV file (Content-Type: text/csv): a header row naming name, email and optionally group, then one student per line.',
});

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
  const requireScheduler = guardRoutes(app, 'schedule');

  app.get(
    '/api/roster/',
    {
      schema: {
        tags,
        summary: "A page of the institution's roster, by name",
        description: 'q searches names and addresses; group keeps one group.',
        querystring: RosterQuery,
        response: { 200: RosterPage, ...errors },
      },
    },
    async (request) => {
      const admin = requireScheduler(request);
      const { q, group, offset, limit } = request.query;
      return listRoster({
        db: db.kysely,
        actor: auditActor(request, admin),
        ...(q === undefined ? {} : { search: q }),
        ...(group === undefined ? {} : { group }),
        offset,
        limit,
      });
    },
  );

  app.post(
    '/api/roster/',
    {
      bodyLimit: LIMITS.rosterFileBytes.max,
      config: { rateLimit: routeLimit(LIMITS.rosterUploadsPerClient) },
      schema: {
        tags,
        summary: "Import the registrar's CSV",
        description:
          'Adds new students and updates the name and group of those already on the roster (by address); nobody is ever listed twice, and a student marked as left whom the file lists is back. Bad lines are reported by line number and skipped; a file that cannot be read as a roster at all changes nothing. missing=leave marks as left the students on the roster whom the file does not list (missing=keep, the default, keeps them).',
        consumes: ['text/csv'],
        querystring: RosterImportQuery,
        body: CsvBody,
        response: { 200: RosterImportResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireScheduler(request);
      if (!(request.body instanceof Readable)) throw new AppError('VALIDATION_FAILED', SEND_CSV);
      return importRoster({
        db: db.kysely,
        actor: auditActor(request, admin),
        csv: request.body,
        limit: app.config.limits.rosterImports,
        missing: request.query.missing,
      });
    },
  );

  app.post(
    '/api/roster/students/:id/left/',
    {
      schema: {
        tags,
        summary: 'Mark a student as having left, or back on the roster',
        description:
          'left: true stops their invitations and takes them out of the response rate; their answers stay. left: false undoes it.',
        params: z.object({ id: IdParam }),
        body: RosterLeftRequest,
        response: { 200: RosterStudentResponse, ...errors },
      },
    },
    async (request) =>
      setStudentLeft({
        db: db.kysely,
        actor: auditActor(request, requireScheduler(request)),
        studentId: request.params.id,
        left: request.body.left,
      }),
  );
};
