import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/verify';
import { requestLanguage } from '../../lib/languages';
import { route } from '../../lib/route';
import { provingVisitor, visitorHash } from '../../lib/visitor';
import { LIMITS, routeLimit } from '../../limit-table';
import type { CodeContext } from './codes';
import { checkVerification, type ProofFollowUps, startVerification } from './service';

/** Proving an email address with a one-time code, for this browser (design section 8). */
export const verifyRoutes: FastifyPluginAsyncZod<{ codes: CodeContext; followUps: ProofFollowUps }> = async (
  app,
  options,
) => {
  const { db, config } = app;
  // Per address, a code is sent at most five times an hour and tried five times; this bounds
  // what one client may ask of the mail server and of the code checks across addresses.
  const perClient = {
    rateLimit: routeLimit({
      ...LIMITS.verificationsPerClient,
      max: config.limits.verificationsPerIpPerMinute,
    }),
  };

  route(
    app,
    endpoints.sendVerificationCode,
    async (request, reply) => {
      const { email, hash_link: hashLink } = request.body;
      const answer = await startVerification({
        db: db.kysely,
        context: options.codes,
        email,
        ...(hashLink === undefined ? {} : { hashLink }),
        visitorHash: visitorHash(request, reply),
        clientAddress: request.ip,
        language: requestLanguage(request),
      });
      app.mail.wake();
      return answer;
    },
    { config: perClient },
  );

  route(
    app,
    endpoints.checkVerificationCode,
    async (request, reply) =>
      checkVerification({
        db: db.kysely,
        context: options.codes,
        email: request.body.email,
        code: request.body.code,
        proofTokens: request.body.proof_tokens,
        visitor: provingVisitor(request, reply),
        followUps: options.followUps,
      }),
    { config: perClient },
  );
};
