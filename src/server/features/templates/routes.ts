import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse, IdParam, SuccessMessage } from '../../../common/schemas/common';
import {
  AddInstrumentBlockResponse,
  AddQuestionResponse,
  CreateTemplateResponse,
  DeleteQuestionRequest,
  DeleteTemplateRequest,
  MoveQuestionRequest,
  MoveQuestionResponse,
  NewInstrumentBlockRequest,
  NewQuestionRequest,
  QuestionListResponse,
  TemplateListResponse,
} from '../../../common/schemas/templates';
import { auditActor } from '../../lib/audit';
import { guardRoutes } from '../../lib/guards';
import * as service from './service';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
const TemplateParams = z.object({ id: IdParam });
const TemplateQuestionParams = z.object({ id: IdParam, questionId: IdParam });
const tags = ['templates'];

/** Template and question management: institution admins, their own institution only. */
export const templateRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const requireAdmin = guardRoutes(app, 'templates');

  app.get(
    '/api/survey-templates/',
    {
      schema: {
        tags,
        summary: "The institution's survey templates",
        response: { 200: TemplateListResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const templates = await service.listTemplates({ db: db.kysely, institutionId: admin.institutionId });
      return { success: true as const, templates };
    },
  );

  app.post(
    '/api/survey-templates/',
    {
      schema: {
        tags,
        summary: 'Create an empty template',
        response: { 201: CreateTemplateResponse, ...errors },
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const template = await service.createTemplate({
        db: db.kysely,
        institutionId: admin.institutionId,
        actor: auditActor(request, admin),
      });
      return reply.status(201).send({ success: true as const, message: 'Template created!', template });
    },
  );

  app.delete(
    '/api/survey-templates/',
    {
      schema: {
        tags,
        summary: 'Delete a template with its questions; if it was active, none is active afterwards',
        body: DeleteTemplateRequest,
        response: { 200: SuccessMessage, ...errors },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      await service.deleteTemplate({
        db: db.kysely,
        actor: auditActor(request, admin),
        institutionId: admin.institutionId,
        templateId: request.body.template_id,
      });
      return { success: true as const, message: 'Template deleted!' };
    },
  );

  app.post(
    '/api/survey-templates/:id/use/',
    {
      schema: {
        tags,
        summary: 'Make this the active template (deactivates the one that was)',
        params: TemplateParams,
        response: { 200: SuccessMessage, ...errors },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      await service.activateTemplate({
        db: db.kysely,
        actor: auditActor(request, admin),
        institutionId: admin.institutionId,
        templateId: request.params.id,
      });
      return { success: true as const, message: 'Template activated successfully!' };
    },
  );

  app.get(
    '/api/survey-templates/:id/questions/',
    {
      schema: {
        tags,
        summary: "A template's questions, by order then id",
        params: TemplateParams,
        response: { 200: QuestionListResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const questions = await service.listQuestions({
        db: db.kysely,
        institutionId: admin.institutionId,
        templateId: request.params.id,
      });
      return { success: true as const, questions };
    },
  );

  app.post(
    '/api/survey-templates/:id/questions/',
    {
      schema: {
        tags,
        summary: 'Add a question to a template',
        params: TemplateParams,
        body: NewQuestionRequest,
        response: { 201: AddQuestionResponse, ...errors },
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const body = request.body;
      const question = await service.addQuestion({
        db: db.kysely,
        actor: auditActor(request, admin),
        institutionId: admin.institutionId,
        templateId: request.params.id,
        questionText: body.question_text,
        questionType: body.question_type,
        category: body.question_category,
        order: body.order,
        answerChoices: body.answer_choices,
      });
      return reply.status(201).send({ success: true as const, message: 'Question added!', question });
    },
  );

  app.delete(
    '/api/survey-templates/:id/questions/',
    {
      schema: {
        tags,
        summary: 'Delete a question of a template',
        params: TemplateParams,
        body: DeleteQuestionRequest,
        response: { 200: SuccessMessage, ...errors },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      await service.deleteQuestion({
        db: db.kysely,
        actor: auditActor(request, admin),
        institutionId: admin.institutionId,
        templateId: request.params.id,
        questionId: request.body.question_id,
      });
      return { success: true as const, message: 'Question deleted!' };
    },
  );

  app.post(
    '/api/survey-templates/:id/instruments/',
    {
      schema: {
        tags,
        summary: 'Add a validated instrument as one locked block (its wording and scale cannot be edited)',
        params: TemplateParams,
        body: NewInstrumentBlockRequest,
        response: { 201: AddInstrumentBlockResponse, ...errors },
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const question = await service.addInstrumentBlock({
        db: db.kysely,
        actor: auditActor(request, admin),
        institutionId: admin.institutionId,
        templateId: request.params.id,
        instrumentId: request.body.instrument_id,
        order: request.body.order,
      });
      return reply.status(201).send({ success: true as const, message: 'Instrument added!', question });
    },
  );

  app.patch(
    '/api/survey-templates/:id/questions/:questionId/',
    {
      schema: {
        tags,
        summary: 'Move a question or an instrument block; nothing but its order can change',
        params: TemplateQuestionParams,
        body: MoveQuestionRequest,
        response: { 200: MoveQuestionResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const question = await service.moveQuestion({
        db: db.kysely,
        actor: auditActor(request, admin),
        institutionId: admin.institutionId,
        templateId: request.params.id,
        questionId: request.params.questionId,
        order: request.body.order,
      });
      return { success: true as const, message: 'Question moved!', question };
    },
  );
};
