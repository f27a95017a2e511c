import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/staff';
import { auditActor } from '../../lib/audit';
import { route } from '../../lib/route';
import { LIMITS, routeLimit } from '../../limit-table';
import { issueCsrfToken, setDisplayCookies, setSessionCookie, toCurrentUser } from '../auth';
import { allowSsoLink } from '../sso';
import { findMember } from './queries';
import * as service from './service';

function mailContext(app: FastifyInstance): service.MailContext {
  return { brandName: app.config.web.brandName, linkBase: app.config.mail.linkBase };
}

/** The team (design section 9): admins invite staff, change roles and remove access. */
const teamRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  route(app, endpoints.listStaff, async (_request, _reply, admin) => {
    return service.listTeam({ db: db.kysely, institutionId: admin.institutionId });
  });

  route(app, endpoints.inviteStaff, async (request, reply, admin) => {
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
  });

  route(app, endpoints.changeStaffRole, async (request, _reply, admin) => {
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
  });

  route(app, endpoints.removeStaff, async (request, _reply, admin) => {
    await service.removeMember({
      db: db.kysely,
      actor: auditActor(request, admin),
      userId: request.params.id,
    });
    return { success: true as const, message: 'Access removed.' };
  });

  route(app, endpoints.allowStaffSsoLink, async (request, _reply, admin) => {
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
  });

  route(app, endpoints.resendStaffInvitation, async (request, _reply, admin) => {
    const invitation = await service.resendInvitation({
      db: db.kysely,
      actor: auditActor(request, admin),
      mail: mailContext(app),
      invitationId: request.params.id,
    });
    app.mail.wake();
    return { success: true as const, message: service.INVITATION_SENT(invitation.email), invitation };
  });

  route(app, endpoints.withdrawStaffInvitation, async (request, _reply, admin) => {
    await service.revokeInvitation({
      db: db.kysely,
      actor: auditActor(request, admin),
      invitationId: request.params.id,
    });
    return { success: true as const, message: 'Invitation withdrawn.' };
  });
};

/** The invitation link: whoever holds it may see who it is for and choose the password, once. */
const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const limit = { secretParams: ['token'], rateLimit: routeLimit(LIMITS.invitationAcceptsPerClient) };

  route(
    app,
    endpoints.getStaffInvitation,
    async (request) => service.describeInvitation({ db: db.kysely, token: request.params.token }),
    { config: limit },
  );

  route(
    app,
    endpoints.acceptStaffInvitation,
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
    { config: limit },
  );
};

export const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(teamRoutes);
  await app.register(invitationRoutes);
};
