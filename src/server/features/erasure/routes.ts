import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse } from '../../../common/schemas/common';
import { ErasurePreviewResponse, ErasureRequest, ErasureResponse } from '../../../common/schemas/records';
import { writeTransaction } from '../../db/transaction-runner';
import { auditActor } from '../../lib/audit';
import { guardRoutes } from '../../lib/guards';
import { eraseStudent, previewErasure } from './service';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
const tags = ['institution'];

/**
 * Erasure of one student on request (design section 14), by admins. The address travels in the
 * body, never in the URL, so it stays out of request logs.
 */
export const erasureRoutes: FastifyPluginAsyncZod<{ erasureKey: Buffer }> = async (app, options) => {
  const { db } = app;
  const requireSettingsAdmin = guardRoutes(app, 'settings');

  app.post(
    '/api/erasures/preview/',
    {
      schema: {
        tags,
        summary:
          "What erasing a student's data would remove, by kind, and whether a hold or request stops it",
        body: ErasureRequest,
        response: { 200: ErasurePreviewResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return writeTransaction(db.kysely, (trx) =>
        previewErasure({
          db: trx,
          institutionId: admin.institutionId,
          actor: auditActor(request, admin),
          email: request.body.email,
          key: options.erasureKey,
        }),
      );
    },
  );

  app.post(
    '/api/erasures/',
    {
      schema: {
        tags,
        summary:
          "Erase a student's identifiable data; refused (409) under a legal hold or an open records request",
        body: ErasureRequest,
        response: { 200: ErasureResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return writeTransaction(db.kysely, (trx) =>
        eraseStudent({
          db: trx,
          institutionId: admin.institutionId,
          actor: auditActor(request, admin),
          email: request.body.email,
          key: options.erasureKey,
        }),
      );
    },
  );
};
