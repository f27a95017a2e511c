import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { can, roleName } from '../../../common/roles';
import {
  AnonymousResultsResponse,
  CampaignListResponse,
  CampaignRequest,
  CampaignResponse,
  NOT_ANSWERED_MAX_LISTED,
  NotAnsweredResponse,
} from '../../../common/schemas/campaigns';
import { ErrorResponse, IdParam } from '../../../common/schemas/common';
import {
  ContactRequest,
  ContactResponse,
  InvitationSurveyResponse,
  SubmitSurveyRequest,
  SubmitSurveyResponse,
} from '../../../common/schemas/surveys';
import { writerFor } from '../../db/transaction-runner';
import { auditActor } from '../../lib/audit';
import { guardRoutes } from '../../lib/guards';
import { LIMITS, routeLimit } from '../../limit-table';
import { contactCase } from '../cases';
import type { SubmissionEvents } from '../surveys';
import { askForContact } from './anonymous';
import type { InvitationContext } from './invitations';
import { campaignJobs } from './jobs';
import { anonymousResults } from './results';
import * as service from './service';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  429: ErrorResponse,
};
const CampaignParams = z.object({ id: IdParam });
const InvitationParams = z.object({ token: z.string().max(100) });

/** Campaigns of roster groups and the personal links they send (design sections 10 and 12). */
export const campaignRoutes: FastifyPluginAsyncZod<{
  invitations: InvitationContext;
  events: SubmissionEvents;
}> = async (app, options) => {
  const { db, config } = app;
  for (const kind of campaignJobs(options.invitations)) app.jobs.handle(kind);

  await app.register(async (plugin) => {
    const admin = plugin.withTypeProvider<ZodTypeProvider>();
    const requireScheduler = guardRoutes(admin, 'schedule');
    const tags = ['campaigns'];

    admin.get(
      '/api/campaigns/',
      {
        schema: {
          tags,
          summary: "The institution's campaigns, newest first, with invited, answered and reminded counts",
          response: { 200: CampaignListResponse, ...errors },
        },
      },
      async (request) =>
        service.listCampaigns({ db: db.kysely, institutionId: requireScheduler(request).institutionId }),
    );

    admin.post(
      '/api/campaigns/',
      {
        schema: {
          tags,
          summary: 'Create a campaign for roster groups',
          description:
            'Each student of the groups gets one mail with a personal link per round: now with send_now, else at the day and time (in the institution time zone), weekly when recurring. Reminders go to those who have not answered after reminder_after_days (0: none), at most 2 per round.',
          body: CampaignRequest,
          response: { 201: CampaignResponse, ...errors },
        },
      },
      async (request, reply) => {
        const adminUser = requireScheduler(request);
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
      },
    );

    for (const change of ['pause', 'resume', 'cancel'] as const) {
      admin.post(
        `/api/campaigns/:id/${change}/`,
        {
          schema: {
            tags,
            summary: `${change[0]?.toUpperCase()}${change.slice(1)} a campaign`,
            params: CampaignParams,
            response: { 200: CampaignResponse, ...errors },
          },
        },
        async (request) => {
          const answer = await service.changeCampaign({
            db: db.kysely,
            actor: auditActor(request, requireScheduler(request)),
            campaignId: request.params.id,
            change,
          });
          app.jobs.wake();
          return answer;
        },
      );
    }
  });

  // Who has not answered: counts for every staff role that sees the dashboard's numbers, names
  // only for those who may see students' identities.
  await app.register(async (plugin) => {
    const staff = plugin.withTypeProvider<ZodTypeProvider>();
    const guard = guardRoutes(staff, 'dashboard');
    staff.get(
      '/api/campaigns/:id/not-answered/',
      {
        schema: {
          tags: ['campaigns'],
          summary: "Who of the campaign's current round has not answered yet",
          description: `Counts for every staff role; the students' names and addresses (the first ${NOT_ANSWERED_MAX_LISTED} by name) only for roles that may see them, and that read is audited.`,
          params: CampaignParams,
          response: { 200: NotAnsweredResponse, ...errors },
        },
      },
      async (request) => {
        const user = guard(request);
        return service.listNotAnswered({
          db: db.kysely,
          actor: auditActor(request, user),
          campaignId: request.params.id,
          withNames: can(roleName(user.role), 'student_identities'),
        });
      },
    );
    staff.get(
      '/api/campaigns/:id/results/',
      {
        schema: {
          tags: ['campaigns'],
          summary: "An anonymous campaign's results, as figures over enough students only",
          description:
            'For every staff role alike: how many answered, how many answers each screening tier took in, the mean of each 1-5 question and how many answers of each instrument block fell in each band, each shown as "Fewer than N" under the small-group rule. No single answer, no written answer. A campaign that is not anonymous has none (404): its answers are on the dashboard.',
          params: CampaignParams,
          response: { 200: AnonymousResultsResponse, ...errors },
        },
      },
      async (request) =>
        anonymousResults({
          db: db.kysely,
          institutionId: guard(request).institutionId,
          campaignId: request.params.id,
        }),
    );
  });

  const runTransaction = writerFor(db.kysely);
  // A flagged answer through a personal link opens a case like any other (its events, app.ts).
  const { events } = options;
  const tags = ['surveys'];

  app.get(
    '/api/survey/invite/:token/',
    {
      config: { secretParams: ['token'] },
      schema: {
        tags,
        summary: 'The survey of a personal invitation link, for the student it was sent to',
        description:
          'The link is the proof of the address: no password, no code. It works until the next round.',
        params: InvitationParams,
        response: { 200: InvitationSurveyResponse, ...errors },
      },
    },
    async (request) =>
      service.getInvitationSurvey({
        db: db.kysely,
        token: request.params.token,
        user: request.session?.user ?? null,
      }),
  );

  app.post(
    '/api/survey/contact/',
    {
      config: {
        clientUnlogged: true,
        // The follow-up of an anonymous link submission: counted as one more of them.
        rateLimit: routeLimit({
          ...LIMITS.linkSubmissionsPerClient,
          max: config.limits.linkSubmissionsPerIpPerMinute,
        }),
      },
      schema: {
        tags,
        summary: 'Ask a counsellor to get in touch, after answering an anonymous campaign',
        description:
          'With the contact_token the answer gave (once, within the hour): opens a case with only what is filled in (an email address or a phone number at least) and, with share_answers, the answers just sent. Nothing else about the student is known, and the anonymous answer itself stays as it was.',
        body: ContactRequest,
        response: { 200: ContactResponse, ...errors },
      },
    },
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
  );

  app.post(
    '/api/survey/invite/:token/',
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
      schema: {
        tags,
        summary: 'Submit the survey of a personal invitation link',
        description:
          'Answers as the invited student, whose address the link proves. Once per round: a second submit is refused. Another address is refused.',
        params: InvitationParams,
        body: SubmitSurveyRequest,
        response: { 200: SubmitSurveyResponse, ...errors },
      },
    },
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
      });
    },
  );
};
