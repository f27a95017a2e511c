import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse } from '../../../common/schemas/common';
import { StudentRecordsResponse } from '../../../common/schemas/records';
import { writeTransaction } from '../../db/transaction-runner';
import { AppError } from '../../lib/errors';
import { requireUser } from '../../lib/guards';
import { now } from '../../lib/time';
import { studentRecords } from './service';

const errors = { 401: ErrorResponse, 403: ErrorResponse };
const tags = ['account'];

/**
 * A student's own records (design section 14). The student is the one signed in: the route
 * takes no id, so no one can name another student's records to it.
 */
export const studentRecordRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/api/account/records/',
    {
      schema: {
        tags,
        summary: 'Everything the institution holds about you, the signed-in student, as JSON',
        description:
          'Your account, roster entry, check-ins with your answers, drafts, survey invitations and records requests. Screening scores are for staff, and counsellors’ case notes are kept apart as treatment records. Each download is recorded in the audit log.',
        response: { 200: StudentRecordsResponse, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      if (user.role !== 'student' || user.institutionId === null)
        throw new AppError('FORBIDDEN', 'Only a student can download their own records');
      return writeTransaction(db.kysely, (trx) =>
        studentRecords({ db: trx, userId: user.id, address: request.ip, at: now() }),
      );
    },
  );
};
