// The front door of this feature: all the rest of the server may use of it (src/server/feature-doors.unit.test.ts).
export { NO_BAND } from './instrument-bands';
export { smallGroupThreshold } from './queries';
export { countersBeforeCommit } from './rollups/pending-counters';
export { rebuildDashboardRollups, rebuildRollupsIn } from './rollups/rebuild';
export { recordStudentJoined, rollUpProvenSubmissions, rollUpStoredSubmission } from './rollups/record';
export { dashboardRoutes } from './routes';
export { MAX_STREAMS_PER_USER } from './service';
