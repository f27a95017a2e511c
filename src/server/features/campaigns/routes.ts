import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import * as invitations from '../../../common/endpoints/campaign-invitations';
import * as endpoints from '../../../common/endpoints/campaigns';
import { can, roleName } from '../../../common/roles';
import { writerFor } from '../../db/transaction-runner';
import { auditActor } from '../../lib/audit';
import { requestLanguage } from '../../lib/languages';
import { route } from '../../lib/route';
import { LIMITS, routeLimit } from '../../limit-table';
import { contactCase } from '../cases';
import type { SubmissionEvents } from '../surveys';
import { askForContact } from './anonymous';
import type { InvitationContext } from './invitations';
import { campaignJobs } from './jobs';
import { anonymousResults } from './results';
import * as service from './service';

/** Campaigns of roster groups and the personal links they send (design sections 10 and 12). */
export const campaignRoutes: FastifyPluginAsyncZod<{
  invitations: InvitationContext;
  events: SubmissionEvents;
}> = async (app, options) => {
  const { db, config } = app;
  for (const kind of campaignJobs(options.invitations)) app.jobs.handle(kind);

  await app.register(async (plugin) => {
    const admin = plugin.withTypeProvider<ZodTypeProvider>();

    route(admin, endpoints.listCampaigns, async (_request, _reply, scheduler) =>
      service.listCampaigns({ db: db.kysely, institutionId: scheduler.institutionId }),
    );

    route(admin, endpoints.createCampaign, async (request, reply, adminUser) => {
      const campaign = await service.createCampaign({
        db: db.kysely,
        actor: auditActor(request, adminUser),
        request: request.body,
      });
      app.jobs.wake();
      reply.status(201);
      return {
        success: true as const,
        message: request.body.send_now
          ? 'Campaign created: the invitations are on their way.'
          : 'Campaign scheduled.',
        campaign,
      };
    });

    const changes = [
      [endpoints.pauseCampaign, 'pause'],
      [endpoints.resumeCampaign, 'resume'],
      [endpoints.cancelCampaign, 'cancel'],
    ] as const;
    for (const [entry, change] of changes) {
      route(admin, entry, async (request, _reply, scheduler) => {
        const answer = await service.changeCampaign({
          db: db.kysely,
          actor: auditActor(request, scheduler),
          campaignId: request.params.id,
          change,
        });
        app.jobs.wake();
        return answer;
      });
    }
  });

  // Who has not answered: counts for every staff role that sees the dashboard's numbers, names
  // only for those who may see students' identities.
  await app.register(async (plugin) => {
    const staff = plugin.withTypeProvider<ZodTypeProvider>();
    route(staff, endpoints.listNotAnswered, async (request, _reply, user) => {
      return service.listNotAnswered({
        db: db.kysely,
        actor: auditActor(request, user),
        campaignId: request.params.id,
        withNames: can(roleName(user.role), 'student_identities'),
      });
    });
    route(staff, endpoints.getCampaignResults, async (request, _reply, user) =>
      anonymousResults({
        db: db.kysely,
        institutionId: user.institutionId,
        campaignId: request.params.id,
      }),
    );
  });

  const runTransaction = writerFor(db.kysely);
  // A flagged answer through a personal link opens a case like any other (its events, app.ts).
  const { events } = options;

  route(
    app,
    invitations.getInvitationSurvey,
    async (request) =>
      service.getInvitationSurvey({
        db: db.kysely,
        token: request.params.token,
        user: request.session?.user ?? null,
      }),
    { config: { secretParams: ['token'] } },
  );

  route(
    app,
    invitations.requestContact,
    async (request) => {
      const result = await askForContact({
        db: db.kysely,
        request: request.body,
        openCase: (trx, asked) =>
          contactCase(trx, { brandName: config.web.brandName, linkBase: config.mail.linkBase }, asked),
      });
      app.mail.wake();
      return result;
    },
    {
      config: {
        clientUnlogged: true,
        // The follow-up of an anonymous link submission: counted as one more of them.
        rateLimit: routeLimit({
          ...LIMITS.linkSubmissionsPerClient,
          max: config.limits.linkSubmissionsPerIpPerMinute,
        }),
      },
    },
  );

  route(
    app,
    invitations.submitInvitationSurvey,
    async (request) => {
      const body = request.body;
      return service.submitInvitationSurvey({
        db: db.kysely,
        runTransaction,
        events,
        token: request.params.token,
        user: request.session?.user ?? null,
        ...(body.school_email === undefined ? {} : { schoolEmail: body.school_email }),
        answers: body.answers,
        ...(body.submission_id === undefined ? {} : { clientSubmissionId: body.submission_id }),
        language: requestLanguage(request),
      });
    },
    {
      config: {
        secretParams: ['token'],
        // Its answers may be an anonymous campaign's: no log line keeps where they came from.
        clientUnlogged: true,
        rateLimit: routeLimit({
          ...LIMITS.linkSubmissionsPerClient,
          max: config.limits.linkSubmissionsPerIpPerMinute,
        }),
      },
      preValidation: async (request) => {
        const { token } = request.params as { token: string };
        await service.refuseOthersEarly(db.kysely, token, request.session?.user ?? null);
      },
    },
  );
};
