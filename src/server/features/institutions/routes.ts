import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/institutions';
import { writeTransaction } from '../../db/transaction-runner';
import { auditActor } from '../../lib/audit';
import { route } from '../../lib/route';
import { getInstitutionSettings, updateInstitutionSettings } from './settings';

/** The institution's follow-up settings (design section 12): admins only. */
export const institutionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  route(app, endpoints.getInstitutionSettings, async (request, _reply, admin) => {
    return getInstitutionSettings({
      db: db.kysely,
      institutionId: admin.institutionId,
      actor: auditActor(request, admin),
    });
  });

  route(app, endpoints.updateInstitutionSettings, async (request, _reply, admin) => {
    return writeTransaction(db.kysely, (trx) =>
      updateInstitutionSettings({
        db: trx,
        institutionId: admin.institutionId,
        actor: auditActor(request, admin),
        settings: request.body,
      }),
    );
  });
};
