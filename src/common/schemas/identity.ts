import { z } from 'zod/mini';

/**
 * Marks on the contract's schemas for what identifies a student (design section 9): a route
 * whose answer can hold a marked schema is one that reads identifiable student data, and must
 * write an audit row when it answers. A test reads the marks from the registered routes, so a
 * new route that returns a marked schema is held to the rule without being listed anywhere.
 */
export interface StudentDataMark {
  /**
   * What the schema carries: a student's name, email or answers; a whole export of them; or
   * `own` for a user's own data read back by that user (a draft), which is not audited.
   */
  carries: 'name' | 'email' | 'answers' | 'export' | 'own';
}

export const studentData = z.registry<StudentDataMark>();

/**
 * Marks `schema`. The calls are marked pure: a page's code that takes no marked schema leaves
 * them out (only the server reads the marks).
 */
function marked<T extends z.core.$ZodType>(schema: T, carries: StudentDataMark['carries']): T {
  studentData.add(schema, { carries });
  return schema;
}

/** A student's name, as staff see it. */
export const StudentNameField = /*#__PURE__*/ marked(z.string(), 'name');
/** A student's email, as staff see it. */
export const StudentEmailField = /*#__PURE__*/ marked(z.string(), 'email');
/** A file of submissions with names, emails and answers (CSV). */
export const StudentDataExport = /*#__PURE__*/ marked(z.string().check(z.describe('text/csv')), 'export');

/** Marks a schema holding a user's own data, read back by that user only. */
export function ownData<T extends z.core.$ZodType>(schema: T): T {
  return marked(schema, 'own');
}

/** Marks a schema (an event stream, a file) as carrying student names, emails or answers. */
export function carriesStudentData<T extends z.core.$ZodType>(schema: T): T {
  return marked(schema, 'answers');
}

/**
 * A CSV file of what a staff screen lists, student names and answers included. Built by a call
 * marked pure: a page that calls no endpoint answering with it does not carry it. Declared with
 * the marks, not with the endpoints' shared path parameters, which the passkey endpoints of the
 * sign-in pages import: with it there, those pages loaded the survey's code for the mark.
 */
export const StudentDataCsv = /*#__PURE__*/ carriesStudentData(z.string().check(z.describe('text/csv')));
