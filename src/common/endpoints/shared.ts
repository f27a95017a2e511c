import { z } from 'zod/mini';
import { IdParam } from '../schemas/common';
import { carriesStudentData } from '../schemas/identity';

// Built by calls marked pure: a page that calls no endpoint using them does not carry them.

/** The `:id` of a path. */
export const IdParams = /*#__PURE__*/ z.object({ id: IdParam });

/** A CSV file of what a staff screen lists, student names and answers included. */
export const StudentDataCsv = /*#__PURE__*/ carriesStudentData(z.string().check(z.describe('text/csv')));
