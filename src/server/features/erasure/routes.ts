import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/erasure';
import { writeTransaction } from '../../db/transaction-runner';
import { auditActor } from '../../lib/audit';
import { route } from '../../lib/route';
import { eraseStudent, previewErasure } from './service';

/**
 * Erasure of one student on request (design section 14), by admins. The address travels in the
 * body, never in the URL, so it stays out of request logs.
 */
export const erasureRoutes: FastifyPluginAsyncZod<{ erasureKey: Buffer }> = async (app, options) => {
  const { db } = app;

  route(app, endpoints.previewErasure, async (request, _reply, admin) => {
    return writeTransaction(db.kysely, (trx) =>
      previewErasure({
        db: trx,
        institutionId: admin.institutionId,
        actor: auditActor(request, admin),
        email: request.body.email,
        key: options.erasureKey,
      }),
    );
  });

  route(app, endpoints.eraseStudent, async (request, _reply, admin) => {
    return writeTransaction(db.kysely, (trx) =>
      eraseStudent({
        db: trx,
        institutionId: admin.institutionId,
        actor: auditActor(request, admin),
        email: request.body.email,
        key: options.erasureKey,
      }),
    );
  });
};
