import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccountSessionList,
  OtherSessionsEnded,
  PasswordChangeRequest,
} from '../../../common/schemas/account';
import { ErrorResponse } from '../../../common/schemas/common';
import { requireUser } from '../../lib/guards';
import type { Session } from '../../lib/sessions';
import { changePassword, endOtherSessions, listOwnSessions } from './service';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  429: ErrorResponse,
};
const tags = ['account'];

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

  app.post(
    '/api/account/password/',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Change your password',
        description:
          'Needs the current password; five wrong ones in 15 minutes make the account wait (429). Staff also need a second factor proven in the last 5 minutes (403 STEP_UP_REQUIRED). The new password follows the password rules. Every other session is signed out; recorded in the audit log and told by mail.',
        body: PasswordChangeRequest,
        response: { 200: OtherSessionsEnded, ...errors },
      },
    },
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
  );

  app.get(
    '/api/account/sessions/',
    {
      schema: {
        tags,
        summary: 'Your open sessions: when each began and was last used',
        response: { 200: AccountSessionList, ...errors },
      },
    },
    async (request) => listOwnSessions(db.kysely, sessionOf(request)),
  );

  app.post(
    '/api/account/sessions/sign-out-others/',
    {
      schema: {
        tags,
        summary: 'Sign out every other session of your account',
        description: 'This session stays signed in. Recorded in the audit log.',
        response: { 200: OtherSessionsEnded, ...errors },
      },
    },
    async (request) => endOtherSessions(db.kysely, sessionOf(request), request.ip),
  );
};
