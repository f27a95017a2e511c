import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/retention';
import { writeTransaction } from '../../db/transaction-runner';
import { auditActor } from '../../lib/audit';
import { route } from '../../lib/route';
import { now } from '../../lib/time';
import { purgeJobKind, scheduleNextPurge } from './purge';
import { getRetentionSettings, updateRetentionSettings } from './settings';

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

  route(app, endpoints.getRetention, async (request, _reply, admin) => {
    return getRetentionSettings({
      db: db.kysely,
      institutionId: admin.institutionId,
      actor: auditActor(request, admin),
      at: now(),
    });
  });

  route(app, endpoints.updateRetention, async (request, _reply, admin) => {
    return writeTransaction(db.kysely, (trx) =>
      updateRetentionSettings({
        db: trx,
        institutionId: admin.institutionId,
        actor: auditActor(request, admin),
        settings: request.body,
        at: now(),
      }),
    );
  });
};
