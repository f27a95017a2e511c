import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/health';
import { RETRY_AFTER_SECONDS } from '../../lib/errors';
import { route } from '../../lib/route';
import type { Readiness } from './service';

/**
 * For load balancers and orchestrators: cheap, unauthenticated, and saying nothing but a state.
 * Probes send no cookies, so `live` never touches the database; `ready` writes one small row of
 * its own (see Readiness), at most once a second however many probes ask.
 */
export const healthRoutes: FastifyPluginAsyncZod<{ readiness: Readiness }> = async (app, { readiness }) => {
  route(app, endpoints.checkLiveness, async () => ({ status: 'live' as const }));

  route(app, endpoints.checkReadiness, async (_request, reply) => {
    const notReady = await readiness.check();
    if (!notReady) return { status: 'ready' as const };
    return reply
      .status(503)
      .header('Retry-After', String(RETRY_AFTER_SECONDS))
      .send({ status: 'unavailable' as const, ...notReady });
  });
};
