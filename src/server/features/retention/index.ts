// The front door of retention: all that the rest of the server may use of it (test/architecture).
export { monthsBefore } from './policy';
export { purgeJobKind } from './purge';
export { startRetention } from './retention';
export { retentionRoutes } from './routes';
