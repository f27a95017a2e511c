import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../common/endpoints/student-records';
import { writeTransaction } from '../../db/transaction-runner';
import { AppError } from '../../lib/errors';
import { requireUser } from '../../lib/guards';
import { route } from '../../lib/route';
import { now } from '../../lib/time';
import { studentRecords } from './service';

/**
 * A student's own records (design section 14). The student is the one signed in: the route
 * takes no id, so no one can name another student's records to it.
 */
export const studentRecordRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  route(app, endpoints.getOwnRecords, async (request) => {
    const user = requireUser(request);
    if (user.role !== 'student' || user.institutionId === null)
      throw new AppError('FORBIDDEN', 'Only a student can download their own records');
    return writeTransaction(db.kysely, (trx) =>
      studentRecords({ db: trx, userId: user.id, address: request.ip, at: now() }),
    );
  });
};
