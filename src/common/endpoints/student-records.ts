import { StudentRecordsResponse } from '../schemas/records';
import { endpoint } from './endpoint';

const tags = ['account'];

export const getOwnRecords = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/account/records/',
  summary: 'Everything the institution holds about you, the signed-in student, as JSON',
  description:
    'Your account, roster entry, check-ins with your answers, drafts, survey invitations and records requests. Screening scores are for staff, and counsellors’ case notes are kept apart as treatment records. Each download is recorded in the audit log.',
  tags,
  response: { status: 200, schema: StudentRecordsResponse },
  errors: [401, 403],
  access: 'user',
});
