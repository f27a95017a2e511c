import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { ErrorResponse, IdParam, SuccessMessage } from '../../../common/schemas/common';
import {
  OpenRecordsRequest,
  RecordsRequestResponse,
  RecordsRequestsResponse,
} from '../../../common/schemas/records';
import { writeTransaction } from '../../db/transaction-runner';
import { auditActor } from '../../lib/audit';
import { guardRoutes } from '../../lib/guards';
import { now } from '../../lib/time';
import { fulfilRecordsRequest, listRecordsRequests, openRecordsRequest } from './service';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
const tags = ['institution'];

/** Students' requests for their records (design section 14): admins, with the other privacy settings. */
export const recordsRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const requireSettingsAdmin = guardRoutes(app, 'settings');

  app.get(
    '/api/records-requests/',
    {
      schema: {
        tags,
        summary: "Students' records requests, newest first, each with its 45-day deadline",
        response: { 200: RecordsRequestsResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return listRecordsRequests({
        db: db.kysely,
        institutionId: admin.institutionId,
        actor: auditActor(request, admin),
        at: now(),
      });
    },
  );

  app.post(
    '/api/records-requests/',
    {
      schema: {
        tags,
        summary:
          "Open a student's records request, due in 45 days; their data cannot be erased while it is open",
        body: OpenRecordsRequest,
        response: { 200: RecordsRequestResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return writeTransaction(db.kysely, (trx) =>
        openRecordsRequest({
          db: trx,
          institutionId: admin.institutionId,
          actor: { ...auditActor(request, admin), userId: admin.id },
          request: request.body,
          at: now(),
        }),
      );
    },
  );

  app.post(
    '/api/records-requests/:id/fulfil/',
    {
      schema: {
        tags,
        summary: 'Mark a records request fulfilled: the records were given to the student',
        params: z.object({ id: IdParam }),
        response: { 200: SuccessMessage, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return writeTransaction(db.kysely, (trx) =>
        fulfilRecordsRequest({
          db: trx,
          institutionId: admin.institutionId,
          actor: { ...auditActor(request, admin), userId: admin.id },
          id: request.params.id,
          at: now(),
        }),
      );
    },
  );
};
