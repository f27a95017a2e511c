import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Transaction } from 'kysely';
import { z } from 'zod';
import {
  AssignCaseRequest,
  CaseDetailResponse,
  CaseFilters,
  CaseListQuery,
  CaseListResponse,
  CaseNoteRequest,
  ReopenCaseRequest,
  ResolveCaseRequest,
  StudentHistoryResponse,
} from '../../../common/schemas/cases';
import { ErrorResponse, IdParam } from '../../../common/schemas/common';
import { carriesStudentData } from '../../../common/schemas/identity';
import { writeTransaction } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { auditActor } from '../../lib/audit';
import { guardRoutes } from '../../lib/guards';
import { csvExportLimit } from '../../lib/limits';
import { now } from '../../lib/time';
import { announceChange } from '../../live';
import { caseJobKinds } from './jobs';
import { exportCasesCsv, listCases, recordCaseExport } from './list';
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

/** Streams are sent as-is; the typed reply only knows the JSON bodies of the schema. */
function sendStream(reply: FastifyReply, body: Readable) {
  return reply.send(body);
}

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
        summary:
          "One page of the institution's cases: filtered, searched by student name or email, sorted (by default overdue first, then by deadline)",
        querystring: CaseListQuery,
        response: { 200: CaseListResponse, ...errors },
      },
    },
    async (request) => {
      const worker = requireCaseWorker(request);
      return listCases({ db: db.kysely, worker, actor: auditActor(request, worker), query: request.query });
    },
  );

  app.get(
    '/api/cases/export.csv',
    {
      schema: {
        tags,
        summary: 'The cases as the list shows them (same filters, search and order, every page) as CSV',
        querystring: CaseFilters,
        response: {
          200: carriesStudentData(z.string().check(z.describe('text/csv'))),
          429: ErrorResponse,
          ...errors,
        },
      },
      config: { rateLimit: csvExportLimit(config) },
    },
    async (request, reply) => {
      const worker = requireCaseWorker(request);
      const filters = request.query;
      await recordCaseExport(db.kysely, auditActor(request, worker), filters);
      const date = new Date(now()).toISOString().slice(0, 10);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="cases-${date}.csv"`)
        .header('cache-control', 'no-store');
      return sendStream(reply, Readable.from(exportCasesCsv({ db: db.kysely, worker, filters })));
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
    return writeTransaction(db.kysely, async (trx, hooks) => {
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
