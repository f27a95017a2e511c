import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse } from '../../../common/schemas/common';
import {
  SubmitOwnSurveyRequest,
  SubmitSurveyRequest,
  SubmitSurveyResponse,
  SurveyQuestionsResponse,
} from '../../../common/schemas/surveys';
import { writerFor } from '../../db/transaction-runner';
import { requireUser } from '../../lib/guards';
import { visitorHash } from '../../lib/visitor';
import { LIMITS, routeLimit } from '../../limit-table';
import type { SubmissionEvents } from './events';
import * as service from './service';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  429: ErrorResponse,
};
const LinkParams = z.object({ hashLink: z.string().max(100) });
const tags = ['surveys'];

/** Refuses admins and superusers (and, off a link, visitors) before their input is even read. */
function refuseNonStudentsEarly(viaLink: boolean) {
  return async (request: FastifyRequest) => service.refuseNonStudents(request.session?.user ?? null, viaLink);
}

/** Taking and submitting surveys: logged-in students, and anyone holding a shared link. */
export const surveyRoutes: FastifyPluginAsyncZod<{ events: SubmissionEvents }> = async (app, options) => {
  const { db, config } = app;
  const runTransaction = writerFor(db.kysely);
  const { events } = options;

  app.get(
    '/api/get-user-survey-questions/',
    {
      schema: {
        tags,
        summary: "The logged-in user's survey: the institution's active template, else its first",
        response: { 200: SurveyQuestionsResponse, ...errors },
      },
    },
    async (request) => service.getSurveyForUser({ db: db.kysely, user: requireUser(request) }),
  );

  app.get(
    '/api/get-user-survey-questions/:hashLink/',
    {
      config: { secretParams: ['hashLink'] },
      schema: {
        tags,
        summary: "A shared link's survey; open to anyone holding the link",
        params: LinkParams,
        response: { 200: SurveyQuestionsResponse, ...errors },
      },
    },
    async (request) => service.getSurveyForLink({ db: db.kysely, hashLink: request.params.hashLink }),
  );

  app.post(
    '/api/survey/',
    {
      preValidation: refuseNonStudentsEarly(false),
      schema: {
        tags,
        summary: 'Submit the survey as the logged-in student',
        description:
          'Name and email come from the account. Retrying with the same submission_id stores nothing new.',
        body: SubmitOwnSurveyRequest,
        response: { 200: SubmitSurveyResponse, ...errors },
      },
    },
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
      });
    },
  );

  app.post(
    '/api/survey/link/:hashLink/',
    {
      preValidation: refuseNonStudentsEarly(true),
      config: {
        secretParams: ['hashLink'],
        rateLimit: routeLimit({
          ...LIMITS.linkSubmissionsPerClient,
          max: config.limits.linkSubmissionsPerIpPerMinute,
        }),
      },
      schema: {
        tags,
        summary: 'Submit the survey of a shared link',
        description:
          'Visitors give a name and an email of the institution, and are answered alike whether or not the email has an account. Until the browser proves the address (POST /api/verify/start/, /check/) the submission is stored and screened but counts for no one: the answer says verification_required.',
        params: LinkParams,
        body: SubmitSurveyRequest,
        response: { 200: SubmitSurveyResponse, ...errors },
      },
    },
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
      });
    },
  );
};
