import { AuditFilters, AuditPage, AuditQuery } from '../schemas/audit';
import { StudentDataCsv } from '../schemas/identity';
import { endpoint } from './endpoint';

const tags = ['audit'];

export const listAuditEntries = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/audit/',
  summary:
    "A page of the audit log, newest first, with names beside ids, filtered by actor, action, student and the institution's days",
  tags,
  query: AuditQuery,
  response: { status: 200, schema: AuditPage },
  errors: [400, 401, 403],
  access: { staff: 'audit' },
});

export const exportAuditCsv = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/audit/export.csv',
  summary: 'The filtered audit log as CSV, newest first; the export is itself recorded',
  tags,
  query: AuditFilters,
  response: {
    status: 200,
    schema: StudentDataCsv,
    type: 'text/csv',
  },
  errors: [400, 401, 403, 429],
  access: { staff: 'audit' },
});
