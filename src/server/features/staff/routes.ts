import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { LoginResponse } from '../../../common/schemas/auth';
import { ErrorResponse, IdParam, SuccessMessage } from '../../../common/schemas/common';
import {
  AcceptInvitationRequest,
  ChangeRoleRequest,
  InvitationDetails,
  InvitationResponse,
  InvitationToken,
  InviteRequest,
  MemberResponse,
  SsoLinkAllowedResponse,
  TeamResponse,
} from '../../../common/schemas/staff';
import { auditActor } from '../../lib/audit';
import { guardRoutes } from '../../lib/guards';
import { LIMITS, routeLimit } from '../../limit-table';
import { issueCsrfToken, setDisplayCookies, setSessionCookie, toCurrentUser } from '../auth';
import { allowSsoLink } from '../sso';
import { findMember } from './queries';
import * as service from './service';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
const tags = ['staff'];
const IdParams = z.object({ id: IdParam });
const TokenParams = z.object({ token: InvitationToken });

function mailContext(app: FastifyInstance): service.MailContext {
  return { brandName: app.config.web.brandName, linkBase: app.config.mail.linkBase };
}

/** The team (design section 9): admins invite staff, change roles and remove access. */
const teamRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const requireTeamAdmin = guardRoutes(app, 'team');

  app.get(
    '/api/staff/',
    {
      schema: {
        tags,
        summary: "The institution's staff and the invitations still waiting",
        response: { 200: TeamResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireTeamAdmin(request);
      return service.listTeam({ db: db.kysely, institutionId: admin.institutionId });
    },
  );

  app.post(
    '/api/staff/',
    {
      schema: {
        tags,
        summary: 'Invite someone to the staff: a mail with a link to choose a password, valid 7 days',
        body: InviteRequest,
        response: { 201: InvitationResponse, ...errors },
      },
    },
    async (request, reply) => {
      const admin = requireTeamAdmin(request);
      const invitation = await service.inviteMember({
        db: db.kysely,
        actor: auditActor(request, admin),
        mail: mailContext(app),
        ...request.body,
      });
      app.mail.wake();
      return reply
        .status(201)
        .send({ success: true as const, message: service.INVITATION_SENT(invitation.email), invitation });
    },
  );

  app.put(
    '/api/staff/:id/',
    {
      schema: {
        tags,
        summary: "Change a member's role; their sessions end so they sign in with the new one",
        params: IdParams,
        body: ChangeRoleRequest,
        response: { 200: MemberResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireTeamAdmin(request);
      const member = await service.changeRole({
        db: db.kysely,
        actor: auditActor(request, admin),
        userId: request.params.id,
        role: request.body.role,
      });
      return {
        success: true as const,
        message: `${member.name} is now ${member.role === 'admin' ? 'an' : 'a'} ${member.role}.`,
        member,
      };
    },
  );

  app.delete(
    '/api/staff/:id/',
    {
      schema: {
        tags,
        summary: "Remove a member's access: signed out at once, and no sign-in afterwards",
        params: IdParams,
        response: { 200: SuccessMessage, ...errors },
      },
    },
    async (request) => {
      const admin = requireTeamAdmin(request);
      await service.removeMember({
        db: db.kysely,
        actor: auditActor(request, admin),
        userId: request.params.id,
      });
      return { success: true as const, message: 'Access removed.' };
    },
  );

  app.post(
    '/api/staff/:id/sso-link/',
    {
      schema: {
        tags,
        summary:
          "Allow a member's next single sign-on to link their institution identity (once, within 24 hours)",
        description:
          'For a member who cannot link from a signed-in session of their own. The sign-in must still prove their own address, verified by the provider, and still asks for the second factor unless the provider asserts a multi-factor sign-in the institution counts. A new permission replaces the last.',
        params: IdParams,
        response: { 200: SsoLinkAllowedResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireTeamAdmin(request);
      const allowed = await allowSsoLink({
        db: db.kysely,
        actor: auditActor(request, admin),
        findMember: (trx) => findMember(trx, admin.institutionId, request.params.id),
      });
      return {
        success: true as const,
        message: `${allowed.name}'s next sign-in with single sign-on within 24 hours links it to their account.`,
        expires_at: new Date(allowed.expiresAt).toISOString(),
      };
    },
  );

  app.post(
    '/api/staff/invitations/:id/resend/',
    {
      schema: {
        tags,
        summary: 'Send a waiting invitation again with a new link and a new week; the old link stops working',
        params: IdParams,
        response: { 200: InvitationResponse, ...errors },
      },
    },
    async (request) => {
      const admin = requireTeamAdmin(request);
      const invitation = await service.resendInvitation({
        db: db.kysely,
        actor: auditActor(request, admin),
        mail: mailContext(app),
        invitationId: request.params.id,
      });
      app.mail.wake();
      return { success: true as const, message: service.INVITATION_SENT(invitation.email), invitation };
    },
  );

  app.delete(
    '/api/staff/invitations/:id/',
    {
      schema: {
        tags,
        summary: 'Withdraw a waiting invitation; its link stops working',
        params: IdParams,
        response: { 200: SuccessMessage, ...errors },
      },
    },
    async (request) => {
      const admin = requireTeamAdmin(request);
      await service.revokeInvitation({
        db: db.kysely,
        actor: auditActor(request, admin),
        invitationId: request.params.id,
      });
      return { success: true as const, message: 'Invitation withdrawn.' };
    },
  );
};

/** The invitation link: whoever holds it may see who it is for and choose the password, once. */
const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const limit = { secretParams: ['token'], rateLimit: routeLimit(LIMITS.invitationAcceptsPerClient) };

  app.get(
    '/api/staff/invite/:token/',
    {
      schema: {
        tags,
        summary: 'Who an invitation is for, while it can still be used',
        params: TokenParams,
        response: { 200: InvitationDetails, ...errors },
      },
      config: limit,
    },
    async (request) => service.describeInvitation({ db: db.kysely, token: request.params.token }),
  );

  app.post(
    '/api/staff/invite/:token/',
    {
      schema: {
        tags,
        summary: 'Choose a password and join the staff; signs the new member in',
        params: TokenParams,
        body: AcceptInvitationRequest,
        response: { 200: LoginResponse, 429: ErrorResponse, ...errors },
      },
      config: limit,
    },
    async (request, reply) => {
      const { user, sessionId, sessionIdHash } = await service.acceptInvitation({
        db: db.kysely,
        brandName: app.config.web.brandName,
        token: request.params.token,
        password: request.body.password,
        confirmPassword: request.body.confirm_password,
        address: request.ip,
      });
      setSessionCookie(request, reply, sessionId);
      setDisplayCookies(request, reply, user);
      issueCsrfToken(request, reply, sessionIdHash);
      return { success: true as const, message: 'Welcome to the team', user: toCurrentUser(user) };
    },
  );
};

export const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(teamRoutes);
  await app.register(invitationRoutes);
};
