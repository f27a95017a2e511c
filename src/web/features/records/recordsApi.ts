import * as erasure from '../../../common/endpoints/erasure';
import * as recordsRequests from '../../../common/endpoints/records-requests';
import * as studentRecords from '../../../common/endpoints/student-records';
import type { OpenRecordsRequest } from '../../../common/schemas/records';
import { api } from '../../api';

export const RECORDS_REQUESTS_QUERY_KEY = ['records-requests'] as const;
export const OWN_RECORDS_QUERY_KEY = ['own-records'] as const;

export function previewErasure(email: string) {
  return api.call(erasure.previewErasure, { body: { email } });
}

export function eraseStudent(email: string) {
  return api.call(erasure.eraseStudent, { body: { email } });
}

export function fetchRecordsRequests() {
  return api.call(recordsRequests.listRecordsRequests);
}

export function openRecordsRequest(request: OpenRecordsRequest) {
  return api.call(recordsRequests.openRecordsRequest, { body: request });
}

export function fulfilRecordsRequest(id: number) {
  return api.call(recordsRequests.fulfilRecordsRequest, { params: { id } });
}

export function fetchOwnRecords() {
  return api.call(studentRecords.getOwnRecords);
}
