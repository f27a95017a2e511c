import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse, IdParam, SuccessMessage } from '../../../common/schemas/common';
import { AutosaveRequest, AutosaveResponse, LoadDraftResponse } from '../../../common/schemas/surveys';
import { requireUser } from '../../lib/guards';
import * as service from './service';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  413: ErrorResponse,
};
const TemplateParams = z.object({ templateId: IdParam });
const tags = ['drafts'];

/** Server-side drafts of logged-in users, one per (user, template); visitors keep theirs in the browser. */
export const draftRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  // Before body validation, so a visitor learns nothing from a 400.
  app.addHook('preValidation', async (request) => {
    requireUser(request);
  });

  app.post(
    '/api/autosave/',
    {
      schema: {
        tags,
        summary: "Save the user's draft of a survey (replaces the previous one, or the given version only)",
        body: AutosaveRequest,
        response: { 200: AutosaveResponse, ...errors },
      },
    },
    async (request) => {
      const { template_id: templateId, base_updated_at: baseUpdatedAt, ...content } = request.body;
      const updatedAt = await service.saveDraft({
        db: db.kysely,
        user: requireUser(request),
        templateId,
        content,
        baseUpdatedAt,
      });
      return { success: true as const, message: 'Draft saved', updated_at: updatedAt };
    },
  );

  // The spec writes this path without the trailing slash; both spellings work.
  for (const url of ['/api/autosave/load/:templateId', '/api/autosave/load/:templateId/']) {
    app.get(
      url,
      {
        schema: {
          tags,
          summary: "The user's draft of a survey, or null",
          params: TemplateParams,
          response: { 200: LoadDraftResponse, ...errors },
        },
      },
      async (request) => {
        const savedData = await service.loadDraft({
          db: db.kysely,
          user: requireUser(request),
          templateId: request.params.templateId,
        });
        return { success: true as const, saved_data: savedData };
      },
    );
  }

  app.delete(
    '/api/autosave/clear/:templateId/',
    {
      schema: {
        tags,
        summary: "Delete the user's draft of a survey (Start fresh)",
        params: TemplateParams,
        response: { 200: SuccessMessage, ...errors },
      },
    },
    async (request) => {
      await service.clearDraft({
        db: db.kysely,
        user: requireUser(request),
        templateId: request.params.templateId,
      });
      return { success: true as const, message: 'Draft cleared' };
    },
  );
};
