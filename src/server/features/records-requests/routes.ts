import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/records-requests';
import { writeTransaction } from '../../db/transaction-runner';
import { auditActor } from '../../lib/audit';
import { route } from '../../lib/route';
import { now } from '../../lib/time';
import { fulfilRecordsRequest, listRecordsRequests, openRecordsRequest } from './service';

/** Students' requests for their records (design section 14): admins, with the other privacy settings. */
export const recordsRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  route(app, endpoints.listRecordsRequests, async (request, _reply, admin) => {
    return listRecordsRequests({
      db: db.kysely,
      institutionId: admin.institutionId,
      actor: auditActor(request, admin),
      at: now(),
    });
  });

  route(app, endpoints.openRecordsRequest, async (request, _reply, admin) => {
    return writeTransaction(db.kysely, (trx) =>
      openRecordsRequest({
        db: trx,
        institutionId: admin.institutionId,
        actor: { ...auditActor(request, admin), userId: admin.id },
        request: request.body,
        at: now(),
      }),
    );
  });

  route(app, endpoints.fulfilRecordsRequest, async (request, _reply, admin) => {
    return writeTransaction(db.kysely, (trx) =>
      fulfilRecordsRequest({
        db: trx,
        institutionId: admin.institutionId,
        actor: { ...auditActor(request, admin), userId: admin.id },
        id: request.params.id,
        at: now(),
      }),
    );
  });
};
