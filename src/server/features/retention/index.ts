// The front door of this feature: all the rest of the server may use of it (src/server/feature-doors.unit.test.ts).
export { monthsBefore } from './policy';
export { purgeJobKind } from './purge';
export { startRetention } from './retention';
export { retentionRoutes } from './routes';
