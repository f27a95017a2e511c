import { SuccessMessage } from '../../../common/schemas/common';
import {
  ErasurePreviewResponse,
  ErasureResponse,
  type OpenRecordsRequest,
  RecordsRequestResponse,
  RecordsRequestsResponse,
  StudentRecordsResponse,
} from '../../../common/schemas/records';
import { api } from '../../api';

export const RECORDS_REQUESTS_QUERY_KEY = ['records-requests'] as const;
export const OWN_RECORDS_QUERY_KEY = ['own-records'] as const;

export function previewErasure(email: string) {
  return api.post('/api/erasures/preview/', ErasurePreviewResponse, { email });
}

export function eraseStudent(email: string) {
  return api.post('/api/erasures/', ErasureResponse, { email });
}

export function fetchRecordsRequests() {
  return api.get('/api/records-requests/', RecordsRequestsResponse);
}

export function openRecordsRequest(request: OpenRecordsRequest) {
  return api.post('/api/records-requests/', RecordsRequestResponse, request);
}

export function fulfilRecordsRequest(id: number) {
  return api.post(`/api/records-requests/${id}/fulfil/`, SuccessMessage);
}

export function fetchOwnRecords() {
  return api.get('/api/account/records/', StudentRecordsResponse);
}
