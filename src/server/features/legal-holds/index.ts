// The front door of legal-holds: all that the rest of the server may use of it (test/architecture).
export { heldEmails, holdOf } from './queries';
export { legalHoldRoutes } from './routes';
