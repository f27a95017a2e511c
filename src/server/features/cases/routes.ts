import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Transaction } from 'kysely';
import { z } from 'zod';
import {
  AssignCaseRequest,
  CaseDetailResponse,
  CaseListQuery,
  CaseListResponse,
  CaseNoteRequest,
  ReopenCaseRequest,
  ResolveCaseRequest,
  StudentHistoryResponse,
} from '../../../common/schemas/cases';
import { ErrorResponse, IdParam } from '../../../common/schemas/common';
import { runInTransaction } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { auditActor } from '../../lib/audit';
import { guardRoutes } from '../../lib/guards';
import { announceChange } from '../../live';
import { caseJobKinds } from './jobs';
import type { CaseWorker } from './service';
import * as service from './service';
import { unprovenDigestJobKind } from './unproven';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
const CaseParams = z.object({ id: IdParam });
const StudentParams = z.object({ id: IdParam });
const tags = ['cases'];

/** Case work and student history (design sections 9 and 12): admins and counsellors. */
export const caseRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  // Every route here is case work: callers who may not do it are refused before a body is validated.
  const requireCaseWorker = guardRoutes(app, 'cases');
  const mailContext = { brandName: config.web.brandName, linkBase: config.mail.linkBase };
  for (const kind of [...caseJobKinds(mailContext), unprovenDigestJobKind(mailContext)]) {
    app.jobs.handle(kind);
  }

  app.get(
    '/api/cases/',
    {
      schema: {
        tags,
        summary: 'Cases of the institution: overdue first, then by deadline',
        querystring: CaseListQuery,
        response: { 200: CaseListResponse, ...errors },
      },
    },
    async (request) => {
      const worker = requireCaseWorker(request);
      return service.listCases({
        db: db.kysely,
        worker,
        actor: auditActor(request, worker),
        status: request.query.status,
        queue: request.query.queue,
      });
    },
  );

  app.get(
    '/api/cases/:id/',
    {
      schema: {
        tags,
        summary: "A case: the student's submissions in it, its event trail and the mail it sent",
        params: CaseParams,
        response: { 200: CaseDetailResponse, ...errors },
      },
    },
    async (request) => {
      const worker = requireCaseWorker(request);
      return service.getCase({
        db: db.kysely,
        worker,
        actor: auditActor(request, worker),
        caseId: request.params.id,
      });
    },
  );

  /** Runs one change to a case in its own transaction, then answers with the case as it is now. */
  const change = (
    request: FastifyRequest,
    caseId: number,
    work: (trx: Transaction<Database>, worker: CaseWorker) => Promise<void>,
  ) => {
    const worker = requireCaseWorker(request);
    const actor = auditActor(request, worker);
    return runInTransaction(db.kysely, async (trx, hooks) => {
      await work(trx, worker);
      // Open dashboards show case states and counts: they refresh once the change is committed.
      hooks.afterCommit((committed) => announceChange(committed, worker.institutionId));
      return service.getCase({ db: trx, worker, actor, caseId });
    });
  };

  app.post(
    '/api/cases/:id/acknowledge/',
    {
      schema: {
        tags,
        summary: 'Acknowledge the case: someone is on it, and escalations stop',
        params: CaseParams,
        response: { 200: CaseDetailResponse, ...errors },
      },
    },
    async (request) =>
      change(request, request.params.id, (trx, worker) =>
        service.acknowledgeCase({
          trx,
          worker,
          actor: auditActor(request, worker),
          caseId: request.params.id,
        }),
      ),
  );

  app.post(
    '/api/cases/:id/assign/',
    {
      schema: {
        tags,
        summary: 'Assign the case to an admin or counsellor of the institution',
        params: CaseParams,
        body: AssignCaseRequest,
        response: { 200: CaseDetailResponse, ...errors },
      },
    },
    async (request) =>
      change(request, request.params.id, (trx, worker) =>
        service.assignCase({
          trx,
          worker,
          actor: auditActor(request, worker),
          caseId: request.params.id,
          userId: request.body.user_id,
        }),
      ),
  );

  app.post(
    '/api/cases/:id/notes/',
    {
      schema: {
        tags,
        summary: 'Add a staff-only note to the case',
        params: CaseParams,
        body: CaseNoteRequest,
        response: { 200: CaseDetailResponse, ...errors },
      },
    },
    async (request) =>
      change(request, request.params.id, (trx, worker) =>
        service.addCaseNote({
          trx,
          worker,
          actor: auditActor(request, worker),
          caseId: request.params.id,
          text: request.body.text,
        }),
      ),
  );

  app.post(
    '/api/cases/:id/resolve/',
    {
      schema: {
        tags,
        summary: 'Resolve the case with an outcome and an optional note',
        params: CaseParams,
        body: ResolveCaseRequest,
        response: { 200: CaseDetailResponse, ...errors },
      },
    },
    async (request) =>
      change(request, request.params.id, (trx, worker) =>
        service.resolveCase({
          trx,
          worker,
          actor: auditActor(request, worker),
          caseId: request.params.id,
          outcome: request.body.outcome,
          ...(request.body.note === undefined ? {} : { note: request.body.note }),
        }),
      ),
  );

  app.post(
    '/api/cases/:id/reopen/',
    {
      schema: {
        tags,
        summary: 'Reopen a resolved case: it waits for acknowledgement again, its deadline counted from now',
        params: CaseParams,
        body: ReopenCaseRequest,
        response: { 200: CaseDetailResponse, ...errors },
      },
    },
    async (request) =>
      change(request, request.params.id, (trx, worker) =>
        service.reopenCase({
          trx,
          worker,
          actor: auditActor(request, worker),
          caseId: request.params.id,
          ...(request.body.note === undefined ? {} : { note: request.body.note }),
        }),
      ),
  );

  app.get(
    '/api/students/:id/history/',
    {
      schema: {
        tags,
        summary:
          "A student's submissions with tiers, reasons and category means, the change from their own baseline, and their cases",
        params: StudentParams,
        response: { 200: StudentHistoryResponse, ...errors },
      },
    },
    async (request) => {
      const worker = requireCaseWorker(request);
      return service.getStudentHistory({
        db: db.kysely,
        worker,
        actor: auditActor(request, worker),
        studentId: request.params.id,
      });
    },
  );
};
