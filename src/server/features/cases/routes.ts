import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Transaction } from 'kysely';
import * as endpoints from '../../../common/endpoints/cases';
import { writeTransaction } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { type AuditActor, auditActor } from '../../lib/audit';
import { csvExportLimit } from '../../lib/limits';
import { route } from '../../lib/route';
import { now } from '../../lib/time';
import { announceChange } from '../../live';
import { caseJobKinds } from './jobs';
import { exportCasesCsv, listCases, recordCaseExport } from './list';
import type { CaseWorker } from './service';
import * as service from './service';
import { unprovenDigestJobKind } from './unproven';

/** Case work and student history (design sections 9 and 12): admins and counsellors. */
export const caseRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  const mailContext = { brandName: config.web.brandName, linkBase: config.mail.linkBase };
  for (const kind of [...caseJobKinds(mailContext), unprovenDigestJobKind(mailContext)]) {
    app.jobs.handle(kind);
  }

  route(app, endpoints.listCases, async (request, _reply, worker) =>
    listCases({ db: db.kysely, worker, actor: auditActor(request, worker), query: request.query }),
  );

  route(
    app,
    endpoints.exportCases,
    async (request, reply, worker) => {
      const filters = request.query;
      await recordCaseExport(db.kysely, auditActor(request, worker), filters);
      const date = new Date(now()).toISOString().slice(0, 10);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="cases-${date}.csv"`)
        .header('cache-control', 'no-store');
      return reply.send(Readable.from(exportCasesCsv({ db: db.kysely, worker, filters })));
    },
    { config: { rateLimit: csvExportLimit(config) } },
  );

  route(app, endpoints.getCase, async (request, _reply, worker) =>
    service.getCase({
      db: db.kysely,
      worker,
      actor: auditActor(request, worker),
      caseId: request.params.id,
    }),
  );

  /** Runs one change to a case in its own transaction, then answers with the case as it is now. */
  const change = (
    request: FastifyRequest,
    worker: CaseWorker,
    caseId: number,
    work: (trx: Transaction<Database>, actor: AuditActor) => Promise<void>,
  ) => {
    const actor = auditActor(request, worker);
    return writeTransaction(db.kysely, async (trx, hooks) => {
      await work(trx, actor);
      // Open dashboards show case states and counts: they refresh once the change is committed.
      hooks.afterCommit((committed) => announceChange(committed, worker.institutionId));
      return service.getCase({ db: trx, worker, actor, caseId });
    });
  };

  route(app, endpoints.acknowledgeCase, async (request, _reply, worker) =>
    change(request, worker, request.params.id, (trx, actor) =>
      service.acknowledgeCase({ trx, worker, actor, caseId: request.params.id }),
    ),
  );

  route(app, endpoints.assignCase, async (request, _reply, worker) =>
    change(request, worker, request.params.id, (trx, actor) =>
      service.assignCase({ trx, worker, actor, caseId: request.params.id, userId: request.body.user_id }),
    ),
  );

  route(app, endpoints.addCaseNote, async (request, _reply, worker) =>
    change(request, worker, request.params.id, (trx, actor) =>
      service.addCaseNote({ trx, worker, actor, caseId: request.params.id, text: request.body.text }),
    ),
  );

  route(app, endpoints.resolveCase, async (request, _reply, worker) =>
    change(request, worker, request.params.id, (trx, actor) =>
      service.resolveCase({
        trx,
        worker,
        actor,
        caseId: request.params.id,
        outcome: request.body.outcome,
        ...(request.body.note === undefined ? {} : { note: request.body.note }),
      }),
    ),
  );

  route(app, endpoints.reopenCase, async (request, _reply, worker) =>
    change(request, worker, request.params.id, (trx, actor) =>
      service.reopenCase({
        trx,
        worker,
        actor,
        caseId: request.params.id,
        ...(request.body.note === undefined ? {} : { note: request.body.note }),
      }),
    ),
  );

  route(app, endpoints.getStudentHistory, async (request, _reply, worker) =>
    service.getStudentHistory({
      db: db.kysely,
      worker,
      actor: auditActor(request, worker),
      studentId: request.params.id,
    }),
  );
};
