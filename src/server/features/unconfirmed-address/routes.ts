import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LoginRequest } from '../../../common/schemas/auth';
import { ErrorResponse, SuccessMessage } from '../../../common/schemas/common';
import { visitorHash } from '../../lib/visitor';
import { LIMITS, routeLimit } from '../../limit-table';
import type { CodeContext } from '../verify';
import { resendRegistrationCode } from './service';

const errors = { 400: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse };

/** A registered student who never entered the code asks for a new one from the login page. */
export const unconfirmedAddressRoutes: FastifyPluginAsyncZod<{ codes: CodeContext }> = async (
  app,
  options,
) => {
  const { db } = app;

  app.post(
    '/api/register/resend-code/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Send a new code for a registration still waiting for one, given its password',
        description:
          'The code goes to the address when the password is that of its waiting registration, which then belongs to this browser (POST /api/verify/check/ completes it). The same answer for every address and password.',
        body: LoginRequest,
        response: { 200: SuccessMessage, ...errors },
      },
      config: { rateLimit: routeLimit(LIMITS.codeResendsPerClient) },
    },
    async (request, reply) => {
      const answer = await resendRegistrationCode({
        db: db.kysely,
        context: options.codes,
        email: request.body.email,
        password: request.body.password,
        visitorHash: visitorHash(request, reply),
        clientAddress: request.ip,
      });
      app.mail.wake();
      return answer;
    },
  );
};
