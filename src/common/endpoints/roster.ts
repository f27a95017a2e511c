import { z } from 'zod/mini';
import {
  RosterImportQuery,
  RosterImportResponse,
  RosterLeftRequest,
  RosterPage,
  RosterQuery,
  RosterStudentResponse,
} from '../schemas/roster';
import { endpoint } from './endpoint';
import { IdParams } from './shared';

const CsvBody = /*#__PURE__*/ z.any().check(
  z.meta({
    description:
      'The CSV file (Content-Type: text/csv): a header row naming name, email and optionally group, then one student per line.',
  }),
);

const tags = ['roster'];

export const listRoster = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/roster/',
  summary: "A page of the institution's roster, by name",
  description: 'q searches names and addresses; group keeps one group.',
  tags,
  query: RosterQuery,
  response: { status: 200, schema: RosterPage },
  errors: [400, 401, 403, 404, 413, 415, 429],
  access: { staff: 'schedule' },
});

export const importRoster = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/roster/',
  summary: "Import the registrar's CSV",
  description:
    'Adds new students and updates the name and group of those already on the roster (by address); nobody is ever listed twice, and a student marked as left whom the file lists is back. Bad lines are reported by line number and skipped; a file that cannot be read as a roster at all changes nothing. missing=leave marks as left the students on the roster whom the file does not list (missing=keep, the default, keeps them).',
  tags,
  query: RosterImportQuery,
  body: CsvBody,
  response: { status: 200, schema: RosterImportResponse },
  errors: [400, 401, 403, 404, 413, 415, 429],
  access: { staff: 'schedule' },
});

export const markStudentLeft = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/roster/students/:id/left/',
  summary: 'Mark a student as having left, or back on the roster',
  description:
    'left: true stops their invitations and takes them out of the response rate; their answers stay. left: false undoes it.',
  tags,
  params: IdParams,
  body: RosterLeftRequest,
  response: { status: 200, schema: RosterStudentResponse },
  errors: [400, 401, 403, 404, 413, 415, 429],
  access: { staff: 'schedule' },
});
