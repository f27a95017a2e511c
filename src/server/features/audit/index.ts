// The front door of audit: all that the rest of the server may use of it (test/architecture).
export { auditRoutes } from './routes';
