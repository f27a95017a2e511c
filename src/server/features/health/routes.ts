import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RETRY_AFTER_SECONDS } from '../../lib/errors';
import { NOT_READY_CODES, type Readiness } from './service';

const Health = z.object({ status: z.enum(['live', 'ready']) });
const NotReady = z.object({
  status: z.literal('unavailable'),
  code: z.enum(NOT_READY_CODES),
  reason: z.string(),
});
const tags = ['health'];

/**
 * For load balancers and orchestrators: cheap, unauthenticated, and saying nothing but a state.
 * Probes send no cookies, so `live` never touches the database; `ready` writes one small row of
 * its own (see Readiness), at most once a second however many probes ask.
 */
export const healthRoutes: FastifyPluginAsyncZod<{ readiness: Readiness }> = async (app, { readiness }) => {
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
        summary:
          'This instance can write to its database now: send traffic here (503 with a code and reason otherwise)',
        response: { 200: Health, 503: NotReady },
      },
    },
    async (_request, reply) => {
      const notReady = await readiness.check();
      if (!notReady) return { status: 'ready' as const };
      return reply
        .status(503)
        .header('Retry-After', String(RETRY_AFTER_SECONDS))
        .send({ status: 'unavailable' as const, ...notReady });
    },
  );
};
