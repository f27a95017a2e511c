import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse } from '../../../common/schemas/common';
import {
  ROSTER_MAX_BYTES,
  RosterImportResponse,
  RosterPage,
  RosterQuery,
} from '../../../common/schemas/roster';
import { auditActor } from '../../lib/audit';
import { guardRoutes, requireAdmin } from '../../lib/guards';
import { importRoster, listRoster } from './service';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  413: ErrorResponse,
  415: ErrorResponse,
};
const tags = ['roster'];
const UPLOADS_PER_MINUTE = 30;

/** The registrar's CSV, read as text (the JSON parser still answers JSON bodies, which the schema refuses). */
const CsvBody = z.string({ error: 'Send the roster as a CSV file (Content-Type: text/csv)' }).meta({
  description:
    'The CSV file: a header row naming name, email and optionally group, then one student per line.',
});

/** The roster of the admin's institution (design sections 10 and 12). */
export const rosterRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  // Only in this plugin: nowhere else does the API take anything but JSON.
  app.addContentTypeParser(
    ['text/csv', 'application/csv'],
    { parseAs: 'string', bodyLimit: ROSTER_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
  guardRoutes(app, 'schedule');

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
      const admin = requireAdmin(request);
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
      bodyLimit: ROSTER_MAX_BYTES,
      config: { rateLimit: { max: UPLOADS_PER_MINUTE, timeWindow: 60_000 } },
      schema: {
        tags,
        summary: "Import the registrar's CSV",
        description:
          'Adds new students and updates the name and group of those already on the roster (by address); nobody is ever listed twice. Bad lines are reported by line number and skipped; a file that cannot be read as a roster at all changes nothing.',
        consumes: ['text/csv'],
        body: CsvBody,
        response: { 200: RosterImportResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      return importRoster({ db: db.kysely, actor: auditActor(request, admin), csv: request.body });
    },
  );
};
