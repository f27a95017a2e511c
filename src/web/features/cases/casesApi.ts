import * as endpoints from '../../../common/endpoints/cases';
import { endpointUrl } from '../../../common/endpoints/endpoint';
import type { CaseFilters, CaseListQuery, CaseOutcome } from '../../../common/schemas/cases';
import { api } from '../../api';

/** Every page of the case list, whatever its filters: invalidated after any change to a case. */
export const CASES_LIST_QUERY_KEY = ['cases', 'list'] as const;
export const casesListQueryKey = (query: CaseListQuery) => [...CASES_LIST_QUERY_KEY, query] as const;
export const caseQueryKey = (id: number) => ['cases', id] as const;
export const historyQueryKey = (id: number) => ['students', id, 'history'] as const;

export const casePath = (id: number) => `/cases/${id}/`;
export const historyPath = (studentId: number) => `/students/${studentId}/history/`;

export function fetchCases(query: CaseListQuery) {
  return api.call(endpoints.listCases, { query });
}

/** The CSV of the list as filtered and sorted (every page). */
export const casesExportUrl = (filters: CaseFilters) => endpointUrl(endpoints.exportCases, {}, filters);

export function fetchCase(id: number) {
  return api.call(endpoints.getCase, { params: { id } });
}

export function acknowledgeCase(id: number) {
  return api.call(endpoints.acknowledgeCase, { params: { id } });
}

export function assignCase(id: number, userId: number) {
  return api.call(endpoints.assignCase, { params: { id }, body: { user_id: userId } });
}

export function addCaseNote(id: number, text: string) {
  return api.call(endpoints.addCaseNote, { params: { id }, body: { text } });
}

export function resolveCase(id: number, outcome: CaseOutcome, note: string) {
  return api.call(endpoints.resolveCase, {
    params: { id },
    body: { outcome, ...(note.trim() ? { note } : {}) },
  });
}

export function fetchStudentHistory(id: number) {
  return api.call(endpoints.getStudentHistory, { params: { id } });
}

export function reopenCase(id: number, note: string) {
  return api.call(endpoints.reopenCase, { params: { id }, body: note.trim() ? { note } : {} });
}
