import { exportDashboardCsv, getDashboard, streamDashboard } from '../../../common/endpoints/dashboard';
import type { DashboardData } from '../../../common/schemas/dashboard';
import { api } from '../../api';

export const DASHBOARD_QUERY_KEY = ['dashboard'] as const;

/** Server-Sent Events: a `dashboard` event with fresh numbers after each submission. */
export const DASHBOARD_EVENTS_URL = streamDashboard.path;

/** Every submission of the institution as CSV, served as a download. */
export const DASHBOARD_EXPORT_URL = exportDashboardCsv.path;

export function fetchDashboard(): Promise<DashboardData> {
  return api.call(getDashboard);
}
