import { postRosterStudentsLeft } from '../../../common/endpoints/roster';
import { RosterImportResponse, RosterPage } from '../../../common/schemas/roster';
import { api } from '../../api';

export const ROSTER_QUERY_KEY = ['roster'] as const;

export interface RosterSearch {
  q: string;
  group: string;
  offset: number;
  limit: number;
}

export function fetchRoster(search: RosterSearch) {
  const params = new URLSearchParams({ offset: String(search.offset), limit: String(search.limit) });
  if (search.q.trim()) params.set('q', search.q.trim());
  if (search.group) params.set('group', search.group);
  return api.get(`/api/roster/?${params}`, RosterPage);
}

/** Sends the file as it is: the server reads the CSV (BOM, quotes and line endings included). */
export function uploadRoster(file: Blob, missing: 'keep' | 'leave' = 'keep') {
  return api.post(`/api/roster/?missing=${missing}`, RosterImportResponse, undefined, {
    text: { content: file, type: 'text/csv' },
  });
}

/** Marks a student as having left (no more invitations, out of the response rate), or back. */
export function setStudentLeft(studentId: number, left: boolean) {
  return api.call(postRosterStudentsLeft, { params: { id: studentId }, body: { left } });
}
