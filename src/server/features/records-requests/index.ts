// The front door of records-requests: all that the rest of the server may use of it (test/architecture).
export { openRequestOf, relabelRequests, requestsOf } from './queries';
export { recordsRequestRoutes } from './routes';
