import {
  CaseDetailResponse,
  CaseListResponse,
  type CaseOutcome,
  StudentHistoryResponse,
} from '../../../common/schemas/cases';
import { api } from '../../api';

export const CASES_QUERY_KEY = ['cases'] as const;
export const caseQueryKey = (id: number) => ['cases', id] as const;
export const historyQueryKey = (id: number) => ['students', id, 'history'] as const;

export const casePath = (id: number) => `/cases/${id}/`;
export const historyPath = (studentId: number) => `/students/${studentId}/history/`;

export function fetchCases() {
  return api.get('/api/cases/?status=all', CaseListResponse);
}

export function fetchCase(id: number) {
  return api.get(`/api/cases/${id}/`, CaseDetailResponse);
}

export function acknowledgeCase(id: number) {
  return api.post(`/api/cases/${id}/acknowledge/`, CaseDetailResponse);
}

export function assignCase(id: number, userId: number) {
  return api.post(`/api/cases/${id}/assign/`, CaseDetailResponse, { user_id: userId });
}

export function addCaseNote(id: number, text: string) {
  return api.post(`/api/cases/${id}/notes/`, CaseDetailResponse, { text });
}

export function resolveCase(id: number, outcome: CaseOutcome, note: string) {
  return api.post(`/api/cases/${id}/resolve/`, CaseDetailResponse, {
    outcome,
    ...(note.trim() ? { note } : {}),
  });
}

export function fetchStudentHistory(id: number) {
  return api.get(`/api/students/${id}/history/`, StudentHistoryResponse);
}

export function reopenCase(id: number, note: string) {
  return api.post(`/api/cases/${id}/reopen/`, CaseDetailResponse, note.trim() ? { note } : {});
}
