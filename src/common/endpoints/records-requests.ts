import { SuccessMessage } from '../schemas/common';
import { OpenRecordsRequest, RecordsRequestResponse, RecordsRequestsResponse } from '../schemas/records';
import { endpoint } from './endpoint';
import { IdParams } from './shared';

const tags = ['institution'];

export const listRecordsRequests = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/records-requests/',
  summary: "Students' records requests, newest first, each with its 45-day deadline",
  tags,
  response: { status: 200, schema: RecordsRequestsResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'settings' },
});

export const openRecordsRequest = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/records-requests/',
  summary: "Open a student's records request, due in 45 days; their data cannot be erased while it is open",
  tags,
  body: OpenRecordsRequest,
  response: { status: 200, schema: RecordsRequestResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'settings' },
});

export const fulfilRecordsRequest = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/records-requests/:id/fulfil/',
  summary: 'Mark a records request fulfilled: the records were given to the student',
  tags,
  params: IdParams,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'settings' },
});
