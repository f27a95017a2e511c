import type { FastifyInstance } from 'fastify';
import { sendError } from './errors';

const SHUTTING_DOWN_MESSAGE = 'The service is restarting. Please try again in a few seconds.';

/**
 * Requests that reach an instance once it has begun to close (on a connection still open, or
 * already under way) are answered in the product's shape, 503 with Retry-After, and end their
 * connection, so the client or the load balancer tries another instance. Fastify's own answer
 * carried neither code nor Retry-After. Installed first, so no other hook does work for them.
 */
export function refuseDuringShutdown(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.header('Connection', 'close');
    sendError(reply, 'SHUTTING_DOWN', SHUTTING_DOWN_MESSAGE);
  });
}
