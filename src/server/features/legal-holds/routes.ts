import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { ErrorResponse, IdParam, SuccessMessage } from '../../../common/schemas/common';
import {
  LegalHoldResponse,
  LegalHoldsResponse,
  LiftLegalHold,
  PlaceLegalHold,
} from '../../../common/schemas/retention';
import { writeTransaction } from '../../db/transaction-runner';
import { auditActor } from '../../lib/audit';
import { guardRoutes } from '../../lib/guards';
import { liftLegalHold, listLegalHolds, placeLegalHold } from './service';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
const tags = ['institution'];

/** Legal holds per student (design section 14): admins, with the institution's settings. */
export const legalHoldRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const requireSettingsAdmin = guardRoutes(app, 'settings');

  app.get(
    '/api/legal-holds/',
    {
      schema: {
        tags,
        summary: 'Students under a legal hold, whose data no purge or erasure touches',
        response: { 200: LegalHoldsResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return listLegalHolds({
        db: db.kysely,
        institutionId: admin.institutionId,
        actor: auditActor(request, admin),
      });
    },
  );

  app.post(
    '/api/legal-holds/',
    {
      schema: {
        tags,
        summary: "Place a legal hold on a student's data, with the reason",
        body: PlaceLegalHold,
        response: { 200: LegalHoldResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return writeTransaction(db.kysely, (trx) =>
        placeLegalHold({
          db: trx,
          institutionId: admin.institutionId,
          actor: { ...auditActor(request, admin), userId: admin.id },
          request: request.body,
        }),
      );
    },
  );

  app.post(
    '/api/legal-holds/:id/lift/',
    {
      schema: {
        tags,
        summary: 'Lift a legal hold, with the reason; the retention periods apply again',
        params: z.object({ id: IdParam }),
        body: LiftLegalHold,
        response: { 200: SuccessMessage, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return writeTransaction(db.kysely, (trx) =>
        liftLegalHold({
          db: trx,
          institutionId: admin.institutionId,
          actor: auditActor(request, admin),
          id: request.params.id,
          reason: request.body.reason,
        }),
      );
    },
  );
};
