import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/drafts';
import { requireUser } from '../../lib/guards';
import { route } from '../../lib/route';
import * as service from './service';

/** Server-side drafts of logged-in users, one per (user, template); visitors keep theirs in the browser. */
export const draftRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  // Before body validation, so a visitor learns nothing from a 400.
  app.addHook('preValidation', async (request) => {
    requireUser(request);
  });

  route(app, endpoints.saveDraft, async (request) => {
    const { template_id: templateId, base_updated_at: baseUpdatedAt, ...content } = request.body;
    const updatedAt = await service.saveDraft({
      db: db.kysely,
      user: requireUser(request),
      templateId,
      content,
      baseUpdatedAt,
    });
    return { success: true as const, message: 'Draft saved', updated_at: updatedAt };
  });

  // The spec writes this path without the trailing slash; both spellings work.
  for (const entry of [endpoints.loadDraft, endpoints.loadDraftWithSlash]) {
    route(app, entry, async (request) => {
      const savedData = await service.loadDraft({
        db: db.kysely,
        user: requireUser(request),
        templateId: request.params.templateId,
      });
      return { success: true as const, saved_data: savedData };
    });
  }

  route(app, endpoints.clearDraft, async (request) => {
    await service.clearDraft({
      db: db.kysely,
      user: requireUser(request),
      templateId: request.params.templateId,
    });
    return { success: true as const, message: 'Draft cleared' };
  });
};
