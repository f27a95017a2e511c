import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/surveys';
import { writerFor } from '../../db/transaction-runner';
import { requireUser } from '../../lib/guards';
import { requestLanguage } from '../../lib/languages';
import { route } from '../../lib/route';
import { visitorHash } from '../../lib/visitor';
import { LIMITS, routeLimit } from '../../limit-table';
import type { SubmissionEvents } from './events';
import * as service from './service';

/** Refuses admins and superusers (and, off a link, visitors) before their input is even read. */
function refuseNonStudentsEarly(viaLink: boolean) {
  return async (request: FastifyRequest) => service.refuseNonStudents(request.session?.user ?? null, viaLink);
}

/** Taking and submitting surveys: logged-in students, and anyone holding a shared link. */
export const surveyRoutes: FastifyPluginAsyncZod<{ events: SubmissionEvents }> = async (app, options) => {
  const { db, config } = app;
  const runTransaction = writerFor(db.kysely);
  const { events } = options;

  route(app, endpoints.getOwnSurvey, async (request) =>
    service.getSurveyForUser({ db: db.kysely, user: requireUser(request) }),
  );

  route(
    app,
    endpoints.getLinkSurvey,
    async (request) => service.getSurveyForLink({ db: db.kysely, hashLink: request.params.hashLink }),
    { config: { secretParams: ['hashLink'] } },
  );

  route(
    app,
    endpoints.submitOwnSurvey,
    async (request) => {
      const body = request.body;
      return service.submitSurvey({
        runTransaction,
        events,
        target: { templateId: body.survey_template_id },
        user: requireUser(request),
        studentName: body.student_name,
        schoolEmail: body.school_email,
        answers: body.answers,
        clientSubmissionId: body.submission_id,
        language: requestLanguage(request),
      });
    },
    { preValidation: refuseNonStudentsEarly(false) },
  );

  route(
    app,
    endpoints.submitLinkSurvey,
    async (request, reply) => {
      const body = request.body;
      const user = request.session?.user ?? null;
      return service.submitSurvey({
        runTransaction,
        events,
        target: { hashLink: request.params.hashLink, templateId: body.survey_template_id },
        user,
        ...(user ? {} : { visitorHash: visitorHash(request, reply), clientAddress: request.ip }),
        studentName: body.student_name,
        schoolEmail: body.school_email,
        answers: body.answers,
        clientSubmissionId: body.submission_id,
        language: requestLanguage(request),
      });
    },
    {
      preValidation: refuseNonStudentsEarly(true),
      config: {
        secretParams: ['hashLink'],
        rateLimit: routeLimit({
          ...LIMITS.linkSubmissionsPerClient,
          max: config.limits.linkSubmissionsPerIpPerMinute,
        }),
      },
    },
  );
};
