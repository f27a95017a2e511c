import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse } from '../../../common/schemas/common';
import {
  VerifyCheckRequest,
  VerifyCheckResponse,
  VerifyStartRequest,
  VerifyStartResponse,
} from '../../../common/schemas/verify';
import { provingVisitor, visitorHash } from '../../lib/visitor';
import { LIMITS, routeLimit } from '../../limit-table';
import type { CodeContext } from './codes';
import { checkVerification, type ProofFollowUps, startVerification } from './service';

const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse };
const tags = ['verify'];

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

  app.post(
    '/api/verify/start/',
    {
      config: perClient,
      schema: {
        tags,
        summary: 'Send a one-time code to an address',
        description:
          'The same answer for every address of the institution (of the link, when hash_link is given), whether or not it has an account.',
        body: VerifyStartRequest,
        response: { 200: VerifyStartResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { email, hash_link: hashLink } = request.body;
      const answer = await startVerification({
        db: db.kysely,
        context: options.codes,
        email,
        ...(hashLink === undefined ? {} : { hashLink }),
        visitorHash: visitorHash(request, reply),
        clientAddress: request.ip,
      });
      app.mail.wake();
      return answer;
    },
  );

  app.post(
    '/api/verify/check/',
    {
      config: perClient,
      schema: {
        tags,
        summary: 'Prove an address for this browser with the code it was sent',
        description:
          'Six digits, valid 10 minutes, 5 tries, once. Proving the address counts the survey answers this browser sent in its name whose proof_token secrets it sends in proof_tokens, and completes the registration it started for it.',
        body: VerifyCheckRequest,
        response: { 200: VerifyCheckResponse, ...errors },
      },
    },
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
  );
};
