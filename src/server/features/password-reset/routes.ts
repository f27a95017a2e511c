import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { ErrorResponse, SuccessMessage } from '../../../common/schemas/common';
import {
  ChooseNewPasswordRequest,
  PasswordResetRequest,
  PasswordResetToken,
} from '../../../common/schemas/password-reset';
import { LIMITS, routeLimit } from '../../limit-table';
import { chooseNewPassword, requestPasswordReset } from './service';

const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse };
const tags = ['auth'];
const TokenParams = z.object({ token: PasswordResetToken });

/** "Forgot password?": a mailed link, good once for a short while, to choose a new password. */
export const passwordResetRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;

  app.post(
    '/api/password-reset/',
    {
      schema: {
        tags,
        summary: 'Mail the account of an address a link to choose a new password',
        description:
          'The same answer for every address, with an account or not; past the limits per address and per client nothing is sent, and the answer is still the same.',
        body: PasswordResetRequest,
        response: { 200: SuccessMessage, ...errors },
      },
    },
    async (request) => {
      const answer = await requestPasswordReset({
        db: db.kysely,
        mail: { brandName: config.web.brandName, linkBase: config.mail.linkBase },
        email: request.body.email,
        clientAddress: request.ip,
      });
      app.mail.wake();
      return answer;
    },
  );

  app.post(
    '/api/password-reset/:token/',
    {
      schema: {
        tags,
        summary: 'Choose a new password with the mailed link; every session of the account ends',
        description:
          'Works once, within 30 minutes of the request. Does not sign in: staff still prove their second factor at the next sign-in.',
        params: TokenParams,
        body: ChooseNewPasswordRequest,
        response: { 200: SuccessMessage, ...errors },
      },
      config: { secretParams: ['token'], rateLimit: routeLimit(LIMITS.resetChoicesPerClient) },
    },
    async (request) =>
      chooseNewPassword({
        db: db.kysely,
        brandName: config.web.brandName,
        token: request.params.token,
        password: request.body.password,
        confirmPassword: request.body.confirm_password,
        clientAddress: request.ip,
      }),
  );
};
