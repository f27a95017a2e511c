import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/account';
import { requireUser } from '../../lib/guards';
import { route } from '../../lib/route';
import type { Session } from '../../lib/sessions';
import { changePassword, chooseLanguage, endOtherSessions, listOwnSessions } from './service';

/** Every signed-in user's own account (staff and students): their password and sessions. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  /** A complete sign-in (staff past their second factor). */
  const sessionOf = (request: FastifyRequest) => {
    requireUser(request);
    return request.session as Session;
  };
  // Before body validation, so a visitor learns nothing from a 400.
  const signedIn = async (request: FastifyRequest) => {
    sessionOf(request);
  };

  route(
    app,
    endpoints.changePassword,
    async (request) => {
      const body = request.body;
      const result = await changePassword({
        db: db.kysely,
        session: sessionOf(request),
        currentPassword: body.current_password,
        newPassword: body.new_password,
        confirmPassword: body.confirm_password,
        brandName: config.web.brandName,
        address: request.ip,
      });
      app.mail.wake();
      return result;
    },
    { preValidation: signedIn },
  );

  route(app, endpoints.listSessions, async (request) => listOwnSessions(db.kysely, sessionOf(request)));

  route(
    app,
    endpoints.setLanguage,
    async (request) => chooseLanguage(db.kysely, sessionOf(request), request.body.language),
    { preValidation: signedIn },
  );

  route(app, endpoints.signOutOtherSessions, async (request) =>
    endOtherSessions(db.kysely, sessionOf(request), request.ip),
  );
};
