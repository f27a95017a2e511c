import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/unconfirmed-address';
import { requestLanguage } from '../../lib/languages';
import { route } from '../../lib/route';
import { visitorHash } from '../../lib/visitor';
import { LIMITS, routeLimit } from '../../limit-table';
import type { CodeContext } from '../verify';
import { resendRegistrationCode } from './service';

/** A registered student who never entered the code asks for a new one from the login page. */
export const unconfirmedAddressRoutes: FastifyPluginAsyncZod<{ codes: CodeContext }> = async (
  app,
  options,
) => {
  const { db } = app;

  route(
    app,
    endpoints.resendRegistrationCode,
    async (request, reply) => {
      const answer = await resendRegistrationCode({
        db: db.kysely,
        context: options.codes,
        email: request.body.email,
        password: request.body.password,
        visitorHash: visitorHash(request, reply),
        clientAddress: request.ip,
        language: requestLanguage(request),
      });
      app.mail.wake();
      return answer;
    },
    { config: { rateLimit: routeLimit(LIMITS.codeResendsPerClient) } },
  );
};
