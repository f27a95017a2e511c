import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RETRY_AFTER_SECONDS } from '../../lib/errors';
import { checkReadiness } from './service';

const Health = z.object({ status: z.enum(['live', 'ready', 'unavailable']) });
const tags = ['health'];

/**
 * For load balancers and orchestrators: cheap, unauthenticated, and saying nothing but a state.
 * Probes send no cookies, so `live` never touches the database.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health/live',
    {
      schema: { tags, summary: 'The process is up and answering', response: { 200: Health } },
    },
    async () => ({ status: 'live' as const }),
  );

  app.get(
    '/api/health/ready',
    {
      schema: {
        tags,
        summary: 'The database is reachable and migrated: send traffic here (503 otherwise)',
        response: { 200: Health, 503: Health },
      },
    },
    async (_request, reply) => {
      if (await checkReadiness(app.db)) return { status: 'ready' as const };
      return reply
        .status(503)
        .header('Retry-After', String(RETRY_AFTER_SECONDS))
        .send({ status: 'unavailable' });
    },
  );
};
