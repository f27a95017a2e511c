import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/password-reset';
import { route } from '../../lib/route';
import { LIMITS, routeLimit } from '../../limit-table';
import { chooseNewPassword, requestPasswordReset } from './service';

/** "Forgot password?": a mailed link, good once for a short while, to choose a new password. */
export const passwordResetRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;

  route(app, endpoints.requestPasswordReset, async (request) => {
    const answer = await requestPasswordReset({
      db: db.kysely,
      mail: { brandName: config.web.brandName, linkBase: config.mail.linkBase },
      email: request.body.email,
      clientAddress: request.ip,
    });
    app.mail.wake();
    return answer;
  });

  route(
    app,
    endpoints.resetPassword,
    async (request) =>
      chooseNewPassword({
        db: db.kysely,
        brandName: config.web.brandName,
        token: request.params.token,
        password: request.body.password,
        confirmPassword: request.body.confirm_password,
        clientAddress: request.ip,
      }),
    { config: { secretParams: ['token'], rateLimit: routeLimit(LIMITS.resetChoicesPerClient) } },
  );
};
