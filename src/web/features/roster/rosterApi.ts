import { importRoster, listRoster, markStudentLeft } from '../../../common/endpoints/roster';
import { api } from '../../api';

export const ROSTER_QUERY_KEY = ['roster'] as const;

export interface RosterSearch {
  q: string;
  group: string;
  offset: number;
  limit: number;
}

export function fetchRoster(search: RosterSearch) {
  const { offset, limit, group } = search;
  return api.call(listRoster, { query: { offset, limit, q: search.q.trim(), group } });
}

/** Sends the file as it is: the server reads the CSV (BOM, quotes and line endings included). */
export function uploadRoster(file: Blob, missing: 'keep' | 'leave' = 'keep') {
  return api.call(importRoster, { query: { missing }, text: { content: file, type: 'text/csv' } });
}

/** Marks a student as having left (no more invitations, out of the response rate), or back. */
export function setStudentLeft(studentId: number, left: boolean) {
  return api.call(markStudentLeft, { params: { id: studentId }, body: { left } });
}
