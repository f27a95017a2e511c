import { postErasures, postErasuresPreview } from '../../../common/endpoints/erasure';
import {
  getRecordsRequests,
  postRecordsRequests,
  postRecordsRequestsFulfil,
} from '../../../common/endpoints/records-requests';
import { getAccountRecords } from '../../../common/endpoints/student-records';
import type { OpenRecordsRequest } from '../../../common/schemas/records';
import { api } from '../../api';

export const RECORDS_REQUESTS_QUERY_KEY = ['records-requests'] as const;
export const OWN_RECORDS_QUERY_KEY = ['own-records'] as const;

export function previewErasure(email: string) {
  return api.call(postErasuresPreview, { body: { email } });
}

export function eraseStudent(email: string) {
  return api.call(postErasures, { body: { email } });
}

export function fetchRecordsRequests() {
  return api.call(getRecordsRequests);
}

export function openRecordsRequest(request: OpenRecordsRequest) {
  return api.call(postRecordsRequests, { body: request });
}

export function fulfilRecordsRequest(id: number) {
  return api.call(postRecordsRequestsFulfil, { params: { id } });
}

export function fetchOwnRecords() {
  return api.call(getAccountRecords);
}
