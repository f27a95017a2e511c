import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/templates';
import { auditActor } from '../../lib/audit';
import { route } from '../../lib/route';
import * as service from './service';

/** Template and question management: institution admins, their own institution only. */
export const templateRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  route(app, endpoints.listTemplates, async (_request, _reply, admin) => {
    const templates = await service.listTemplates({ db: db.kysely, institutionId: admin.institutionId });
    return { success: true as const, templates };
  });

  route(app, endpoints.createTemplate, async (request, reply, admin) => {
    const template = await service.createTemplate({
      db: db.kysely,
      institutionId: admin.institutionId,
      actor: auditActor(request, admin),
    });
    return reply.status(201).send({ success: true as const, message: 'Template created!', template });
  });

  route(app, endpoints.deleteTemplate, async (request, _reply, admin) => {
    await service.deleteTemplate({
      db: db.kysely,
      actor: auditActor(request, admin),
      institutionId: admin.institutionId,
      templateId: request.body.template_id,
    });
    return { success: true as const, message: 'Template deleted!' };
  });

  route(app, endpoints.activateTemplate, async (request, _reply, admin) => {
    await service.activateTemplate({
      db: db.kysely,
      actor: auditActor(request, admin),
      institutionId: admin.institutionId,
      templateId: request.params.id,
    });
    return { success: true as const, message: 'Template activated successfully!' };
  });

  route(app, endpoints.listQuestions, async (request, _reply, admin) => {
    const questions = await service.listQuestions({
      db: db.kysely,
      institutionId: admin.institutionId,
      templateId: request.params.id,
    });
    return { success: true as const, questions };
  });

  route(app, endpoints.addQuestion, async (request, reply, admin) => {
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
  });

  route(app, endpoints.deleteQuestion, async (request, _reply, admin) => {
    await service.deleteQuestion({
      db: db.kysely,
      actor: auditActor(request, admin),
      institutionId: admin.institutionId,
      templateId: request.params.id,
      questionId: request.body.question_id,
    });
    return { success: true as const, message: 'Question deleted!' };
  });

  route(app, endpoints.addInstrument, async (request, reply, admin) => {
    const question = await service.addInstrumentBlock({
      db: db.kysely,
      actor: auditActor(request, admin),
      institutionId: admin.institutionId,
      templateId: request.params.id,
      instrumentId: request.body.instrument_id,
      order: request.body.order,
    });
    return reply.status(201).send({ success: true as const, message: 'Instrument added!', question });
  });

  route(app, endpoints.moveQuestion, async (request, _reply, admin) => {
    const question = await service.moveQuestion({
      db: db.kysely,
      actor: auditActor(request, admin),
      institutionId: admin.institutionId,
      templateId: request.params.id,
      questionId: request.params.questionId,
      order: request.body.order,
    });
    return { success: true as const, message: 'Question moved!', question };
  });

  route(app, endpoints.setQuestionTranslation, async (request, _reply, admin) => {
    const translation = await service.setQuestionTranslation({
      db: db.kysely,
      actor: auditActor(request, admin),
      institutionId: admin.institutionId,
      templateId: request.params.id,
      questionId: request.params.questionId,
      language: request.params.language,
      questionText: request.body.question_text,
      answerChoices: request.body.answer_choices,
      translatedBy: admin.id,
    });
    return { success: true as const, message: 'Translation saved!', translation };
  });

  route(app, endpoints.deleteQuestionTranslation, async (request, _reply, admin) => {
    await service.deleteQuestionTranslation({
      db: db.kysely,
      actor: auditActor(request, admin),
      institutionId: admin.institutionId,
      templateId: request.params.id,
      questionId: request.params.questionId,
      language: request.params.language,
    });
    return { success: true as const, message: 'Translation deleted!' };
  });
};
