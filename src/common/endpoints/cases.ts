import {
  AssignCaseRequest,
  CaseDetailResponse,
  CaseFilters,
  CaseListQuery,
  CaseListResponse,
  CaseNoteRequest,
  ReopenCaseRequest,
  ResolveCaseRequest,
  StudentHistoryResponse,
} from '../schemas/cases';
import { StudentDataCsv } from '../schemas/identity';
import { endpoint } from './endpoint';
import { IdParams } from './shared';

/** Case work and student history (design sections 9 and 12): admins and counsellors. */

const tags = ['cases'];
const access = { staff: 'cases' } as const;
const errors = [400, 401, 403, 404, 409] as const;
const caseAnswer = { status: 200, schema: CaseDetailResponse } as const;

export const listCases = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/cases/',
  summary:
    "One page of the institution's cases: filtered, searched by student name or email, sorted (by default overdue first, then by deadline)",
  tags,
  query: CaseListQuery,
  response: { status: 200, schema: CaseListResponse },
  errors,
  access,
});

export const exportCases = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/cases/export.csv',
  summary: 'The cases as the list shows them (same filters, search and order, every page) as CSV',
  tags,
  query: CaseFilters,
  response: { status: 200, schema: StudentDataCsv, type: 'text/csv' },
  errors: [...errors, 429],
  access,
});

export const getCase = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/cases/:id/',
  summary: "A case: the student's submissions in it, its event trail and the mail it sent",
  tags,
  params: IdParams,
  response: caseAnswer,
  errors,
  access,
});

export const acknowledgeCase = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/cases/:id/acknowledge/',
  summary: 'Acknowledge the case: someone is on it, and escalations stop',
  tags,
  params: IdParams,
  response: caseAnswer,
  errors,
  access,
});

export const assignCase = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/cases/:id/assign/',
  summary: 'Assign the case to an admin or counsellor of the institution',
  tags,
  params: IdParams,
  body: AssignCaseRequest,
  response: caseAnswer,
  errors,
  access,
});

export const addCaseNote = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/cases/:id/notes/',
  summary: 'Add a staff-only note to the case',
  tags,
  params: IdParams,
  body: CaseNoteRequest,
  response: caseAnswer,
  errors,
  access,
});

export const resolveCase = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/cases/:id/resolve/',
  summary: 'Resolve the case with an outcome and an optional note',
  tags,
  params: IdParams,
  body: ResolveCaseRequest,
  response: caseAnswer,
  errors,
  access,
});

export const reopenCase = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/cases/:id/reopen/',
  summary: 'Reopen a resolved case: it waits for acknowledgement again, its deadline counted from now',
  tags,
  params: IdParams,
  body: ReopenCaseRequest,
  response: caseAnswer,
  errors,
  access,
});

export const getStudentHistory = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/students/:id/history/',
  summary:
    "A student's submissions with tiers, reasons and category means, the change from their own baseline, and their cases",
  tags,
  params: IdParams,
  response: { status: 200, schema: StudentHistoryResponse },
  errors,
  access,
});
