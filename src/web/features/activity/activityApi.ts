import { exportAuditCsv, listAuditEntries } from '../../../common/endpoints/audit';
import { endpointUrl } from '../../../common/endpoints/endpoint';
import type { AuditFilters } from '../../../common/schemas/audit';
import { api } from '../../api';

interface ActivityQuery extends AuditFilters {
  page: number;
}

export const activityQueryKey = (query: ActivityQuery) => ['audit', query] as const;

export const fetchActivity = (query: ActivityQuery) => api.call(listAuditEntries, { query });

export const activityExportUrl = (filters: AuditFilters) => endpointUrl(exportAuditCsv, {}, filters);
