import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/legal-holds';
import { writeTransaction } from '../../db/transaction-runner';
import { auditActor } from '../../lib/audit';
import { route } from '../../lib/route';
import { liftLegalHold, listLegalHolds, placeLegalHold } from './service';

/** Legal holds per student (design section 14): admins, with the institution's settings. */
export const legalHoldRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  route(app, endpoints.listLegalHolds, async (request, _reply, admin) => {
    return listLegalHolds({
      db: db.kysely,
      institutionId: admin.institutionId,
      actor: auditActor(request, admin),
    });
  });

  route(app, endpoints.placeLegalHold, async (request, _reply, admin) => {
    return writeTransaction(db.kysely, (trx) =>
      placeLegalHold({
        db: trx,
        institutionId: admin.institutionId,
        actor: { ...auditActor(request, admin), userId: admin.id },
        request: request.body,
      }),
    );
  });

  route(app, endpoints.liftLegalHold, async (request, _reply, admin) => {
    return writeTransaction(db.kysely, (trx) =>
      liftLegalHold({
        db: trx,
        institutionId: admin.institutionId,
        actor: auditActor(request, admin),
        id: request.params.id,
        reason: request.body.reason,
      }),
    );
  });
};
