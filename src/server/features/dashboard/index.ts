// The front door of dashboard: all that the rest of the server may use of it (test/architecture).
export { smallGroupThreshold } from './queries';
export { countersBeforeCommit } from './rollups/pending-counters';
export { rebuildDashboardRollups, rebuildRollupsIn } from './rollups/rebuild';
export type { RecordedAnswer } from './rollups/record';
export { recordStudentJoined, recordSubmission, recordUnprovenSubmission } from './rollups/record';
export type { CategoryMeans } from './rollups/student-state';
export { baselineOf, categoryMeans, changeFromBaseline } from './rollups/student-state';
export { dashboardRoutes } from './routes';
export { MAX_STREAMS_PER_USER } from './service';
