// The front door of roster: all that the rest of the server may use of it (test/architecture).
export { rosterRoutes } from './routes';
export { importRoster } from './service';
