import {
  CaseDetailResponse,
  type CaseFilters,
  type CaseListQuery,
  CaseListResponse,
  type CaseOutcome,
  StudentHistoryResponse,
} from '../../../common/schemas/cases';
import { api } from '../../api';

/** Every page of the case list, whatever its filters: invalidated after any change to a case. */
export const CASES_LIST_QUERY_KEY = ['cases', 'list'] as const;
export const casesListQueryKey = (query: CaseListQuery) => [...CASES_LIST_QUERY_KEY, query] as const;
export const caseQueryKey = (id: number) => ['cases', id] as const;
export const historyQueryKey = (id: number) => ['students', id, 'history'] as const;

export const casePath = (id: number) => `/cases/${id}/`;
export const historyPath = (studentId: number) => `/students/${studentId}/history/`;

/** The list's filters as a query string, defaults left out. */
function caseParams(query: Partial<CaseListQuery>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function fetchCases(query: CaseListQuery) {
  return api.get(`/api/cases/${caseParams(query)}`, CaseListResponse);
}

/** The CSV of the list as filtered and sorted (every page). */
export const casesExportUrl = (filters: CaseFilters) => `/api/cases/export.csv${caseParams(filters)}`;

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
