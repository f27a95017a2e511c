// The front door of this feature: all the rest of the server may use of it (src/server/feature-doors.unit.test.ts).
export { heldEmails, holdOf } from './queries';
export { legalHoldRoutes } from './routes';
