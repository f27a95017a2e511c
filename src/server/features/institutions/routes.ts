import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse } from '../../../common/schemas/common';
import { InstitutionSettings, InstitutionSettingsResponse } from '../../../common/schemas/settings';
import { writeTransaction } from '../../db/transaction-runner';
import { auditActor } from '../../lib/audit';
import { guardRoutes } from '../../lib/guards';
import { getInstitutionSettings, updateInstitutionSettings } from './settings';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const tags = ['institution'];

/** The institution's follow-up settings (design section 12): admins only. */
export const institutionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  // Before the body is read: a caller who may not change the settings learns nothing from a 400.
  const requireSettingsAdmin = guardRoutes(app, 'settings');

  app.get(
    '/api/institution/settings/',
    {
      schema: {
        tags,
        summary: 'Alert and escalation contacts, acknowledgement deadlines, time zone and crisis resources',
        response: { 200: InstitutionSettingsResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return getInstitutionSettings({
        db: db.kysely,
        institutionId: admin.institutionId,
        actor: auditActor(request, admin),
      });
    },
  );

  app.put(
    '/api/institution/settings/',
    {
      schema: {
        tags,
        summary: 'Replace the follow-up settings; deadlines apply to cases opened from now on',
        body: InstitutionSettings,
        response: { 200: InstitutionSettingsResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return writeTransaction(db.kysely, (trx) =>
        updateInstitutionSettings({
          db: trx,
          institutionId: admin.institutionId,
          actor: auditActor(request, admin),
          settings: request.body,
        }),
      );
    },
  );
};
