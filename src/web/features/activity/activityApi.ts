import { type AuditFilters, AuditPage } from '../../../common/schemas/audit';
import { api } from '../../api';

interface ActivityQuery extends AuditFilters {
  page: number;
}

/** The filters as a query string, empty ones left out. */
function filterParams(filters: AuditFilters & { page?: number }): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const activityQueryKey = (query: ActivityQuery) => ['audit', query] as const;

export const fetchActivity = (query: ActivityQuery) =>
  api.get(`/api/audit/${filterParams(query)}`, AuditPage);

export const activityExportUrl = (filters: AuditFilters) => `/api/audit/export.csv${filterParams(filters)}`;
