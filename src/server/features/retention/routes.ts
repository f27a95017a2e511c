import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse } from '../../../common/schemas/common';
import { RetentionSettings, RetentionSettingsResponse } from '../../../common/schemas/retention';
import { writeTransaction } from '../../db/transaction-runner';
import { auditActor } from '../../lib/audit';
import { guardRoutes } from '../../lib/guards';
import { now } from '../../lib/time';
import { purgeJobKind, scheduleNextPurge } from './purge';
import { getRetentionSettings, updateRetentionSettings } from './settings';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const tags = ['institution'];

/** Retention periods (design section 14) and the daily purge that applies them. */
export const retentionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  app.jobs.handle(purgeJobKind);
  // Every instance makes sure a purge is scheduled; the day's key keeps it to one. Later days
  // are scheduled by each purge. A database away at start only delays this to the next start.
  app.addHook('onReady', async () => {
    try {
      await scheduleNextPurge(db.kysely, now());
    } catch (error) {
      app.log.warn({ err: error }, 'the daily purge could not be scheduled at start');
    }
  });
  const requireSettingsAdmin = guardRoutes(app, 'settings');

  app.get(
    '/api/institution/retention/',
    {
      schema: {
        tags,
        summary: 'How long answers, closed cases and the audit log are kept, and what the next purge removes',
        response: { 200: RetentionSettingsResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return getRetentionSettings({
        db: db.kysely,
        institutionId: admin.institutionId,
        actor: auditActor(request, admin),
        at: now(),
      });
    },
  );

  app.put(
    '/api/institution/retention/',
    {
      schema: {
        tags,
        summary: 'Replace the retention periods, in months; the next purge follows them',
        body: RetentionSettings,
        response: { 200: RetentionSettingsResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireSettingsAdmin(request);
      return writeTransaction(db.kysely, (trx) =>
        updateRetentionSettings({
          db: trx,
          institutionId: admin.institutionId,
          actor: auditActor(request, admin),
          settings: request.body,
          at: now(),
        }),
      );
    },
  );
};
